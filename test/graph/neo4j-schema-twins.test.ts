import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import neo4j from 'neo4j-driver';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { isSchemaAlreadyThere } from '../../graph/neo4j/neo4j-store-base.js';
import { NEO4J_SKIP, neo4jTestOptions } from '../helpers/stores.js';

/**
 * Two stores creating the schema of a fresh database at once: `CREATE INDEX … IF NOT EXISTS` can still be
 * refused with "an equivalent index already exists" when its twin commits first (CI hit it on
 * `parley_retired_participant_survivor`). Such a refusal means the index is there, and opening goes on.
 */
describe('Neo4j schema created by twins at once', { skip: NEO4J_SKIP }, () => {
  test('Neo4j\'s "equivalent index already exists" refusal is recognised as the schema being in place', async () => {
    const options = neo4jTestOptions('test-schema-twins');
    const graph = new Neo4jGraphStore(options);
    const driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user!, options.password!));
    try {
      await graph.init();
      // The statement again once its index exists, as Neo4j sees a twin's that lost the race past its
      // `IF NOT EXISTS` check: refused.
      const err = await driver.executeQuery('CREATE INDEX parley_retired_participant_survivor FOR (n:RetiredParticipant) ON (n.tenant, n.mergedInto)', {}, { database: options.database })
        .then(() => null, (e: unknown) => e);
      assert.ok(err, 'Neo4j refuses an index that exists');
      assert.equal(isSchemaAlreadyThere(err), true, String((err as { code?: string }).code));
      assert.equal(isSchemaAlreadyThere(Object.assign(new Error('x'), { code: 'Neo.ClientError.Statement.SyntaxError' })), false);
    } finally {
      await driver.close();
      await graph.close();
    }
  });

  test('several stores opening at once on one database all open', async () => {
    const stores = Array.from({ length: 4 }, () => new Neo4jGraphStore(neo4jTestOptions('test-schema-twins')));
    try {
      await Promise.all(stores.map((s) => s.init()));
      const ana = await stores[0]!.createParticipant('t1', { name: 'Ana' });
      assert.equal((await stores[0]!.getParticipant('t1', ana.id))?.name, 'Ana');
    } finally {
      await stores[0]!.eraseAll();
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});
