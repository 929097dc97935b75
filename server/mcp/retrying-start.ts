import { ParleyError, type ErrorCode } from '../../graph/core/errors.js';

/** How `RetryingStart` spaces its attempts. */
export interface RetryingStartOptions {
  /** Wait after the first failed attempt, ms; doubled after each further one. Default 1000. */
  initialDelayMs?: number;
  /** The longest wait between attempts, ms. Default 30000. */
  maxDelayMs?: number;
  /** Told of each failed attempt and of the wait before the next. */
  onFailure?: (err: unknown, attempt: number, retryInMs: number) => void;
  /** Told when an attempt succeeds (`attempts`: how many it took, this one included). */
  onOpen?: (attempts: number) => void;
}

/** Why a start has not (yet) given its value: the last attempt's failure, with the code it carried. */
export class NotReadyError extends ParleyError {
  constructor(code: ErrorCode, reason: string, retryInMs: number) {
    super(code, `stores not ready: ${reason}, retrying (next attempt in ${Math.ceil(retryInMs / 1000)} s)`);
  }
}

/**
 * Something opened at start-up (the stdio MCP server's app and stores) that is tried again with backoff for as long as
 * it fails, instead of failing for good: a store that is unreachable or unusable at start is used once it can be.
 * `get()` waits for the first attempt; after that it answers at once, with the value or a `NotReadyError`.
 */
export class RetryingStart<T> {
  private value: T | null = null;
  private failure: { code: ErrorCode; reason: string; at: number; delayMs: number } | null = null;
  private readonly first: Promise<void>;
  private attempt: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private failures = 0;

  constructor(private readonly open: () => Promise<T>, private readonly options: RetryingStartOptions = {}) {
    this.first = this.tryOpen();
  }

  /**
   * The value once open.
   * @throws NotReadyError while attempts fail: the last one's reason (its Parley code, else `PARLEY_ERR_STORE_UNAVAILABLE`).
   */
  async get(): Promise<T> {
    await this.first;
    if (this.value !== null) return this.value;
    if (this.closed || !this.failure) throw new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'stores not ready: shutting down');
    const { code, reason, at, delayMs } = this.failure;
    throw new NotReadyError(code, reason, Math.max(0, at + delayMs - Date.now()));
  }

  /** Stop retrying; the attempt in progress finishes first. The value, if any was opened, is handed to `dispose`. */
  async close(dispose: (value: T) => Promise<void>): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.attempt;
    if (this.value !== null) await dispose(this.value);
  }

  private tryOpen(): Promise<void> {
    this.attempt = this.open().then(
      (value) => {
        this.value = value;
        this.failure = null;
        this.options.onOpen?.(this.failures + 1);
      },
      (err: unknown) => this.failed(err),
    );
    return this.attempt;
  }

  private failed(err: unknown): void {
    this.failures += 1;
    const initial = this.options.initialDelayMs ?? 1000;
    const delayMs = Math.min(this.options.maxDelayMs ?? 30_000, initial * 2 ** Math.min(this.failures - 1, 30));
    this.failure = {
      code: err instanceof ParleyError ? err.code : 'PARLEY_ERR_STORE_UNAVAILABLE',
      reason: err instanceof Error ? err.message : String(err),
      at: Date.now(),
      delayMs,
    };
    if (this.closed) return;
    this.options.onFailure?.(err, this.failures, delayMs);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.closed) void this.tryOpen();
    }, delayMs);
    this.timer.unref();
  }
}
