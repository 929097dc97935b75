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
   */
  withLock<T>(keys: readonly string[], work: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Release connections; held keys are released by their `withLock` calls. */
  close(): Promise<void>;
}

/** Distinct keys in the order every lock takes them. */
export function lockOrder(keys: readonly string[]): string[] {
  return [...new Set(keys)].sort();
}

/** The error a `withLock` throws when it gave up waiting for `key`. */
export function lockTimeout(key: string, waitedMs: number): ParleyError {
  return new ParleyError('PARLEY_ERR_OVERLOADED', `lock ${key} not acquired within ${waitedMs} ms`);
}
