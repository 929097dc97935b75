import { Redis } from 'ioredis';

/** The Redis the tests use: `PARLEY_TEST_REDIS_URL`, else the local server, database 13. */
export const TEST_REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/13';

/** Why Redis tests must skip, or undefined when Redis answers. */
export async function redisSkipReason(): Promise<string | undefined> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, enableOfflineQueue: false });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (err) {
    return `no Redis at ${TEST_REDIS_URL} (${(err as Error).message})`;
  } finally {
    client.disconnect();
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
