import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BullmqJobQueue } from '../../graph/redis/bullmq-job-queue.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';

const skip = await redisSkipReason();

/** Resolve once `done()` holds; fail after a generous wait (the machine may be busy). */
async function eventually(done: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await done()); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
  }
}

test('liveWorkers counts the processes that take a queue\'s jobs on Redis, whichever process asks', { skip }, async () => {
  const prefix = `parley-ends-${process.pid}-${Date.now()}`;
  const server = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix });
  const worker = new BullmqJobQueue({ url: TEST_REDIS_URL, prefix });
  try {
    assert.equal(await server.liveWorkers('consolidate'), 0, 'nobody takes the jobs yet');
    worker.process('consolidate', async () => undefined);
    await eventually(async () => (await server.liveWorkers('consolidate')) === 1, 'the worker is seen');
    assert.equal(await server.liveWorkers('other'), 0, 'a worker of another queue does not count');
    await worker.close(2000);
    await eventually(async () => (await server.liveWorkers('consolidate')) === 0, 'the closed worker is gone');
  } finally {
    await worker.close(2000);
    await server.close(2000);
    await deleteKeys(prefix);
  }
});
