import type { RedisClients } from './redis-clients.js';

/** How long a close waits for a worker that is still connecting, with Redis answering, to finish starting, ms. */
const START_WAIT_MS = 2_000;

/**
 * Close a BullMQ queue or worker and its clients, for good.
 *
 * Connected, BullMQ closes first (a worker lets its running jobs finish), then the clients. Still connecting (Redis
 * down, or not up yet), the clients end first, while BullMQ still listens to them, and BullMQ closes after: closed
 * first, BullMQ drops a connection that is still starting, and the start-up's failure then comes with nobody
 * listening (an uncaught `error` event: ECONNREFUSED after the queue closed). A worker still starting while Redis
 * answers gets `START_WAIT_MS` to finish (`started`): BullMQ's start-up commands on a dropped connection reject
 * unawaited ("Connection is closed.").
 */
export async function closeBullmq(target: { close(): Promise<void> }, clients: RedisClients, started?: () => Promise<unknown>): Promise<void> {
  if (started && !clients.down) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([started().catch(() => undefined), new Promise((resolve) => { timer = setTimeout(resolve, START_WAIT_MS); })]);
    clearTimeout(timer);
  }
  if (!clients.allReady()) {
    // Dropped, not quit: a connected client of the lot may be blocked waiting for a job.
    await clients.close(false);
    // BullMQ's start-up learns of the end (its connection's promise rejects) before it stops listening.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await target.close();
  await clients.close();
}
