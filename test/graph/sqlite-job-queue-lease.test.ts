import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { tempDir } from '../helpers/temp-dir.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a server and a worker sharing the file run each job once: a starting process leaves running jobs alone', async () => {
  const tmp = tempDir();
  const file = path.join(tmp.dir, 'parley.db');
  const dbA = openDatabase(file);
  const a = new SqliteJobQueue(dbA, { pollMs: 10, leaseMs: 300 });
  const runs: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  a.process('slow', async () => {
    runs.push('a');
    await held; // longer than several lease periods: A keeps renewing its lease
  });
  await a.enqueue('slow', {}, { jobId: 'j1' });
  while (runs.length === 0) await sleep(10);
  const dbB = openDatabase(file);
  const b = new SqliteJobQueue(dbB, { pollMs: 10, leaseMs: 300 });
  b.process('slow', async () => { runs.push('b'); });
  await sleep(1200);
  release();
  await a.drain('slow', 5000);
  assert.deepEqual(runs, ['a'], 'the job ran in one process only');
  await a.close(1000);
  await b.close(1000);
  dbA.close();
  dbB.close();
  tmp.remove();
});

test('a job whose process died runs again once its lease lapses', async () => {
  const tmp = tempDir();
  const file = path.join(tmp.dir, 'parley.db');
  const dbA = openDatabase(file);
  const a = new SqliteJobQueue(dbA, { pollMs: 10, leaseMs: 200 });
  let started = false;
  a.process('work', async () => {
    started = true;
    await new Promise(() => {}); // never finishes: the process "dies" below
  });
  await a.enqueue('work', { n: 1 }, { jobId: 'j2' });
  while (!started) await sleep(10);
  dbA.close(); // no more renewals, as after kill -9
  const dbB = openDatabase(file);
  const b = new SqliteJobQueue(dbB, { pollMs: 10, leaseMs: 200 });
  const seen: { n: number; attempt: number }[] = [];
  b.process<{ n: number }>('work', async (job) => { seen.push({ n: job.data.n, attempt: job.attempt }); });
  await b.drain('work', 5000);
  assert.deepEqual(seen, [{ n: 1, attempt: 2 }]);
  await b.close(1000);
  dbB.close();
  tmp.remove();
});

test('after a stall longer than its lease, a job still running in this process is not taken again beside itself', async () => {
  const tmp = tempDir();
  const db = openDatabase(path.join(tmp.dir, 'parley.db'));
  // A lease far longer than the test: its renewal timer never fires here; the stall is the clock jumping past it.
  const leaseMs = 600_000;
  const queue = new SqliteJobQueue(db, { pollMs: 10, leaseMs });
  const realNow = Date.now;
  const runs: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  try {
    queue.process<{ n: number }>('work', async (job) => {
      runs.push(job.id);
      if (job.id === 'j1') await held;
    }, { concurrency: 3 });
    await queue.enqueue('work', { n: 1 }, { jobId: 'j1' });
    while (!runs.includes('j1')) await sleep(10);
    // The process stalled (no timer ran) for longer than the lease; then another job comes in and the queue looks again.
    Date.now = () => realNow() + 2 * leaseMs;
    await queue.enqueue('work', { n: 2 }, { jobId: 'j2' });
    // Claimed in due order: a second run of j1 (due first) would have started before j2.
    while (!runs.includes('j2')) await sleep(10);
    assert.deepEqual(runs.filter((id) => id === 'j1'), ['j1'], `j1 ran once: ${runs.join(', ')}`);
  } finally {
    Date.now = realNow;
    release();
    await queue.close(1000);
    db.close();
    tmp.remove();
  }
});
