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

test('sqlite event bus: a handle delivers its own events once and reads only what was written after it opened', async () => {
  const tmp = tempDir('parley-bus-');
  const file = path.join(tmp.dir, 'parley.db');
  const early = SqliteEventBus.open(file, { pollMs: 10 });
  try {
    await early.publish('t1', 'before', { type: 'session.ended', payload: {} });
    const bus = SqliteEventBus.open(file, { pollMs: 10 });
    const seen: BusEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    await bus.publish('t1', 'own', { type: 'session.ended', payload: {} });
    await early.publish('t1', 'other', { type: 'session.ended', payload: {} });
    // A marker published after both: once it arrives, everything before it has been read.
    await early.publish('t1', 'marker', { type: 'session.ended', payload: {} });
    for (let i = 0; i < 1000 && !seen.some((e) => e.sessionId === 'marker'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(seen.map((e) => e.sessionId), ['own', 'other', 'marker']);
    await bus.close();
  } finally {
    await early.close();
    tmp.remove();
  }
});

test('sqlite event bus: rows older than keepMs are deleted by publishers, by readers and on opening', async () => {
  const tmp = tempDir('parley-bus-');
  const file = path.join(tmp.dir, 'parley.db');
  const db = openDatabase(file);
  const sessionsLeft = (): string[] =>
    (db.prepare('SELECT body FROM bus_events ORDER BY id').all() as { body: string }[]).map((r) => (JSON.parse(r.body) as BusEvent).sessionId);
  // A server that reads (subscribes), so that the publishers write their events into the file.
  const server = SqliteEventBus.open(file);
  server.subscribe(() => undefined);
  const publisher = SqliteEventBus.open(file, { keepMs: 60_000 });
  try {
    await publisher.publish('t1', 'old', { type: 'session.ended', payload: {} });
    await publisher.publish('t1', 'fresh', { type: 'session.ended', payload: {} });
    db.prepare('UPDATE bus_events SET created_at = created_at - 120000 WHERE instr(body, ?) > 0').run('"sessionId":"old"');
    // Opening prunes: the row written two minutes ago goes, the fresh one stays.
    const reader = SqliteEventBus.open(file, { keepMs: 60_000 });
    assert.deepEqual(sessionsLeft(), ['fresh']);
    await reader.close();
    db.prepare('UPDATE bus_events SET created_at = created_at - 120000').run();
    const eager = SqliteEventBus.open(file, { keepMs: 60_000, pruneEveryMs: 0 });
    await eager.publish('t1', 'new', { type: 'session.ended', payload: {} });
    assert.deepEqual(sessionsLeft(), ['new'], 'a publish prunes too');
    await eager.close();
  } finally {
    await Promise.all([publisher.close(), server.close()]);
    db.close();
    tmp.remove();
  }
});

test('sqlite event bus: forgetting a tenant deletes its kept events at once, and only its own', async () => {
  const tmp = tempDir('parley-bus-');
  const file = path.join(tmp.dir, 'parley.db');
  const db = openDatabase(file);
  const left = (): string[] => (db.prepare('SELECT body FROM bus_events ORDER BY id').all() as { body: string }[])
    .map((r) => { const e = JSON.parse(r.body) as BusEvent; return `${e.tenant}/${e.sessionId}`; });
  const server = SqliteEventBus.open(file);
  server.subscribe(() => undefined);
  const bus = SqliteEventBus.open(file);
  try {
    await bus.publish('t1', 'a', { type: 'session.ended', payload: {} });
    await bus.publish('t2', 'b', { type: 'session.ended', payload: {} });
    await bus.publish('t1', 'c', { type: 'session.ended', payload: {} });
    await bus.forgetTenant('t1');
    assert.deepEqual(left(), ['t2/b']);
  } finally {
    await Promise.all([bus.close(), server.close()]);
    db.close();
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
  // Connected once made, as a process's bus is once it has started.
  for (const b of [bus, peer, stranger]) b.start();
  // Pub/sub keeps no keys, so there is nothing to delete afterwards.
  return { bus, peer, stranger, cleanup: async () => { await Promise.all([bus.close(), peer.close(), stranger.close()]); } };
}, skip);
