/**
 * A job try aborted for overrunning gives its keys up at once (`KeyedLock.withLock`'s holder) and its retry may take
 * them while a store call of the aborted try still waits at the embedded file's gate behind an atomic section. Once the
 * section ends that call must not run: it would write after the retry took the keys (review A, finding 2). The events
 * are ordered by promises the test settles, never by time.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MemoryKeyedLock } from '../../graph/memory-keyed-lock.js';
import { ConnectionGate } from '../../graph/sqlite/connection-gate.js';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { hold, latch } from '../helpers/hold.js';

/** A table on an in-memory connection, a gated insert into it, and its rows in order. */
function table(): { db: SqliteDatabase; gate: ConnectionGate; insert(v: string): Promise<void>; rows(): string[] } {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE t (v TEXT)');
  const gate = ConnectionGate.of(db);
  return {
    db,
    gate,
    insert: (v) => gate.call(async () => { db.prepare('INSERT INTO t (v) VALUES (?)').run(v); }),
    rows: () => (db.prepare('SELECT v FROM t ORDER BY rowid').all() as { v: string }[]).map((r) => r.v),
  };
}

const overran = new Error('job ran longer than 1 ms');
const isOverran = (err: unknown): boolean => err === overran;

describe('store calls of a job try aborted while they wait at the gate', () => {
  test('a call the aborted try queued behind a section never runs once its keys went to the retry', async () => {
    const { db, gate, insert, rows } = table();
    const locks = new MemoryKeyedLock();
    const section = hold();
    const running = gate.atomically(async () => {
      await insert('section');
      await section.wait();
    });
    await section.reached;

    const attempt = new AbortController();
    const queued = latch();
    let stale: Promise<void> | undefined;
    const first = locks.withLock(['k'], async (signal) => {
      // The try's own check before its write (consolidation's `turnCommit`) passes: it has not overrun yet.
      signal.throwIfAborted();
      stale = insert('aborted try');
      queued.open();
      await stale;
    }, attempt.signal);
    await queued.opened;
    attempt.abort(overran);
    await assert.rejects(first, isOverran);
    const retryHolds = latch();
    const retry = locks.withLock(['k'], async () => {
      retryHolds.open();
      await insert('retry');
    }, new AbortController().signal);
    await retryHolds.opened;

    section.release();
    await running;
    await retry;
    assert.deepEqual(rows(), ['section', 'retry'], 'nothing of the aborted try lands after its keys were given up');
    await assert.rejects(stale!, isOverran, 'the queued call rejects with the try\'s reason');
    db.close();
  });

  test('a section the aborted try queued never begins; one under way rolls back at its next store call', async () => {
    const { db, gate, insert, rows } = table();
    const locks = new MemoryKeyedLock();

    // Queued behind another section when the try is aborted: never begins.
    const other = hold();
    const running = gate.atomically(() => other.wait());
    await other.reached;
    const attempt = new AbortController();
    const queued = latch();
    let queuedSection: Promise<void> | undefined;
    const first = locks.withLock(['k'], async () => {
      queuedSection = gate.atomically(() => insert('queued section'));
      queued.open();
      await queuedSection;
    }, attempt.signal);
    await queued.opened;
    attempt.abort(overran);
    await assert.rejects(first, isOverran);
    other.release();
    await running;
    await assert.rejects(queuedSection!, isOverran);

    // Under way when its try is aborted: its next store call throws, and the section's first write is undone with it.
    const next = new AbortController();
    const inside = hold();
    let underWay: Promise<void> | undefined;
    const second = locks.withLock(['k'], async () => {
      underWay = gate.atomically(async () => {
        await insert('first write');
        await inside.wait();
        await insert('second write');
      });
      await underWay;
    }, next.signal);
    await inside.reached;
    next.abort(overran);
    await assert.rejects(second, isOverran);
    inside.release();
    await assert.rejects(underWay!, isOverran);
    assert.equal(db.inTransaction, false, 'rolled back');
    assert.deepEqual(rows(), [], 'no write of an aborted try kept');
    await insert('after');
    assert.deepEqual(rows(), ['after'], 'the gate serves the next call');
    db.close();
  });
});
