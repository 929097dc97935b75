import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryKeyedLock } from '../../graph/memory-keyed-lock.js';
import { RedisKeyedLock } from '../../graph/redis/redis-keyed-lock.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { keyedLockContract } from './contracts/keyed-lock.contract.js';

const skip = await redisSkipReason();
let fixtures = 0;
const testPrefix = (): string => `parley-slotrace-lock-${process.pid}-${Date.now()}-${fixtures++}`;

keyedLockContract('in-process', async (maxWaitMs) => {
  // In one process every caller shares one lock.
  const lock = new MemoryKeyedLock(maxWaitMs !== undefined ? { maxWaitMs } : {});
  return {
    a: lock,
    b: lock,
    cleanup: async () => {
      // A finished turn leaves the map once the turns before it are over (a few microtasks later).
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(lock.size, 0, 'every key released, none left behind');
    },
  };
});

keyedLockContract('redis', async (maxWaitMs) => {
  const prefix = testPrefix();
  const handles: RedisKeyedLock[] = [];
  const open = (): RedisKeyedLock => {
    const lock = new RedisKeyedLock({ url: TEST_REDIS_URL, prefix, ...(maxWaitMs !== undefined ? { maxWaitMs } : {}) });
    handles.push(lock);
    return lock;
  };
  return {
    a: open(),
    b: open(),
    cleanup: async () => {
      for (const h of handles) await h.close();
      await deleteKeys(prefix);
    },
  };
}, skip);

describe('RedisKeyedLock leases', { skip }, () => {
  let redis: Redis;
  const prefixes: string[] = [];
  before(() => {
    redis = new Redis(TEST_REDIS_URL);
  });
  after(async () => {
    redis.disconnect();
    for (const p of prefixes) await deleteKeys(p);
  });
  const open = (options: { leaseMs?: number; maxWaitMs?: number } = {}): { lock: RedisKeyedLock; prefix: string } => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    return { lock: new RedisKeyedLock({ url: TEST_REDIS_URL, prefix, ...options }), prefix };
  };

  test('a crashed holder\'s key expires with its lease; a live holder keeps it past the lease by renewing', async () => {
    const { lock, prefix } = open({ leaseMs: 300, maxWaitMs: 10_000 });
    // A holder that died: its key stays, unrenewed, until the lease runs out.
    await redis.set(`${prefix}:lock:k`, 'dead-holder', 'PX', 300);
    const seen = await lock.withLock(['k'], async () => redis.get(`${prefix}:lock:k`));
    assert.ok(seen && seen !== 'dead-holder', 'taken once the dead holder\'s lease lapsed');

    // Held for three leases: renewals keep it, and nobody else gets it meanwhile.
    const other = open({ leaseMs: 300, maxWaitMs: 50 });
    await lock.withLock(['long'], async (signal) => {
      for (let i = 0; i < 9; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(signal.aborted, false);
      const got = await redis.get(`${prefix}:lock:long`);
      assert.ok(got, 'still held after three leases');
    });
    assert.equal(await redis.exists(`${prefix}:lock:long`), 0, 'released');
    await lock.close();
    await other.lock.close();
  });

  test('a holder whose key was taken over sees its signal abort, and does not delete the new holder\'s key', async () => {
    const { lock, prefix } = open({ leaseMs: 300 });
    const key = `${prefix}:lock:k`;
    const aborted = await lock.withLock(['k'], async (signal) => {
      // As if the lease had lapsed during a long pause and another process took the key.
      await redis.set(key, 'someone-else', 'PX', 60_000);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      return signal.aborted;
    });
    assert.equal(aborted, true);
    assert.equal(await redis.get(key), 'someone-else', 'release deletes only its own token');
    await lock.close();
  });
});
