import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import pino from 'pino';
import { Neo4jEntityIndex } from '../../graph/neo4j/neo4j-entity-index.js';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import { openStores } from '../../graph/open-stores.js';
import { SqliteEntityIndex } from '../../graph/sqlite/sqlite-entity-index.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';
import { entityIndexContract } from './contracts/entity-index.contract.js';

const NEO4J_URI = process.env.NEO4J_URI;
const skip = NEO4J_URI ? undefined : 'NEO4J_URI is not set: no Neo4j server to run the networked contract against';
let fixtures = 0;

entityIndexContract('neo4j', async () => {
  // A unique tenant prefix per fixture keeps runs apart in one database; clean-up erases it.
  const index = new Neo4jEntityIndex({
    uri: NEO4J_URI!, user: process.env.NEO4J_USER ?? 'neo4j', password: process.env.NEO4J_PASSWORD ?? '',
    database: process.env.NEO4J_DATABASE ?? 'neo4j', tenantPrefix: `test-ent-${process.pid}-${Date.now()}-${fixtures++}:`,
  });
  await index.init();
  return { index, cleanup: async () => { await index.eraseAll(); await index.close(); } };
}, skip);

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('openStores wiring of the memory store and entity index', () => {
  const logger = pino({ level: 'silent' });

  test('the embedded default keeps both in the SQLite file', async () => {
    const tmp = tempDir();
    const stores = openStores(loadConfig({ DATA_DIR: tmp.dir }), logger);
    try {
      assert.ok(stores.entities instanceof SqliteEntityIndex);
      assert.ok(stores.memory instanceof SqliteMemoryStore);
      const e = await stores.entities.upsertEntity('t1', { name: 'Miko', description: 'the cat', schemaId: 'sch_pets' });
      // Code that still builds its own index on stores.sqlite sees the same rows.
      assert.deepEqual((await new SqliteEntityIndex(stores.sqlite).listNames('t1')).map((n) => n.id), [e.id]);
      assert.equal(await stores.entities.ready(), true);
    } finally {
      await stores.close(1000);
      tmp.remove();
    }
  });

  test('PARLEY_GRAPH_STORE=neo4j puts both in Neo4j, whose writes fail naming NEO4J_URI while it is down', async () => {
    const tmp = tempDir();
    const port = await closedPort();
    const stores = openStores(loadConfig({ DATA_DIR: tmp.dir, PARLEY_GRAPH_STORE: 'neo4j', NEO4J_URI: `bolt://127.0.0.1:${port}` }), logger);
    try {
      assert.ok(stores.entities instanceof Neo4jEntityIndex);
      assert.ok(stores.memory instanceof Neo4jMemoryStore);
      await assert.rejects(stores.entities.link('t1', 'ent_a', 'ent_b', 'weak'), (err: Error & { code?: string }) => {
        assert.equal(err.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
        assert.match(err.message, /NEO4J_URI/);
        return true;
      });
    } finally {
      await stores.close(1000);
      tmp.remove();
    }
  });
});

describe('Neo4j entity index outage', () => {
  test('an unreachable server reports not ready and writes fail with a retryable error naming NEO4J_URI', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const index = new Neo4jEntityIndex({ uri: `bolt://127.0.0.1:${port}`, user: 'neo4j', password: 'x', maxRetryMs: 300, readyTimeoutMs: 1000 });
    try {
      assert.equal(await index.ready(), false);
      await assert.rejects(index.upsertEntity('t1', { name: 'Miko', description: 'the cat', schemaId: 'sch_pets' }), (err: Error & { code?: string; retryable?: boolean }) => {
        assert.equal(err.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
        assert.equal(err.retryable, true);
        assert.match(err.message, /NEO4J_URI/);
        return true;
      });
    } finally {
      await index.close();
    }
  });
});
