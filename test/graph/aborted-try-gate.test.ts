/**
 * A job try aborted for overrunning gives its keys up at once (`KeyedLock.withLock`'s holder) and its retry may take
 * them while a store call of the aborted try still waits at the embedded file's gate behind an atomic section. Once the
 * section ends that call must not run: it would write after the retry took the keys (review A, finding 2). The events
 * are ordered by promises the test settles, never by time.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KeyedLock } from '../../graph/keyed-lock.js';
import { MemoryKeyedLock } from '../../graph/memory-keyed-lock.js';
import { ConnectionGate } from '../../graph/sqlite/connection-gate.js';
import { openDatabase, type SqliteDatabase } from '../../graph/sqlite/database.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { hold } from '../helpers/hold.js';

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

/**
 * A job try under `attempt` holding key `k` that starts `start` (a store call or section at the gate) and awaits it:
 * `run` is the try's `withLock`, `started` resolves once the call was made, with its promise (wrapped, not adopted).
 */
function tryStarting<T>(locks: KeyedLock, attempt: AbortSignal, start: (signal: AbortSignal) => Promise<T>): {
  run: Promise<T>; started: Promise<{ call: Promise<T> }>;
} {
  let made!: (started: { call: Promise<T> }) => void;
  const started = new Promise<{ call: Promise<T> }>((resolve) => { made = resolve; });
  const run = locks.withLock(['k'], async (signal) => {
    const call = start(signal);
    made({ call });
    return call;
  }, attempt);
  return { run, started };
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
    const aborted = tryStarting(locks, attempt.signal, (signal) => {
      // The try's own check before its write (consolidation's `turnCommit`) passes: it has not overrun yet.
      signal.throwIfAborted();
      return insert('aborted try');
    });
    const { call: stale } = await aborted.started;
    attempt.abort(overran);
    await assert.rejects(aborted.run, isOverran);
    const retry = tryStarting(locks, new AbortController().signal, () => insert('retry'));
    await retry.started;

    section.release();
    await running;
    await retry.run;
    assert.deepEqual(rows(), ['section', 'retry'], 'nothing of the aborted try lands after its keys were given up');
    await assert.rejects(stale, isOverran, 'the queued call rejects with the try\'s reason');
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
    const queued = tryStarting(locks, attempt.signal, () => gate.atomically(() => insert('queued section')));
    const { call: queuedSection } = await queued.started;
    attempt.abort(overran);
    await assert.rejects(queued.run, isOverran);
    other.release();
    await running;
    await assert.rejects(queuedSection, isOverran);

    // Under way when its try is aborted: its next store call throws, and the section's first write is undone with it.
    const next = new AbortController();
    const inside = hold();
    const underWay = tryStarting(locks, next.signal, () => gate.atomically(async () => {
      await insert('first write');
      await inside.wait();
      await insert('second write');
    }));
    const { call: section } = await underWay.started;
    await inside.reached;
    next.abort(overran);
    await assert.rejects(underWay.run, isOverran);
    inside.release();
    await assert.rejects(section, isOverran);
    assert.equal(db.inTransaction, false, 'rolled back');
    assert.deepEqual(rows(), [], 'no write of an aborted try kept');
    await insert('after');
    assert.deepEqual(rows(), ['after'], 'the gate serves the next call');
    db.close();
  });

  test('background work a try starts (the queue\'s timer, by enqueueing a job) does not heed the try\'s signal', async () => {
    const { db, gate, insert, rows } = table();
    const locks = new MemoryKeyedLock();
    const queue = gate.wrap(new SqliteJobQueue(db, { pollMs: 10 }));
    let outcome!: (said: string) => void;
    const handled = new Promise<string>((resolve) => { outcome = resolve; });
    queue.process('later', async () => {
      await insert('later job').then(() => outcome('written'), (err: Error) => outcome(err.message));
    });
    const attempt = new AbortController();
    // The enqueue (re)starts the queue's timer from inside the try; the try is aborted before that timer fires.
    await locks.withLock(['k'], async () => { await queue.enqueue('later', {}); }, attempt.signal);
    attempt.abort(overran);
    assert.equal(await handled, 'written', 'a job the queue runs later is no part of the aborted try');
    assert.deepEqual(rows(), ['later job']);
    await queue.close(1000);
    db.close();
  });
});
