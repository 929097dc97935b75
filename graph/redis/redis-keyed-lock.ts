import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { lockOrder, lockTimeout, type KeyedLock, type KeyedLockOptions } from '../keyed-lock.js';
import { MemoryKeyedLock } from '../memory-keyed-lock.js';

/** Deletes the key only while it still holds the caller's token (never someone else's lock). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
/** Extends the key's expiry only while it still holds the caller's token. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisKeyedLockOptions extends KeyedLockOptions {
  /** Redis URL, e.g. `redis://127.0.0.1:6379/0`. */
  url: string;
  /** Key prefix, as the queue's; keys are `<prefix>:lock:<key>`. Default `parley`. */
  prefix?: string;
  /**
   * Lease of a held key, ms; default 30 000. The holder renews it every third of that, so a key
   * outlives its holder (a crashed process) by at most this long.
   */
  leaseMs?: number;
  logger?: Logger;
}

/**
 * `KeyedLock` across processes on Redis: a key is held by `SET NX PX` with a random token, renewed
 * while held, and released by a script that deletes it only if it still holds that token. Waiters
 * poll with a growing, jittered pause. Within the process a `MemoryKeyedLock` goes first.
 * Not Redlock: one Redis (the queue's) is the authority, as it is for the jobs themselves.
 */
export class RedisKeyedLock implements KeyedLock {
  readonly #redis: Redis;
  readonly #local: MemoryKeyedLock;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #maxWaitMs: number;
  readonly #logger: Logger | undefined;

  constructor(options: RedisKeyedLockOptions) {
    this.#maxWaitMs = options.maxWaitMs ?? 60_000;
    this.#local = new MemoryKeyedLock({ maxWaitMs: this.#maxWaitMs });
    this.#prefix = options.prefix ?? 'parley';
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#logger = options.logger;
    this.#redis = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    this.#redis.on('error', (err: Error) => this.#logger?.warn({ err: err.message }, 'lock connection error'));
  }

  async withLock<T>(keys: readonly string[], work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.#maxWaitMs;
    return this.#local.withLock(keys, async () => {
      const token = crypto.randomUUID();
      const held: string[] = [];
      const lost = new AbortController();
      let renewals: NodeJS.Timeout | undefined;
      try {
        for (const key of lockOrder(keys)) {
          await this.#take(this.#key(key), token, deadline, key);
          held.push(this.#key(key));
        }
        let renewedAt = Date.now();
        renewals = setInterval(() => {
          void this.#renew(held, token).then((all) => {
            if (all) renewedAt = Date.now();
            else lost.abort(new Error('lock lost: another holder took a key after its lease lapsed'));
          }, (err: Error) => {
            // Redis unreachable: the keys may still be ours; once a whole lease passed unrenewed they are not.
            if (Date.now() - renewedAt >= this.#leaseMs) lost.abort(new Error(`lock lease lapsed: ${err.message}`));
          });
        }, Math.max(10, Math.floor(this.#leaseMs / 3)));
        return await work(lost.signal);
      } finally {
        clearInterval(renewals);
        await this.#release(held, token);
      }
    });
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }

  #key(key: string): string {
    return `${this.#prefix}:lock:${key}`;
  }

  /** `SET NX` until it succeeds or `deadline` passes. */
  async #take(redisKey: string, token: string, deadline: number, key: string): Promise<void> {
    for (let pause = 5; ; pause = Math.min(pause * 2, 200)) {
      if ((await this.#redis.set(redisKey, token, 'PX', this.#leaseMs, 'NX')) === 'OK') return;
      const left = deadline - Date.now();
      if (left <= 0) throw lockTimeout(key, this.#maxWaitMs);
      await new Promise((resolve) => setTimeout(resolve, Math.min(left, pause / 2 + Math.random() * pause)));
    }
  }

  /** True when every key still held the token and had its lease extended. */
  async #renew(redisKeys: string[], token: string): Promise<boolean> {
    const results = await Promise.all(redisKeys.map((k) => this.#redis.eval(RENEW, 1, k, token, this.#leaseMs)));
    return results.every((r) => r === 1);
  }

  async #release(redisKeys: string[], token: string): Promise<void> {
    await Promise.all(redisKeys.map((k) => this.#redis.eval(RELEASE, 1, k, token))).catch((err: Error) => {
      // The keys expire by themselves within one lease.
      this.#logger?.warn({ err: err.message }, 'lock not released');
    });
  }
}
