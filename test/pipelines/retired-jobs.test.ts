/**
 * Jobs of a kind no build handles any more (an older build queued them) are dropped once, with one info log; others wait.
 * Dead letters of such a kind (failed for good under an older build) are requeued once at start and dropped the same way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import type { JobQueue } from '../../graph/job-queue.js';
import { BullmqJobQueue } from '../../graph/redis/bullmq-job-queue.js';
import { openDatabase } from '../../graph/sqlite/database.js';
import { SqliteJobQueue } from '../../graph/sqlite/sqlite-job-queue.js';
import { dropRetiredJobs, RETIRED_JOB_NAMES } from '../../pipelines/retired-jobs.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';

const RETIRED = 'memory.states-ended';
/** A kind never known: no catch-all takes it. */
const UNKNOWN = 'memory.never-known';

/** Enqueue one job of the retired kind (as the sweep queued it) and one of an unknown kind, drop the retired ones, read the logs. */
async function dropOnce(queue: JobQueue): Promise<Array<Record<string, unknown>>> {
  const logs: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => { logs.push(JSON.parse(line) as Record<string, unknown>); } });
  await queue.enqueue(RETIRED, { tenant: 'default', endedAfter: null, endedBy: '2026-12-01T00:00:00.000Z' }, { jobId: 'states-ended-1' });
  await queue.enqueue(UNKNOWN, { n: 1 });
  await dropRetiredJobs(queue, log);
  await queue.drain(RETIRED, 10_000);
  return logs;
}

/** A job of the retired kind that failed for good under an older build (whose handler threw), on `older`'s backend. */
async function deadLetterOf(older: JobQueue): Promise<void> {
  older.process(RETIRED, async () => { throw new Error('the sweep failed'); });
  await older.enqueue(RETIRED, { tenant: 'default', endedAfter: null, endedBy: '2026-12-01T00:00:00.000Z' }, { jobId: 'states-ended-dead', attempts: 1 });
  const deadline = Date.now() + 10_000;
  while ((await older.deadLetters(RETIRED)).length === 0) {
    if (Date.now() > deadline) throw new Error('the job did not fail into the dead letters');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await older.close(2000);
}

/** On a queue holding one dead letter of the retired kind: start drops it (one log for the job, one for the count), none left. */
async function assertDeadLetterDropped(queue: JobQueue): Promise<void> {
  assert.equal((await queue.deadLetters(RETIRED)).length, 1, 'the older build left one dead letter');
  const logs = (await dropOnce(queue)).filter((l) => l.job === RETIRED);
  assert.deepEqual(await queue.deadLetters(RETIRED), [], 'no dead letter of the retired kind left');
  assert.equal(await queue.pending(RETIRED), 0);
  assert.equal(logs.filter((l) => l.msg === 'job of a retired kind dropped').length, 2, 'the dead letter and the waiting job, each dropped once');
  assert.deepEqual(logs.filter((l) => l.msg === 'dead letters of a retired kind requeued to be dropped').map((l) => l.deadLetters), [1]);
  assert.equal(await queue.pending(UNKNOWN), 1, 'an unknown kind is not dropped');
}

/** The retired kind's job dropped with one info log, neither waiting nor dead; the unknown kind's job still waiting. */
async function assertDropped(queue: JobQueue): Promise<void> {
  const dropped = (await dropOnce(queue)).filter((l) => l.job === RETIRED);
  assert.equal(dropped.length, 1, 'one log for the one job');
  assert.equal(dropped[0]?.level, 30, 'at info');
  assert.equal(dropped[0]?.msg, 'job of a retired kind dropped');
  assert.equal(await queue.pending(RETIRED), 0);
  assert.deepEqual(await queue.deadLetters(RETIRED), [], 'not dead-lettered');
  assert.equal(await queue.pending(UNKNOWN), 1, 'an unknown kind is not dropped');
}

test('the retired kinds are listed by name (no catch-all)', () => {
  assert.deepEqual(RETIRED_JOB_NAMES, [RETIRED]);
});

test('embedded queue: a job of a retired kind is acknowledged and dropped once; a job of an unknown kind still waits', async () => {
  const queue = new SqliteJobQueue(openDatabase(':memory:'), { pollMs: 10 });
  try {
    await assertDropped(queue);
  } finally {
    await queue.close(2000);
  }
});

test('embedded queue: a dead letter of a retired kind left by an older build is dropped at start', async () => {
  const db = openDatabase(':memory:');
  await deadLetterOf(new SqliteJobQueue(db, { pollMs: 10 }));
  const queue = new SqliteJobQueue(db, { pollMs: 10 });
  try {
    await assertDeadLetterDropped(queue);
  } finally {
    await queue.close(2000);
  }
});

const skip = await redisSkipReason();

/** `check` on a BullMQ queue under a prefix of its own, after `prepare` ran on an older build's queue of that prefix; its keys deleted after. */
async function onBullmq(check: (queue: JobQueue) => Promise<void>, prepare?: (older: JobQueue) => Promise<void>): Promise<void> {
  const prefix = `parley-mend-retired-${process.pid}-${Date.now()}`;
  try {
    if (prepare) await prepare(new BullmqJobQueue({ url: TEST_REDIS_URL, prefix }));
    const queue = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix });
    try {
      await check(queue);
    } finally {
      await queue.close(2000);
    }
  } finally {
    await deleteKeys(prefix);
  }
}

test('Redis queue (BullMQ): a job of a retired kind is acknowledged and dropped once', { skip }, () => onBullmq(assertDropped));

test('Redis queue (BullMQ): a dead letter of a retired kind left by an older build is dropped at start', { skip }, () => onBullmq(assertDeadLetterDropped, deadLetterOf));
