import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { BusEvent } from '../../graph/event-bus.js';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteEventBus, type SqliteEventBusOptions } from '../../graph/sqlite/sqlite-event-bus.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A file for the handles of one test, a plain connection to look into it, and the handles to close after. */
async function fixture(): Promise<{
  open(options?: SqliteEventBusOptions): SqliteEventBus;
  db: SqliteDatabase;
  rows(): number;
  roles(): string[];
  cleanup(): Promise<void>;
}> {
  const tmp = tempDir('parley-bus-members-');
  const file = path.join(tmp.dir, 'parley.db');
  const handles: SqliteEventBus[] = [];
  const open = (options: SqliteEventBusOptions = {}): SqliteEventBus => {
    const bus = SqliteEventBus.open(file, options);
    handles.push(bus);
    return bus;
  };
  await SqliteEventBus.open(file).close(); // creates the tables before the plain connection looks
  const db = openDatabase(file);
  return {
    open, db,
    rows: () => db.prepare('SELECT COUNT(*) FROM bus_events').pluck().get() as number,
    roles: () => db.prepare('SELECT role FROM bus_members ORDER BY role').pluck().all() as string[],
    cleanup: async () => {
      await Promise.all(handles.map((h) => h.close()));
      db.close();
      tmp.remove();
    },
  };
}

/** Subscribe and keep what arrives, by session id. */
function listen(bus: SqliteEventBus): string[] {
  const seen: string[] = [];
  bus.subscribe((e: BusEvent) => seen.push(e.sessionId));
  return seen;
}

/** Resolve once `done()` holds; fail after a generous wait (the machine may be busy). */
async function eventually(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !done(); await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
  }
}

const ended = { type: 'session.ended', payload: {} } as const;

test('a lone handle writes no event to the file and still delivers to its own subscribers at once', async () => {
  const fx = await fixture();
  try {
    const server = fx.open();
    const seen = listen(server);
    await server.publish('t1', 's1', { type: 'memory.updated', payload: { ops: [{ op: 'ADD', memory_id: 'f1', text: 'Ana lives in Porto' }] } });
    assert.deepEqual(seen, ['s1']);
    const worker = fx.open({ role: 'worker' });
    await worker.close();
    await server.publish('t1', 's2', ended);
    assert.deepEqual(seen, ['s1', 's2']);
    assert.equal(fx.rows(), 0, 'nothing in bus_events: no other handle was there to read it');
  } finally {
    await fx.cleanup();
  }
});

test('events are written only for another live handle with subscribers, and reach it', async () => {
  const fx = await fixture();
  try {
    const server = fx.open();
    const seen = listen(server);
    const worker = fx.open({ role: 'worker' });
    await server.publish('t1', 'own', ended);
    assert.equal(fx.rows(), 0, 'the worker subscribes to nothing, so the server writes nothing for it');
    await worker.publish('t1', 'w1', ended);
    assert.equal(fx.rows(), 1);
    await eventually(() => seen.includes('w1'), 'the worker event reaches the server');
    assert.deepEqual(seen, ['own', 'w1']);
  } finally {
    await fx.cleanup();
  }
});

test('a member whose heartbeat went stale is dead: nothing more is written for it, and its row goes', async () => {
  const fx = await fixture();
  try {
    // The server's heartbeat is far off, so its row ages only as the test makes it.
    const server = fx.open({ heartbeatMs: 600_000 });
    listen(server);
    const worker = fx.open({ role: 'worker', heartbeatMs: 20, deadAfterMs: 20_000 });
    await worker.publish('t1', 'alive', ended);
    assert.equal(fx.rows(), 1);
    fx.db.prepare("UPDATE bus_members SET heartbeat_at = heartbeat_at - 600000 WHERE role = 'server'").run();
    await worker.publish('t1', 'dead', ended);
    assert.equal(fx.rows(), 1, 'no row for a dead server');
    await eventually(() => fx.roles().join() === 'worker', "the worker's heartbeat deletes the dead member");
  } finally {
    await fx.cleanup();
  }
});

