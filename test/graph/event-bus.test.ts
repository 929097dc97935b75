import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { BusEvent } from '../../graph/event-bus.js';
import { MemoryEventBus } from '../../graph/memory-event-bus.js';
import { RedisEventBus } from '../../graph/redis/redis-event-bus.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteEventBus } from '../../graph/sqlite/sqlite-event-bus.js';
import { redisSkipReason } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';
import { eventBusContract } from './contracts/event-bus.contract.js';

eventBusContract('in-process', async () => {
  const bus = new MemoryEventBus();
  const stranger = new MemoryEventBus();
  return { bus, peer: bus, stranger, cleanup: async () => { await bus.close(); await stranger.close(); } };
});

eventBusContract('sqlite file (server and worker on one DATA_DIR)', async () => {
  const tmp = tempDir('parley-bus-');
  const file = path.join(tmp.dir, 'parley.db');
  const bus = SqliteEventBus.open(file, { pollMs: 10 });
  const peer = SqliteEventBus.open(file, { pollMs: 10 });
  const stranger = SqliteEventBus.open(path.join(tmp.dir, 'other.db'), { pollMs: 10 });
  return {
    bus, peer, stranger,
    cleanup: async () => {
      await Promise.all([bus.close(), peer.close(), stranger.close()]);
      tmp.remove();
    },
  };
});

test('sqlite event bus: a handle delivers its own events once, reads only what was written after it opened, and prunes old rows', async () => {
  const tmp = tempDir('parley-bus-');
  const file = path.join(tmp.dir, 'parley.db');
  const early = SqliteEventBus.open(file, { pollMs: 10, keepMs: 0 });
  try {
    await early.publish('t1', 'before', { type: 'session.ended', payload: {} });
    const bus = SqliteEventBus.open(file, { pollMs: 10 });
    const seen: BusEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    await bus.publish('t1', 'own', { type: 'session.ended', payload: {} });
    await early.publish('t1', 'other', { type: 'session.ended', payload: {} });
    for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(seen.map((e) => e.sessionId), ['own', 'other']);
    await bus.close();
    // `keepMs: 0`: a handle prunes on its 1st, 101st… publish, dropping every row older than that moment.
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let i = 0; i < 98; i++) await early.publish('t1', `s${i}`, { type: 'session.ended', payload: {} });
    const db = openDatabase(file);
    const sessionsLeft = () => (db.prepare('SELECT body FROM bus_events').all() as { body: string }[]).map((r) => (JSON.parse(r.body) as BusEvent).sessionId);
    assert.ok(sessionsLeft().includes('own'), 'not pruned before the 101st publish');
    await early.publish('t1', 'last', { type: 'session.ended', payload: {} });
    const left = sessionsLeft();
    db.close();
    assert.deepEqual(left.filter((s) => ['before', 'own', 'other'].includes(s)), [], 'rows older than keepMs are pruned');
  } finally {
    await early.close();
    tmp.remove();
  }
});

const skip = await redisSkipReason();
/** Database 14 is this suite's own (pub/sub ignores the database number, but keys would not). */
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';

eventBusContract('redis pub/sub', async () => {
  const prefix = `parley-test-bus-${process.pid}-${Date.now()}`;
  const bus = new RedisEventBus({ url: REDIS_URL, prefix });
  const peer = new RedisEventBus({ url: REDIS_URL, prefix });
  const stranger = new RedisEventBus({ url: REDIS_URL, prefix: `${prefix}-other` });
  // Pub/sub keeps no keys, so there is nothing to delete afterwards.
  return { bus, peer, stranger, cleanup: async () => { await Promise.all([bus.close(), peer.close(), stranger.close()]); } };
}, skip);
