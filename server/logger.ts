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

/** Query parameters that name or identify a person, or carry free text about one (`?participant=Sam%20Lee`, `?q=`). */
const PERSON_PARAMS = new Set(['participant', 'asker', 'speaker', 'addressee', 'external_id', 'name', 'q', 'question']);

/** Path segments that follow these segments are a person's id, external_id or name (`/v1/participants/Tom%20Becker`). */
const PERSON_PATH_PARENTS = new Set(['participants']);

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path with every segment that names a person replaced, so the route's shape stays readable. */
function redactPath(path: string): string {
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i += 1) {
    if (PERSON_PATH_PARENTS.has(decoded(segments[i - 1]!).toLowerCase()) && segments[i] !== '') segments[i] = '[redacted]';
  }
  return segments.join('/');
}

/**
 * A request URL safe to log: a path segment that names a person (a participant's id, external_id or
 * name) and every query parameter whose decoded name is a credential or names a person have their
 * values replaced. Names are decoded before the check, as the router decodes them before using them.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = redactPath(q < 0 ? url : url.slice(0, q));
  if (q < 0) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  const parts: string[] = [];
  for (const [name, value] of params) {
    const key = name.trim().toLowerCase();
    const hidden = SECRET_PARAMS.has(key) || PERSON_PARAMS.has(key);
    parts.push(`${encodeURIComponent(name)}=${hidden ? '[redacted]' : encodeURIComponent(value)}`);
  }
  return `${path}?${parts.join('&')}`;
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
