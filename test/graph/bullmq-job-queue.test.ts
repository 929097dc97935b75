import { BullmqJobQueue } from '../../graph/redis/bullmq-job-queue.js';
import { deleteKeys, redisSkipReason, TEST_REDIS_URL } from '../helpers/redis.js';
import { jobQueueContract } from './contracts/job-queue.contract.js';

const skip = await redisSkipReason();

jobQueueContract('bullmq (redis)', async () => {
  const prefix = `parley-test-${process.pid}-${Date.now()}`;
  const handles: BullmqJobQueue[] = [];
  const open = (options: { maxOutageWaitMs?: number } = {}): BullmqJobQueue => {
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
