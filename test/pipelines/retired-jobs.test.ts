/** Jobs of a kind no build handles any more (an older build queued them) are dropped once, with one info log; others wait. */
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
  dropRetiredJobs(queue, log);
  await queue.drain(RETIRED, 10_000);
  return logs;
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

const skip = await redisSkipReason();

test('Redis queue (BullMQ): a job of a retired kind is acknowledged and dropped once', { skip }, async () => {
  const prefix = `parley-mend-retired-${process.pid}-${Date.now()}`;
  const queue = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix });
  try {
    await assertDropped(queue);
  } finally {
    await queue.close(2000);
    await deleteKeys(prefix);
  }
});
