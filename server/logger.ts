import { pino, type Logger, type LoggerOptions } from 'pino';

/**
 * Keys that may hold personal data (transcripts, questions, names, credentials). Log such values only
 * under these keys; pino replaces them with `[redacted]`.
 */
export const REDACTED_PATHS = [
  'text', '*.text', 'transcript', '*.transcript', 'question', '*.question', 'name', '*.name',
  'req.headers.authorization', 'req.query.token', 'headers.authorization',
];

/** pino options shared by the server and the worker process. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method?: string; url?: string; id?: string }) => ({
        method: req.method,
        url: req.url?.replace(/([?&]token=)[^&]*/, '$1[redacted]'),
        id: req.id,
      }),
    },
  };
}

export function createLogger(level: string): Logger {
  return pino(loggerOptions(level));
}
