/**
 * The one table of Parley's error codes. Every error a client can see has a stable `code`, an HTTP
 * status, a WebSocket close code (used only when the error is fatal for the socket) and whether
 * retrying the same request may succeed.
 */
export const ERRORS = {
  PARLEY_ERR_BAD_REQUEST: { status: 400, wsClose: 1008, retryable: false },
  PARLEY_ERR_BAD_FRAME: { status: 400, wsClose: 1003, retryable: false },
  PARLEY_ERR_UNKNOWN_TYPE: { status: 400, wsClose: 1003, retryable: false },
  PARLEY_ERR_BAD_AUDIO: { status: 400, wsClose: 1003, retryable: false },
  PARLEY_ERR_FRAME_TOO_LARGE: { status: 413, wsClose: 1009, retryable: false },
  PARLEY_ERR_UNAUTHORIZED: { status: 401, wsClose: 1008, retryable: false },
  PARLEY_ERR_FORBIDDEN: { status: 403, wsClose: 1008, retryable: false },
  PARLEY_ERR_NOT_FOUND: { status: 404, wsClose: 1008, retryable: false },
  PARLEY_ERR_METHOD_NOT_ALLOWED: { status: 405, wsClose: 1008, retryable: false },
  PARLEY_ERR_CONFLICT: { status: 409, wsClose: 1008, retryable: false },
  PARLEY_ERR_UTTERANCE_ID_CONFLICT: { status: 409, wsClose: 1008, retryable: false },
  PARLEY_ERR_IDEMPOTENCY_KEY_REUSED: { status: 422, wsClose: 1008, retryable: false },
  PARLEY_ERR_SESSION_ENDED: { status: 409, wsClose: 4001, retryable: false },
  PARLEY_ERR_SESSION_BUSY: { status: 409, wsClose: 4000, retryable: false },
  PARLEY_ERR_RATE_LIMITED: { status: 429, wsClose: 1013, retryable: true },
  PARLEY_ERR_OVERLOADED: { status: 503, wsClose: 1013, retryable: true },
  PARLEY_ERR_STORE_UNAVAILABLE: { status: 503, wsClose: 1011, retryable: true },
  PARLEY_ERR_EMBEDDING_MISMATCH: { status: 500, wsClose: 1011, retryable: false },
  PARLEY_ERR_MODEL_MISSING: { status: 503, wsClose: 1011, retryable: false },
  PARLEY_ERR_WORKER_CRASHED: { status: 503, wsClose: 1011, retryable: true },
  PARLEY_ERR_UPSTREAM: { status: 502, wsClose: 1011, retryable: true },
  PARLEY_ERR_SHUTTING_DOWN: { status: 503, wsClose: 1001, retryable: true },
  PARLEY_ERR_INTERNAL: { status: 500, wsClose: 1011, retryable: true },
} as const satisfies Record<string, { status: number; wsClose: number; retryable: boolean }>;

export type ErrorCode = keyof typeof ERRORS;

/** An error whose code and message are safe to show to a client. */
export class ParleyError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ParleyError';
    this.code = code;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  get retryable(): boolean {
    return ERRORS[this.code].retryable;
  }
}

/** Map any thrown value to a client-safe code and message; unknown errors never leak details. */
export function toClientError(err: unknown): { code: ErrorCode; message: string; status: number } {
  if (err instanceof ParleyError) return { code: err.code, message: err.message, status: err.status };
  return { code: 'PARLEY_ERR_INTERNAL', message: 'internal error', status: 500 };
}
