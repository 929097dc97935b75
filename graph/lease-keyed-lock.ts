import crypto from 'node:crypto';
import type { Logger } from 'pino';
import { lockOrder, lockTimeout, runHeld, untilAborted, type KeyedLock, type KeyedLockOptions } from './keyed-lock.js';
import { MemoryKeyedLock } from './memory-keyed-lock.js';

export interface LeaseKeyedLockOptions extends KeyedLockOptions {
  /**
   * Lease of a held key, ms; default 30 000. The holder renews it every third of that, so a key
   * outlives its holder (a crashed process) by at most this long.
   */
  leaseMs?: number;
  logger?: Logger;
}

/**
 * A `KeyedLock` shared by processes through a store that keeps leases: a key is taken with a
 * random token if free or its lease lapsed, renewed while held, and released only while it still
 * holds that token. Waiters poll with a growing, jittered pause. Within the process a
 * `MemoryKeyedLock` goes first, so jobs of one process queue without polling the store.
 * Subclasses supply the three store operations.
 */
export abstract class LeaseKeyedLock implements KeyedLock {
  readonly #local: MemoryKeyedLock;
  protected readonly leaseMs: number;
  protected readonly logger: Logger | undefined;
  readonly #maxWaitMs: number;

  constructor(options: LeaseKeyedLockOptions) {
    this.#maxWaitMs = options.maxWaitMs ?? 60_000;
    this.#local = new MemoryKeyedLock({ maxWaitMs: this.#maxWaitMs });
    this.leaseMs = options.leaseMs ?? 30_000;
    this.logger = options.logger;
  }

  /** Take `key` for `token` for one lease if nobody holds it (or its lease lapsed); true when taken. */
  protected abstract tryTake(key: string, token: string): Promise<boolean>;
  /** Extend the lease of every key still held by `token`; true when all were. */
  protected abstract renew(keys: string[], token: string): Promise<boolean>;
  /** Free every key still held by `token` (never one another holder took over). */
  protected abstract release(keys: string[], token: string): Promise<void>;
  abstract close(): Promise<void>;

  async withLock<T>(keys: readonly string[], work: (signal: AbortSignal) => Promise<T>, holder?: AbortSignal): Promise<T> {
    holder?.throwIfAborted();
    // Nothing to hold (an utterance with no facts): nothing to wait for, renew or lose.
    if (keys.length === 0) return runHeld(work, holder ?? new AbortController().signal, holder);
    const deadline = Date.now() + this.#maxWaitMs;
    // The holder aborted (its try overran): the local turn ends at once (`MemoryKeyedLock`) and so does this call, whose
    // `finally` frees the keys in the store, so a retry in this process or another takes them without waiting a lease.
    return this.#local.withLock(keys, async () => {
      const token = crypto.randomUUID();
      const held: string[] = [];
      const lost = new AbortController();
      let renewals: NodeJS.Timeout | undefined;
      try {
        for (const key of lockOrder(keys)) {
          await this.#take(key, token, deadline, holder);
          held.push(key);
        }
        let renewedAt = Date.now();
        renewals = setInterval(() => {
          void this.renew(held, token).then((all) => {
            if (all) renewedAt = Date.now();
            else lost.abort(new Error('lock lost: another holder took a key after its lease lapsed'));
          }, (err: Error) => {
            // Store unreachable: the keys may still be ours; once a whole lease passed unrenewed they are not.
            if (Date.now() - renewedAt >= this.leaseMs) lost.abort(new Error(`lock lease lapsed: ${err.message}`));
          });
        }, Math.max(10, Math.floor(this.leaseMs / 3)));
        return await untilAborted(runHeld(work, holder ? AbortSignal.any([lost.signal, holder]) : lost.signal, holder), holder);
      } finally {
        clearInterval(renewals);
        if (held.length > 0) {
          await this.release(held, token).catch((err: Error) => {
            // The keys lapse by themselves within one lease.
            this.logger?.warn({ err: err.message }, 'lock not released');
          });
        }
      }
    }, holder);
  }

  /** `tryTake` until it succeeds, `deadline` passes or `holder` aborts. */
  async #take(key: string, token: string, deadline: number, holder: AbortSignal | undefined): Promise<void> {
    for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
      holder?.throwIfAborted();
      if (await this.tryTake(key, token)) return;
      const left = deadline - Date.now();
      if (left <= 0) throw lockTimeout(key, this.#maxWaitMs);
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, pause / 2 + Math.random() * pause)));
    }
  }
}
