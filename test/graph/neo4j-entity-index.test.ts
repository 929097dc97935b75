import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import neo4j from 'neo4j-driver';
import pino from 'pino';
import { Neo4jEntityIndex } from '../../graph/neo4j/neo4j-entity-index.js';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import { openStores } from '../../graph/open-stores.js';
import { SqliteEntityIndex } from '../../graph/sqlite/sqlite-entity-index.js';
import { SqliteMemoryStore } from '../../graph/sqlite/sqlite-memory-store.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';
import { entityIndexContract } from './contracts/entity-index.contract.js';
import { closedPort, NEO4J_SKIP, neo4jTestOptions, storeUnavailable } from '../helpers/stores.js';


entityIndexContract('neo4j', async () => {
  // A unique tenant prefix per fixture keeps runs apart in one database; clean-up erases it.
  const index = new Neo4jEntityIndex(neo4jTestOptions('test-ent'));
  await index.init();
  return { index, cleanup: async () => { await index.eraseAll(); await index.close(); } };
}, NEO4J_SKIP);

describe('Neo4j entity deletion', { skip: NEO4J_SKIP }, () => {
  test('deleting entities deletes the memory references only they held; one another entity holds stays', async () => {
    const options = neo4jTestOptions('test-ent-refs');
    const index = new Neo4jEntityIndex(options);
    const driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user!, options.password!));
    const refs = async (): Promise<string[]> => (await driver.executeQuery(
      'MATCH (m:MemoryRef) WHERE m.tenant STARTS WITH $prefix RETURN m.id AS id ORDER BY id', { prefix: options.tenantPrefix }, { database: options.database }))
      .records.map((r) => String(r.get('id')));
    try {
      const gone = await index.upsertEntity('t1', { name: 'Zorvath', description: 'x', schemaId: 'sch_people' });
      const kept = await index.upsertEntity('t1', { name: 'Lisbon', description: 'y', schemaId: 'sch_places' });
      await index.addMemories('t1', gone.id, { factIds: ['f_only'], utteranceIds: ['u_shared'] });
      await index.addMemories('t1', kept.id, { utteranceIds: ['u_shared'] });
      assert.deepEqual(await refs(), ['f_only', 'u_shared']);
      await index.deleteEntities('t1', [gone.id]);
      assert.deepEqual(await refs(), ['u_shared'], 'no orphan reference is left');
      assert.deepEqual((await index.memoriesOf('t1', [kept.id], 10)).utteranceIds, ['u_shared']);
    } finally {
      await index.eraseAll();
      await index.close();
      await driver.close();
    }
  });
});

describe('Neo4j entity descriptions by turn order under concurrent upserts', { skip: NEO4J_SKIP }, () => {
  test('an upsert that read a later turn before an earlier one committed does not write over the earlier', async () => {
    const options = neo4jTestOptions('test-ent-order');
    const index = new Neo4jEntityIndex(options);
    const driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user!, options.password!));
    const session = driver.session({ database: options.database });
    const blocked = async (): Promise<boolean> => (await driver.executeQuery(
      "SHOW TRANSACTIONS YIELD status WHERE status STARTS WITH 'Blocked' RETURN count(*) AS n", {}, { database: options.database }))
      .records[0]!.get('n').toNumber() > 0;
    try {
      const e = await index.upsertEntity('t1', { name: 'Lake Tahoe', description: 'turn 5', schemaId: 'sch_places', descriptionOrder: '5' });
      // Another job describes it from turn 1: it holds the entity's write lock, not yet committed.
      const tx = session.beginTransaction();
      await tx.run('MATCH (e:Entity {tenant: $tenant, id: $id}) SET e.description = $description, e.descriptionOrder = $order',
        { tenant: `${options.tenantPrefix}t1`, id: e.id, description: 'turn 1', order: '1' });
      // Turn 3's upsert reads turn 5 (what is committed), then waits for the lock.
      const upsert = index.upsertEntity('t1', { name: 'Lake Tahoe', description: 'turn 3', schemaId: 'sch_places', descriptionOrder: '3' });
      while (!await blocked()) await new Promise((resolve) => setTimeout(resolve, 20));
      await tx.commit();
      const written = await upsert;
      assert.deepEqual([written.description, written.descriptionOrder], ['turn 1', '1']);
      const [stored] = await index.getEntities('t1', [e.id]);
      assert.deepEqual([stored?.description, stored?.descriptionOrder], ['turn 1', '1']);
    } finally {
      await session.close();
      await index.eraseAll();
      await index.close();
      await driver.close();
    }
  });
});

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
      await assert.rejects(stores.entities.link('t1', 'ent_a', 'ent_b', 'weak'), storeUnavailable('NEO4J_URI', undefined));
    } finally {
      await stores.close(1000);
      tmp.remove();
    }
  });
});

describe('Neo4j entity index outage', () => {
  test('an unreachable server reports not ready and writes fail with a retryable error naming NEO4J_URI', async () => {
    const port = await closedPort();
    const index = new Neo4jEntityIndex({ uri: `bolt://127.0.0.1:${port}`, user: 'neo4j', password: 'x', maxRetryMs: 300, readyTimeoutMs: 1000 });
    try {
      assert.equal(await index.ready(), false);
      await assert.rejects(index.upsertEntity('t1', { name: 'Miko', description: 'the cat', schemaId: 'sch_pets' }), storeUnavailable('NEO4J_URI'));
    } finally {
      await index.close();
    }
  });
});
