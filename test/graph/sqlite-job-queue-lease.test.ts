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
