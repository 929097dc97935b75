import assert from 'node:assert/strict';
import path from 'node:path';
import { Redis } from 'ioredis';
import { MemoryKeyedLock } from '../../graph/memory-keyed-lock.js';
import { RedisKeyedLock } from '../../graph/redis/redis-keyed-lock.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteKeyedLock } from '../../graph/sqlite/sqlite-keyed-lock.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';
import { keyedLockContract } from './contracts/keyed-lock.contract.js';

const skip = await redisSkipReason();
let fixtures = 0;

keyedLockContract('in-process', async (options = {}) => {
  // In one process every caller shares one lock.
  const lock = new MemoryKeyedLock(options);
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

keyedLockContract('sqlite (two connections to one file, as two processes)', async (options = {}) => {
  const tmp = tempDir('parley-slotrace-lock-');
  const file = path.join(tmp.dir, 'parley.db');
  const [one, two] = [openDatabase(file), openDatabase(file)];
  const a = new SqliteKeyedLock(one, options);
  const b = new SqliteKeyedLock(two, options);
  return {
    a,
    b,
    leases: {
      plant: async (key, token, leaseMs) => {
        two.prepare(`INSERT INTO keyed_locks (key, token, lease_until) VALUES (?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until`).run(key, token, Date.now() + leaseMs);
      },
      holder: async (key) => (two.prepare('SELECT token FROM keyed_locks WHERE key = ?').get(key) as { token: string } | undefined)?.token ?? null,
    },
    cleanup: async () => {
      one.close();
      two.close();
      tmp.remove();
    },
  };
});

keyedLockContract('redis (two handles, as two processes)', async (options = {}) => {
  const prefix = `parley-slotrace-lock-${process.pid}-${Date.now()}-${fixtures++}`;
  const a = new RedisKeyedLock({ url: TEST_REDIS_URL, prefix, ...options });
  const b = new RedisKeyedLock({ url: TEST_REDIS_URL, prefix, ...options });
  const redis = new Redis(TEST_REDIS_URL);
  return {
    a,
    b,
    leases: {
      plant: async (key, token, leaseMs) => { await redis.set(`${prefix}:lock:${key}`, token, 'PX', leaseMs); },
      holder: (key) => redis.get(`${prefix}:lock:${key}`),
    },
    cleanup: async () => {
      await a.close();
      await b.close();
      await deleteKeys(prefix);
      redis.disconnect();
    },
  };
}, skip);
