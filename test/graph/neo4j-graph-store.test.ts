import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { graphStoreContract } from './contracts/graph-store.contract.js';

const NEO4J_URI = process.env.NEO4J_URI;
const skip = NEO4J_URI ? undefined : 'NEO4J_URI is not set: no Neo4j server to run the networked contract against';
let fixtures = 0;

graphStoreContract('neo4j', async () => {
  // A unique tenant prefix per fixture keeps runs apart in one database; clean-up erases it.
  const store = new Neo4jGraphStore({
    uri: NEO4J_URI!, user: process.env.NEO4J_USER ?? 'neo4j', password: process.env.NEO4J_PASSWORD ?? '',
    database: process.env.NEO4J_DATABASE ?? 'neo4j', tenantPrefix: `test-${process.pid}-${Date.now()}-${fixtures++}:`,
  });
  await store.init();
  return { store, cleanup: async () => { await store.eraseAll(); await store.close(); } };
}, skip);

describe('Neo4j outage', () => {
  test('an unreachable server reports not ready, fast, and fails with a retryable error naming NEO4J_URI', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const store = new Neo4jGraphStore({ uri: `bolt://127.0.0.1:${port}`, user: 'neo4j', password: 'x', maxRetryMs: 300, readyTimeoutMs: 1000 });
    try {
      assert.equal(await store.ready(), false);
      await assert.rejects(store.openSession('t1', 's1', new Date().toISOString()), (err: Error & { code?: string; retryable?: boolean }) => {
        assert.equal(err.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
        assert.equal(err.retryable, true);
        assert.match(err.message, /NEO4J_URI/);
        return true;
      });
    } finally {
      await store.close();
    }
  });
});
