import { Redis } from 'ioredis';
import { missingService } from './services.js';

/** The Redis the tests use: `PARLEY_TEST_REDIS_URL`, else the local server, database 13. */
export const TEST_REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/13';

/** Options for {@link redisSkipReason}. */
export interface RedisProbeOptions {
  url?: string;
  /** How long to keep trying before giving up, ms; default 8000 (a loaded CI machine may take seconds to answer). */
  patienceMs?: number;
  /** Time-out of one connection attempt, ms; default 2000. */
  attemptMs?: number;
  /**
   * Attempts made before giving up, however long they took; default 4. A file that probes after registering its
   * first tests probes while those run: a test holding the event loop for seconds (loading a model) can spend the
   * whole patience on one attempt, so time alone must not decide.
   */
  minAttempts?: number;
  env?: NodeJS.ProcessEnv;
}

/** One connection and PING; throws when Redis does not answer within `attemptMs`. */
async function pingOnce(url: string, attemptMs: number): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: attemptMs, enableOfflineQueue: false, retryStrategy: () => null });
  // The failure is the rejection below; without a listener ioredis also prints it as an unhandled error event.
  client.on('error', () => {});
  try {
    await client.connect();
    await Promise.race([
      client.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no PING reply within ${attemptMs} ms`)), attemptMs).unref()),
    ]);
  } finally {
    client.disconnect();
  }
}

/**
 * Why Redis tests must skip, or undefined when Redis answers. Patient: tries again until `patienceMs` has passed
 * and at least `minAttempts` attempts were made, so a slow connect on a loaded machine does not drop the suites. When the run demands its services
 * (`PARLEY_TEST_REQUIRE_SERVICES=1`), a Redis that never answers rejects with the reason instead (see `missingService`).
 */
export async function redisSkipReason(options: RedisProbeOptions = {}): Promise<string | undefined> {
  const url = options.url ?? TEST_REDIS_URL;
  const attemptMs = options.attemptMs ?? 2000;
  const deadline = Date.now() + (options.patienceMs ?? 8000);
  const minAttempts = options.minAttempts ?? 4;
  let attempts = 0;
  for (;;) {
    attempts++;
    try {
      await pingOnce(url, attemptMs);
      return undefined;
    } catch (err) {
      if (attempts >= minAttempts && Date.now() + 250 >= deadline) {
        return missingService(`no Redis at ${url} after ${attempts} attempt(s) (${(err as Error).message})`, options.env);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Delete every key under `prefix` in the Redis at `url` (test clean-up). */
export async function deleteKeys(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const client = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
