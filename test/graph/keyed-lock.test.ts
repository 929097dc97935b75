import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
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
  const a = SqliteKeyedLock.open(file, options);
  const b = SqliteKeyedLock.open(file, options);
  const probe = openDatabase(file);
  return {
    a,
    b,
    leases: {
      plant: async (key, token, leaseMs) => {
        probe.prepare(`INSERT INTO keyed_locks (key, token, lease_until) VALUES (?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until`).run(key, token, Date.now() + leaseMs);
      },
      holder: async (key) => (probe.prepare('SELECT token FROM keyed_locks WHERE key = ?').get(key) as { token: string } | undefined)?.token ?? null,
    },
    cleanup: async () => {
      await a.close();
      await b.close();
      probe.close();
      tmp.remove();
    },
  };
});

test('SQLite: while the process\'s main connection holds the write lock, a lock waits without stalling the event loop, then takes the key', async () => {
  const tmp = tempDir('parley-slotrace-lock-');
  const file = path.join(tmp.dir, 'parley.db');
  const main = openDatabase(file);
  const lock = SqliteKeyedLock.open(file, { maxWaitMs: 200 });
  try {
    // As `Stores.atomically` does: a write transaction open across a few awaits of this process.
    main.exec('BEGIN IMMEDIATE');
    let ticks = 0;
    const ticker = setInterval(() => { ticks += 1; }, 1);
    // A wait inside SQLite (busy_timeout) would block the thread, timers included, until it gave up.
    await assert.rejects(lock.withLock(['k'], async () => 'taken'), { code: 'PARLEY_ERR_OVERLOADED' });
    clearInterval(ticker);
    assert.ok(ticks > 0, 'timers ran while the lock waited');
    main.exec('COMMIT');
    assert.equal(await lock.withLock(['k'], async () => 'taken'), 'taken');
  } finally {
    if (main.inTransaction) main.exec('ROLLBACK');
    await lock.close();
    main.close();
    tmp.remove();
  }
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
