import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { graphStoreContract } from './contracts/graph-store.contract.js';
import { participantAttributeContract } from './contracts/participant-attribute.contract.js';
import { pendingErasureContract } from './contracts/pending-erasure.contract.js';
import { closedPort, NEO4J_SKIP, neo4jTestOptions, storeUnavailable } from '../helpers/stores.js';


/** A unique tenant prefix per fixture keeps runs apart in one database; clean-up erases it. */
async function neo4jFixture() {
  const store = new Neo4jGraphStore(neo4jTestOptions('test'));
  await store.init();
  return { store, cleanup: async () => { await store.eraseAll(); await store.close(); } };
}

graphStoreContract('neo4j', neo4jFixture, NEO4J_SKIP);
participantAttributeContract('neo4j', neo4jFixture, NEO4J_SKIP);
pendingErasureContract('neo4j', neo4jFixture, NEO4J_SKIP);

describe('Neo4j outage', () => {
  test('an unreachable server reports not ready, fast, and fails with a retryable error naming NEO4J_URI', async () => {
    const port = await closedPort();
    const store = new Neo4jGraphStore({ uri: `bolt://127.0.0.1:${port}`, user: 'neo4j', password: 'x', maxRetryMs: 300, readyTimeoutMs: 1000 });
    try {
      assert.equal(await store.ready(), false);
      await assert.rejects(store.openSession('t1', 's1', new Date().toISOString()), storeUnavailable('NEO4J_URI'));
    } finally {
      await store.close();
    }
  });
});
