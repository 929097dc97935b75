/** Error codes the server sends (docs/PROTOCOL.md, "Error codes"); a newer server may add more. */
export const PARLEY_ERROR_CODES = [
  'PARLEY_ERR_BAD_REQUEST', 'PARLEY_ERR_BAD_FRAME', 'PARLEY_ERR_UNKNOWN_TYPE', 'PARLEY_ERR_BAD_AUDIO',
  'PARLEY_ERR_FRAME_TOO_LARGE', 'PARLEY_ERR_UNAUTHORIZED', 'PARLEY_ERR_FORBIDDEN', 'PARLEY_ERR_NOT_FOUND', 'PARLEY_ERR_METHOD_NOT_ALLOWED',
  'PARLEY_ERR_CONFLICT', 'PARLEY_ERR_UTTERANCE_ID_CONFLICT', 'PARLEY_ERR_IDEMPOTENCY_KEY_REUSED',
  'PARLEY_ERR_SESSION_ENDED', 'PARLEY_ERR_SESSION_BUSY', 'PARLEY_ERR_RATE_LIMITED', 'PARLEY_ERR_OVERLOADED', 'PARLEY_ERR_STORE_UNAVAILABLE',
  'PARLEY_ERR_EMBEDDING_MISMATCH', 'PARLEY_ERR_MODEL_MISSING', 'PARLEY_ERR_WORKER_CRASHED', 'PARLEY_ERR_UPSTREAM',
  'PARLEY_ERR_SHUTTING_DOWN', 'PARLEY_ERR_INTERNAL',
] as const;

/** Codes a retry of the same request may succeed after. */
const RETRYABLE = new Set<string>([
  'PARLEY_ERR_SESSION_BUSY', 'PARLEY_ERR_RATE_LIMITED', 'PARLEY_ERR_OVERLOADED', 'PARLEY_ERR_STORE_UNAVAILABLE', 'PARLEY_ERR_WORKER_CRASHED',
  'PARLEY_ERR_UPSTREAM', 'PARLEY_ERR_SHUTTING_DOWN', 'PARLEY_ERR_INTERNAL',
]);

export type ParleyErrorCode = (typeof PARLEY_ERROR_CODES)[number];

/** Codes the client itself raises, never sent by a server. */
export type ClientErrorCode =
  /** The server could not be reached, or the connection broke mid-request. */
  | 'PARLEY_CLIENT_NETWORK'
  /** The server answered something that is not a Parley response (e.g. a proxy's HTML page). */
  | 'PARLEY_CLIENT_BAD_RESPONSE'
  /** The stream closed before the awaited event, or could not be resumed. */
  | 'PARLEY_CLIENT_CLOSED'
  /** An awaited event did not come in time. */
  | 'PARLEY_CLIENT_TIMEOUT'
  /**
   * The code of the non-fatal `error` event a stream yields after a reconnect for each message sent, never
   * acknowledged and not sent again (a query, an utterance without `utterance_id`); `dropped` names it.
   */
  | 'PARLEY_CLIENT_LOST'
  /** The client was built with options it cannot use (a `baseUrl` that is not the server's http(s) root). */
  | 'PARLEY_CLIENT_BAD_OPTIONS';

export interface ParleyErrorOptions {
  /** HTTP status, when the error came with an HTTP response. */
  status?: number;
  /** True for a WebSocket `error` event with `fatal: true` (the socket closes after it). */
  fatal?: boolean;
  /** The WebSocket close code that followed a fatal error. */
  closeCode?: number;
  /** The server's `Retry-After`, ms (a 429 `PARLEY_ERR_RATE_LIMITED`). */
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * Every error the SDK throws or yields: `code` is the server's `PARLEY_ERR_*` code from its error body
 * or `error` event (a string, since a newer server may send a code this SDK does not list), or a
 * `PARLEY_CLIENT_*` code for what went wrong on the client's side.
 */
export class ParleyError extends Error {
  readonly code: ParleyErrorCode | ClientErrorCode | (string & {});
  readonly status: number | undefined;
  readonly fatal: boolean;
  /** The WebSocket close code that followed a fatal error (e.g. 1013 for a server at capacity). */
  readonly closeCode: number | undefined;
  /**
   * How long the server asked the client to wait before trying again, ms (its `Retry-After` header;
   * set on `PARLEY_ERR_RATE_LIMITED`, and on any error response that carries the header).
   */
  readonly retryAfterMs: number | undefined;

  constructor(code: ParleyError['code'], message: string, options: ParleyErrorOptions = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'ParleyError';
    this.code = code;
    this.status = options.status;
    this.fatal = options.fatal ?? false;
    this.closeCode = options.closeCode;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** Whether the same request may succeed if retried later. */
  get retryable(): boolean {
    return RETRYABLE.has(this.code) || this.code === 'PARLEY_CLIENT_NETWORK';
  }
}

/**
 * A `Retry-After` header in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A ParleyError from an HTTP error response (a Parley error body, or whatever came instead). */
export function errorFromResponse(status: number, body: unknown, text: string, retryAfter?: string | null): ParleyError {
  const retryAfterMs = parseRetryAfter(retryAfter);
  const extra = { status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ParleyError(error.code, error.message, extra);
  }
  return new ParleyError('PARLEY_CLIENT_BAD_RESPONSE', `HTTP ${status}: ${text.slice(0, 200)}`, extra);
}