test('opening registers a handle, closing removes it', async () => {
  const fx = await fixture();
  try {
    const server = fx.open();
    const worker = fx.open({ role: 'worker' });
    assert.deepEqual(fx.roles(), ['server', 'worker']);
    await server.close();
    assert.deepEqual(fx.roles(), ['worker']);
    await worker.close();
    assert.deepEqual(fx.roles(), []);
  } finally {
    await fx.cleanup();
  }
});

for (const order of ['after', 'before'] as const) {
  test(`a worker started ${order} the server: every event it publishes after both opened reaches the server, in order`, async () => {
    const fx = await fixture();
    try {
      let worker = order === 'before' ? fx.open({ role: 'worker' }) : undefined;
      const server = fx.open();
      const seen = listen(server);
      worker ??= fx.open({ role: 'worker' });
      const sent = Array.from({ length: 5 }, (_, i) => `w${i}`);
      for (const id of sent) await worker.publish('t1', id, ended);
      await eventually(() => seen.length >= sent.length, 'all worker events arrive');
      assert.deepEqual(seen, sent);
    } finally {
      await fx.cleanup();
    }
  });
}

test('events of a handle that wrote them and closed before the server looked are still delivered', async () => {
  const fx = await fixture();
  try {
    const server = fx.open({ memberCheckMs: 200 });
    const seen = listen(server);
    // Opened, published and closed within this tick: the server's first look finds no other member, only rows.
    const worker = fx.open({ role: 'worker' });
    await worker.publish('t1', 'brief', ended);
    await worker.close();
    assert.equal(fx.rows(), 1);
    await eventually(() => seen.includes('brief'), 'the event of the closed worker arrives');
  } finally {
    await fx.cleanup();
  }
});

test('two servers and a worker on one file: each server gets the worker events and the other server events, once', async () => {
  const fx = await fixture();
  try {
    const a = fx.open();
    const b = fx.open();
    const seenA = listen(a);
    const seenB = listen(b);
    const worker = fx.open({ role: 'worker' });
    await worker.publish('t1', 'from-worker', ended);
    await a.publish('t1', 'from-a', ended);
    await b.publish('t1', 'from-b', ended);
    await worker.publish('t1', 'marker', ended);
    await eventually(() => seenA.includes('marker') && seenB.includes('marker'), 'the marker reaches both servers');
    assert.deepEqual([...seenA].sort(), ['from-a', 'from-b', 'from-worker', 'marker']);
    assert.deepEqual([...seenB].sort(), ['from-a', 'from-b', 'from-worker', 'marker']);
  } finally {
    await fx.cleanup();
  }
});

test('workersAlive: true only while another live handle with role worker is open (not a server, not itself, not a stale one)', async () => {
  const fx = await fixture();
  try {
    const server = fx.open({ heartbeatMs: 600_000 });
    assert.equal(await server.workersAlive(), false, 'alone');
    const other = fx.open();
    assert.equal(await server.workersAlive(), false, 'another server is no worker');
    const worker = fx.open({ role: 'worker', heartbeatMs: 600_000 });
    assert.equal(await server.workersAlive(), true);
    assert.equal(await worker.workersAlive(), false, 'a worker does not count itself');
    fx.db.prepare("UPDATE bus_members SET heartbeat_at = heartbeat_at - 600000 WHERE role = 'worker'").run();
    assert.equal(await server.workersAlive(), false, 'a worker whose heartbeat went stale is dead');
    fx.db.prepare("UPDATE bus_members SET heartbeat_at = heartbeat_at + 600000 WHERE role = 'worker'").run();
    assert.equal(await server.workersAlive(), true);
    await worker.close();
    assert.equal(await server.workersAlive(), false, 'a worker that closed left');
    await other.close();
  } finally {
    await fx.cleanup();
  }
});
