import { destination, pino, type Logger, type LoggerOptions } from 'pino';

/**
 * Keys that may hold personal data (transcripts, questions, names, credentials). Log such values only
 * under these keys; pino replaces them with `[redacted]`.
 */
export const REDACTED_PATHS = [
  'text', '*.text', 'transcript', '*.transcript', 'question', '*.question', 'name', '*.name',
  'req.headers.authorization', 'req.query.token', 'headers.authorization',
];

/** Query parameters that carry credentials, compared after percent-decoding (`?%74oken=` is `token`). */
const SECRET_PARAMS = new Set(['token', 'api_key', 'apikey', 'key', 'access_token']);

/**
 * A request URL safe to log: every query parameter whose decoded name is a credential has its value
 * replaced. Names are decoded before the check, as the router decodes them before authenticating.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const parts: string[] = [];
  for (const [name, value] of params) {
    const secret = SECRET_PARAMS.has(name.trim().toLowerCase());
    parts.push(`${encodeURIComponent(name)}=${secret ? '[redacted]' : encodeURIComponent(value)}`);
  }
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** pino options shared by the server and the worker process. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method?: string; url?: string; id?: string }) => ({
        method: req.method,
        url: req.url === undefined ? undefined : redactUrl(req.url),
        id: req.id,
      }),
    },
  };
}

/** The process logger: JSON lines on stdout, or on stderr with `toStderr` (the MCP stdio server, whose stdout is the protocol). */
export function createLogger(level: string, options: { toStderr?: boolean } = {}): Logger {
  return options.toStderr ? pino(loggerOptions(level), destination(2)) : pino(loggerOptions(level));
}
