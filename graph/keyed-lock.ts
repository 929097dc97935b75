import { withCallSignal } from './call-signal.js';
import { ParleyError } from './core/errors.js';

/** Bounds of a `KeyedLock`. */
export interface KeyedLockOptions {
  /** Longest wait for every key of one `withLock` call, ms; default 60 000. Past it the call throws. */
  maxWaitMs?: number;
}

/**
 * Mutual exclusion by key (e.g. one consolidation per tenant and subject at a time).
 * Implementations: in-process (`MemoryKeyedLock`), across processes on Redis (`RedisKeyedLock`).
 */
export interface KeyedLock {
  /**
   * Run `work` while holding every key of `keys`. Keys are taken one by one in sorted order, so two
   * callers wanting overlapping keys never deadlock. Throws `PARLEY_ERR_OVERLOADED` (retryable) when
   * the keys are not all held within `maxWaitMs`; nothing is held then. `signal` aborts when a key
   * was lost while `work` ran (a networked lock whose lease lapsed): `work` should stop writing.
   *
   * `holder`, when given, is the caller's own signal (a job try's, aborted when the try overran `PARLEY_JOB_MAX_RUN_MS`
   * or its queue closed): once it aborts nothing more is waited for or taken, every key held is released at once (a
   * retry of the job may take them while the aborted `work` still hangs), the call rejects with its reason without
   * waiting for `work`, and the signal given to `work` aborts too, so that no write of `work` starts after that
   * (`throwIfAborted` before each). The store calls `work` makes heed `holder` as well (`withCallSignal`): one already
   * waiting at the embedded file's gate when it aborts never runs. Already aborted: the call throws before taking anything.
   */
  withLock<T>(keys: readonly string[], work: (signal: AbortSignal) => Promise<T>, holder?: AbortSignal): Promise<T>;
  /** Release connections; held keys are released by their `withLock` calls. */
  close(): Promise<void>;
}

/** Distinct keys in the order every lock takes them. */
export function lockOrder(keys: readonly string[]): string[] {
  return [...new Set(keys)].sort();
}

/** `work(signal)`, its store calls heeding `holder` (`withCallSignal`) when there is one. */
export function runHeld<T>(work: (signal: AbortSignal) => Promise<T>, signal: AbortSignal, holder: AbortSignal | undefined): Promise<T> {
  return holder ? withCallSignal(holder, () => work(signal)) : work(signal);
}

/**
 * `work`, or its rejection with `holder`'s reason as soon as `holder` aborts (whichever comes first); a later failure
 * of the abandoned `work` is dropped (it hangs or fails on its own, its keys already given up).
 */
export function untilAborted<T>(work: Promise<T>, holder: AbortSignal | undefined): Promise<T> {
  if (!holder) return work;
  if (holder.aborted) {
    work.catch(() => undefined);
    return Promise.reject(holder.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => {
      work.catch(() => undefined);
      reject(holder.reason as Error);
    };
    holder.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => holder.removeEventListener('abort', abort));
  });
}

/** The error a `withLock` throws when it gave up waiting for `key`. */
export function lockTimeout(key: string, waitedMs: number): ParleyError {
  return new ParleyError('PARLEY_ERR_OVERLOADED', `lock ${key} not acquired within ${waitedMs} ms`);
}
