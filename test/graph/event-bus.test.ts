import { MemoryEventBus } from '../../graph/memory-event-bus.js';
import { RedisEventBus } from '../../graph/redis/redis-event-bus.js';
import { redisSkipReason } from '../helpers/redis.js';
import { eventBusContract } from './contracts/event-bus.contract.js';

eventBusContract('in-process', async () => {
  const bus = new MemoryEventBus();
  const stranger = new MemoryEventBus();
  return { bus, peer: bus, stranger, cleanup: async () => { await bus.close(); await stranger.close(); } };
});

const skip = await redisSkipReason();
/** Database 14 is this suite's own (pub/sub ignores the database number, but keys would not). */
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';

eventBusContract('redis pub/sub', async () => {
  const prefix = `parley-test-bus-${process.pid}-${Date.now()}`;
  const bus = new RedisEventBus({ url: REDIS_URL, prefix });
  const peer = new RedisEventBus({ url: REDIS_URL, prefix });
  const stranger = new RedisEventBus({ url: REDIS_URL, prefix: `${prefix}-other` });
  // Pub/sub keeps no keys, so there is nothing to delete afterwards.
  return { bus, peer, stranger, cleanup: async () => { await Promise.all([bus.close(), peer.close(), stranger.close()]); } };
}, skip);
