import { isStoreOutage } from './job-queue.js';
import { isBusy } from './sqlite/sqlite-bus-members.js';

/**
 * Whether a store call failed in a way that a moment later may not: a backend that did not answer
 * (`PARLEY_ERR_STORE_UNAVAILABLE` anywhere in the cause chain, as the Neo4j, Qdrant and Redis stores classify
 * a lost connection, a leader change outlasting the driver's own retries, a timeout) or an embedded file
 * another connection held locked past the busy timeout (`SQLITE_BUSY`, extended codes included).
 */
export function isTransientStoreError(err: unknown): boolean {
  // Anything may be thrown: a value that is no object (null included) is no store's error.
  if (typeof err !== 'object' || err === null) return false;
  return isStoreOutage(err) || isBusy(err);
}

/** How {@link retryTransient} retries. */
export interface TransientRetryOptions {
  /** Tries in all, the first included; default {@link TRANSIENT_TRIES}. */
  tries?: number;
  /** Wait before the second try, ms, multiplied by 4 for each try after; default 100. */
  delayMs?: number;
  /** No try begins this long after the first began, ms; default {@link TRANSIENT_RETRY_WITHIN_MS}. */
  withinMs?: number;
  /** Told of each transient failure that is tried again (to log it). */
  onRetry?: (err: unknown, tried: number) => void;
}

/** Tries in all of a store write that fails transiently (see {@link retryTransient}). */
export const TRANSIENT_TRIES = 3;
/** No retry begins later than this after the first try, ms (a Neo4j call that timed out is not tried again). */
export const TRANSIENT_RETRY_WITHIN_MS = 15_000;

/**
 * Run `work`, trying it again after a transient store failure ({@link isTransientStoreError}) a bounded number
 * of times, with a growing pause; any other failure, or the last transient one, is thrown as it is. `work` must
 * be safe to run twice (an idempotent write: a failure may come after the commit).
 */
export async function retryTransient<T>(work: () => Promise<T>, options: TransientRetryOptions = {}): Promise<T> {
  const tries = options.tries ?? TRANSIENT_TRIES;
  const withinMs = options.withinMs ?? TRANSIENT_RETRY_WITHIN_MS;
  const started = Date.now();
  for (let tried = 1; ; tried++) {
    try {
      return await work();
    } catch (err) {
      const pause = (options.delayMs ?? 100) * 4 ** (tried - 1);
      if (tried >= tries || !isTransientStoreError(err) || Date.now() + pause - started > withinMs) throw err;
      options.onRetry?.(err, tried);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
