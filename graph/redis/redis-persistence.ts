import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** What {@link checkAppendOnly} needs of a Redis client: `CONFIG GET`. */
export interface ConfigReader {
  config(op: 'GET', name: string): Promise<unknown>;
}

/**
 * Whether Redis keeps an append-only file (`CONFIG GET appendonly`): jobs handed from the outbox to the Redis queue
 * live only there, so a Redis that restarts without AOF loses the consolidation jobs still waiting (NETWORKED.md asks
 * for AOF). Without it: one warning. A Redis that refuses `CONFIG` (many managed ones): an info line that it could
 * not be checked. Never throws: the check informs, it does not stop the process.
 */
export async function checkAppendOnly(redis: ConfigReader, logger: Pick<Logger, 'warn' | 'info'>, target: string): Promise<void> {
  let reply: unknown;
  try {
    reply = await redis.config('GET', 'appendonly');
  } catch (err) {
    logger.info({ redis: target, err: err instanceof Error ? err.message : String(err) },
      'could not check whether Redis keeps an append-only file (CONFIG GET refused, as managed Redis services do): make sure it persists with AOF, or queued consolidation jobs are lost when it restarts');
    return;
  }
  const value = Array.isArray(reply) ? reply[1] : undefined;
  if (value === 'no') {
    logger.warn({ redis: target, appendonly: value },
      'Redis runs without AOF persistence (appendonly no): consolidation jobs waiting in its queue are lost if it restarts; set appendonly yes (see docs/NETWORKED.md)');
  }
}

/** {@link checkAppendOnly} on a short-lived connection to `url` (`target`: the URL as it may be logged). */
export async function checkRedisAppendOnly(url: string, logger: Pick<Logger, 'warn' | 'info'>, target: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  // A failure to connect surfaces from `connect` below; without a listener ioredis reports it as unhandled.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await checkAppendOnly(redis, logger, target);
  } catch (err) {
    logger.info({ redis: target, err: err instanceof Error ? err.message : String(err) }, 'could not check whether Redis keeps an append-only file');
  } finally {
    redis.disconnect();
  }
}
