import type { Redis } from 'ioredis';
import { ConnectionWatch } from './connection-errors.js';
import { RedisClients } from './redis-clients.js';
import { LeaseKeyedLock, type LeaseKeyedLockOptions } from '../lease-keyed-lock.js';

/** Deletes the key only while it still holds the caller's token (never someone else's lock). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
/** Extends the key's expiry only while it still holds the caller's token. */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export interface RedisKeyedLockOptions extends LeaseKeyedLockOptions {
  /** Redis URL, e.g. `redis://127.0.0.1:6379/0`. */
  url: string;
  /** Key prefix, as the queue's; keys are `<prefix>:lock:<key>`. Default `parley`. */
  prefix?: string;
}

/**
 * `KeyedLock` across the processes of a networked deployment, on the queue's Redis: a key is
 * `SET NX PX` with a random token, its expiry extended by a script while held, and deleted by a
 * script that compares the token first. Not Redlock: one Redis is the authority, as it is for the
 * jobs themselves.
 */
export class RedisKeyedLock extends LeaseKeyedLock {
  readonly #clients: RedisClients;
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(options: RedisKeyedLockOptions) {
    super(options);
    this.#prefix = options.prefix ?? 'parley';
    this.#clients = new RedisClients(options.url, new ConnectionWatch(this.logger, { component: 'locks', url: options.url }));
    this.#redis = this.#clients.client({ lazyConnect: true, maxRetriesPerRequest: 3 });
  }

  protected async tryTake(key: string, token: string): Promise<boolean> {
    return (await this.#redis.set(this.#key(key), token, 'PX', this.leaseMs, 'NX')) === 'OK';
  }

  protected async renew(keys: string[], token: string): Promise<boolean> {
    const results = await Promise.all(keys.map((k) => this.#redis.eval(RENEW, 1, this.#key(k), token, this.leaseMs)));
    return results.every((r) => r === 1);
  }

  protected async release(keys: string[], token: string): Promise<void> {
    await Promise.all(keys.map((k) => this.#redis.eval(RELEASE, 1, this.#key(k), token)));
  }

  async close(): Promise<void> {
    await this.#clients.close();
  }

  #key(key: string): string {
    return `${this.#prefix}:lock:${key}`;
  }
}
