import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { openStores, openStoresChecked } from '../../graph/open-stores.js';
import { loadConfig } from '../../server/config.js';
import { redisSkipReason } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp-dir.js';
import { closedPort } from '../helpers/stores.js';

const skip = await redisSkipReason();
const REDIS_URL = process.env.PARLEY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
const logger = pino({ level: 'silent' });

describe('openStores', () => {
  test('the embedded default opens with no network and runs jobs in-process', async () => {
    const tmp = tempDir();
    const stores = await openStoresChecked(loadConfig({ DATA_DIR: tmp.dir }), logger, 1000);
    try {
      const seen: string[] = [];
      stores.queue.process<{ v: string }>('j', async (job) => {
        seen.push(job.data.v);
      });
      await stores.queue.enqueue('j', { v: 'x' });
      await stores.queue.drain('j', 5000);
      assert.deepEqual(seen, ['x']);
      assert.equal(await stores.graph.ready(), true);
    } finally {
      await stores.close(1000);
      tmp.remove();
    }
  });

  test('unreachable networked backends fail start-up with the env var to fix', async () => {
    const tmp = tempDir();
    const port = await closedPort();
    try {
      const config = loadConfig({
        DATA_DIR: tmp.dir, PARLEY_QUEUE: 'redis', REDIS_URL: `redis://127.0.0.1:${port}/14`,
        PARLEY_VECTOR_STORE: 'qdrant', QDRANT_URL: `http://127.0.0.1:${port}`,
        PARLEY_GRAPH_STORE: 'neo4j', NEO4J_URI: `bolt://127.0.0.1:${port}`, NEO4J_PASSWORD: 'secret-pw',
      });
      await assert.rejects(openStoresChecked(config, logger, 500), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
        for (const envVar of ['REDIS_URL', 'QDRANT_URL', 'NEO4J_URI']) assert.match(err.message, new RegExp(envVar));
        assert.doesNotMatch(err.message, /secret-pw/);
        return true;
      });
    } finally {
      tmp.remove();
    }
  });

  test('PARLEY_VECTOR_STORE=neo4j alone (graph embedded) still checks Neo4j at start-up', async () => {
    const tmp = tempDir();
    const port = await closedPort();
    try {
      const config = loadConfig({ DATA_DIR: tmp.dir, PARLEY_VECTOR_STORE: 'neo4j', NEO4J_URI: `bolt://127.0.0.1:${port}`, NEO4J_PASSWORD: 'secret-pw' });
      await assert.rejects(openStoresChecked(config, logger, 500), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
        assert.match(err.message, /NEO4J_URI/);
        assert.doesNotMatch(err.message, /secret-pw/);
        return true;
      });
    } finally {
      tmp.remove();
    }
  });

  test('with PARLEY_QUEUE=redis jobs go through the outbox to Redis and reach a worker', { skip }, async () => {
    const tmp = tempDir();
    const prefix = `parley-test-open-${process.pid}-${Date.now()}`;
    const config = loadConfig({ DATA_DIR: tmp.dir, PARLEY_QUEUE: 'redis', REDIS_URL, PARLEY_REDIS_PREFIX: prefix });
    const server = await openStoresChecked(config, logger, 2000);
    const worker = openStores({ ...config, dataDir: `${tmp.dir}/worker` }, logger);
    try {
      const seen: number[] = [];
      worker.queue.process<{ n: number }>('consolidate', async (job) => {
        seen.push(job.data.n);
      });
      await server.queue.enqueue('consolidate', { n: 7 });
      await worker.queue.drain('consolidate', 10_000);
      assert.deepEqual(seen, [7]);
    } finally {
      await server.close(1000);
      await worker.close(1000);
      const client = new Redis(REDIS_URL);
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
      tmp.remove();
    }
  });
});
