import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { OutboxForwarder } from '../../graph/outbox/outbox-forwarder.js';
import { Outbox } from '../../graph/outbox/outbox.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { ParleyError } from '../../graph/core/errors.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A backend that can be taken down and brought back, recording what reached it. */
function flakyBackend() {
  const state = { up: true, received: [] as unknown[], calls: 0 };
  const handler = async (operation: string, payload: unknown): Promise<void> => {
    state.calls++;
    if (!state.up) throw new Error('ECONNREFUSED backend down');
    state.received.push({ operation, payload });
  };
  return { state, handler };
}

describe('outbox (SQLite)', () => {
  test('a recorded write survives closing and reopening the database', () => {
    const tmp = tempDir();
    try {
      const file = path.join(tmp.dir, 'parley.db');
      const db = openDatabase(file);
      new Outbox(db).record('vectors', 'upsert', { id: 'a', vector: [1, 2] });
      db.close();
      const again = openDatabase(file);
      const outbox = new Outbox(again);
      assert.equal(outbox.pending(), 1);
      const [entry] = outbox.pendingFor('vectors');
      assert.equal(entry?.operation, 'upsert');
      assert.deepEqual(entry?.payload, { id: 'a', vector: [1, 2] });
      again.close();
    } finally {
      tmp.remove();
    }
  });

  test('during an outage writes wait, in order; once the backend is back they arrive in record order', async () => {
    const db = openDatabase(':memory:');
    const outbox = new Outbox(db);
    const backend = flakyBackend();
    const forwarder = new OutboxForwarder(outbox, { t: backend.handler }, { baseBackoffMs: 5, maxBackoffMs: 20 });
    backend.state.up = false;
    const ids = [1, 2, 3].map((n) => outbox.record('t', 'put', { n }));
    assert.equal((await forwarder.forward('t', ids[0]!)).state, 'deferred');
    assert.equal(outbox.pending('t'), 3);
    assert.equal(backend.state.calls, 1, 'later writes never overtake a failing earlier one');
    assert.match(outbox.get(ids[0]!)?.lastError ?? '', /backend down/);
    backend.state.up = true;
    await forwarder.flush(5000);
    assert.deepEqual(backend.state.received.map((r) => (r as { payload: { n: number } }).payload.n), [1, 2, 3]);
    assert.equal(outbox.pending(), 0);
    db.close();
  });

  test('retries back off exponentially up to the cap', async () => {
    const db = openDatabase(':memory:');
    const outbox = new Outbox(db);
    const backend = flakyBackend();
    backend.state.up = false;
    const forwarder = new OutboxForwarder(outbox, { t: backend.handler }, { baseBackoffMs: 1000, maxBackoffMs: 4000 });
    const id = outbox.record('t', 'put', {});
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = Date.now();
      await forwarder.drain('t', () => Number.MAX_SAFE_INTEGER);
      delays.push(Math.round((outbox.get(id)!.nextAttemptAt - before) / 1000));
    }
    assert.deepEqual(delays, [1, 2, 4, 4]);
    assert.equal(outbox.get(id)?.attempts, 4);
    await forwarder.drain('t');
    assert.equal(backend.state.calls, 4, 'an entry is not retried before its time');
    db.close();
  });

  test('a write the backend rejects for good is set aside, not lost, and does not block the rest', async () => {
    const db = openDatabase(':memory:');
    const outbox = new Outbox(db);
    const seen: number[] = [];
    const forwarder = new OutboxForwarder(outbox, {
      t: async (_op, payload) => {
        const { n } = payload as { n: number };
        if (n === 2) throw new ParleyError('PARLEY_ERR_EMBEDDING_MISMATCH', 'wrong dimension');
        seen.push(n);
      },
    });
    for (const n of [1, 2, 3]) outbox.record('t', 'put', { n });
    await forwarder.flush(2000);
    assert.deepEqual(seen, [1, 3]);
    const [dead] = outbox.dead('t');
    assert.deepEqual(dead?.payload, { n: 2 });
    assert.equal(dead?.lastError, 'PARLEY_ERR_EMBEDDING_MISMATCH: wrong dimension');
    db.close();
  });

  test('the background forwarder delivers without being asked; targets are independent', async () => {
    const db = openDatabase(':memory:');
    const outbox = new Outbox(db);
    const a = flakyBackend();
    const b = flakyBackend();
    b.state.up = false;
    const forwarder = new OutboxForwarder(outbox, { a: a.handler, b: b.handler }, { pollMs: 10, baseBackoffMs: 5 });
    outbox.record('b', 'put', { n: 0 });
    outbox.record('a', 'put', { n: 1 });
    outbox.record('nobody', 'put', { n: 2 });
    forwarder.start();
    const deadline = Date.now() + 5000;
    while (a.state.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await forwarder.stop();
    assert.equal(a.state.received.length, 1, 'a down backend b does not hold up backend a');
    assert.equal(outbox.pending('b'), 1);
    assert.equal(outbox.pending('nobody'), 1, 'entries for a target without a handler wait');
    db.close();
  });
});
