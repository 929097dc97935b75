import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { BullmqJobQueue } from '../../graph/redis/bullmq-job-queue.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { jobQueueContract } from './contracts/job-queue.contract.js';

const skip = await redisSkipReason();

jobQueueContract('bullmq (redis)', async () => {
  const prefix = `parley-test-${process.pid}-${Date.now()}`;
  const handles: BullmqJobQueue[] = [];
  const open = (options: { maxOutageWaitMs?: number; maxRunMs?: number } = {}): BullmqJobQueue => {
    const q = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix, ...options });
    handles.push(q);
    return q;
  };
  return {
    queue: open(),
    reopen: async (options) => open(options),
    cleanup: async () => {
      for (const q of handles) await q.close(2000);
      await deleteKeys(prefix);
    },
  };
}, skip);

test('obliterate removes every key of the queues, and only this prefix\'s', { skip }, async () => {
  const prefix = `parley-test-obliterate-${process.pid}-${Date.now()}`;
  const queue = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix });
  const neighbour = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix: `${prefix}-neighbour` });
  const redis = new Redis(TEST_REDIS_URL);
  try {
    await queue.enqueue('sweeps', { n: 1 });
    await neighbour.enqueue('sweeps', { n: 2 });
    assert.notDeepEqual(await redis.keys(`${prefix}:*`), []);
    await queue.obliterate(['sweeps']);
    assert.equal(await queue.pending('sweeps'), 0);
    assert.deepEqual(await redis.keys(`${prefix}:*`), [], 'nothing of the prefix is left');
    assert.equal(await neighbour.pending('sweeps'), 1, 'another prefix keeps its jobs');
  } finally {
    redis.disconnect();
    await queue.close(2000);
    await neighbour.close(2000);
    await deleteKeys(prefix);
    await deleteKeys(`${prefix}-neighbour`);
  }
});
