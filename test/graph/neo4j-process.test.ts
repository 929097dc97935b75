import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import neo4j from 'neo4j-driver';
import { Neo4jEntityIndex } from '../../graph/neo4j/neo4j-entity-index.js';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import { NEO4J_SKIP, neo4jTestOptions } from '../helpers/stores.js';

const fact = (content: string, slot: string | null = null) => ({
  content, speakerId: 'p_a', addresseeIds: [], subjectId: 'p_a', kind: 'preference' as const, slot, value: null,
  time: '2026-12-01T00:00:00.000Z', referIds: [], validFrom: '2026-12-01T00:00:00.000Z', supersedes: null,
  confidence: 0.9, sessionId: 's1', source: 'test',
});

describe('Neo4j stores of one process', { skip: NEO4J_SKIP }, () => {
  test('share one driver; closing one store leaves the others working; eraseAll removes the prefix', async () => {
    const options = neo4jTestOptions('test-shared');
    const graph = new Neo4jGraphStore(options);
    const memory = new Neo4jMemoryStore(options);
    const entities = new Neo4jEntityIndex(options);
    try {
      // The driver is a protected field; reach it through the object to compare identity.
      const driverOf = (s: object) => (s as { driver: unknown }).driver;
      assert.equal(driverOf(graph), driverOf(memory));
      assert.equal(driverOf(memory), driverOf(entities));
      await graph.openSession('t1', 's1', new Date().toISOString());
      await graph.close();
      const [f] = await memory.addFacts('t1', [fact('likes tea')]);
      assert.equal((await memory.getFact('t1', f!.id))?.content, 'likes tea');
      await memory.eraseAll();
      assert.equal(await memory.getFact('t1', f!.id), null);
    } finally {
      await memory.close();
      await entities.close();
    }
  });

  test('facts written in one burst keep their order; concurrent writers of one tenant all land', async () => {
    const memory = new Neo4jMemoryStore(neo4jTestOptions('test-ord'));
    try {
      const one = await memory.addFacts('t1', [fact('first')]);
      const two = await memory.addFacts('t1', [fact('second')]);
      const listed = await memory.listFacts('t1');
      assert.deepEqual(listed.map((f) => f.id), [two[0]!.id, one[0]!.id]);
      const many = await Promise.all(Array.from({ length: 8 }, (_, i) => memory.addFacts('t2', [fact(`f${i}`), fact(`g${i}`)])));
      assert.equal(new Set(many.flat().map((f) => f.id)).size, 16);
      assert.equal((await memory.listFacts('t2', { limit: 100 })).length, 16);
    } finally {
      await memory.eraseAll();
      await memory.close();
    }
  });

  test('link(a, b) and link(b, a) at once neither deadlock nor lose a count; the version counts every write', async () => {
    const index = new Neo4jEntityIndex(neo4jTestOptions('test-link'));
    try {
      const a = await index.upsertEntity('t1', { name: 'Miko', description: 'the cat', schemaId: 'sch_pets' });
      const b = await index.upsertEntity('t1', { name: 'Rex', description: 'the dog', schemaId: 'sch_pets' });
      const before = await index.version('t1');
      await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? index.link('t1', a.id, b.id, 'weak') : index.link('t1', b.id, a.id, 'weak'))));
      const links = await index.neighbours('t1', [a.id, b.id], 5);
      assert.deepEqual(links.map((l) => [l.entityId, l.neighbourId, l.weight]).sort(), [[a.id, b.id, 10], [b.id, a.id, 10]].sort());
      assert.equal(await index.version('t1'), before + 10);
    } finally {
      await index.eraseAll();
      await index.close();
    }
  });
});

describe('Neo4j query plans', { skip: NEO4J_SKIP }, () => {
  // Each hot lookup, profiled on the real server: a label scan or an all-nodes scan fails the test.
  const hot: Array<[string, string, Record<string, unknown>]> = [
    ['fact by id', 'MATCH (f:Fact {tenant: $tenant, id: $id}) RETURN f', { id: 'f_x' }],
    ['facts of a slot', 'MATCH (f:Fact {tenant: $tenant, slot: $slot}) RETURN f', { slot: 'drink' }],
    ['facts superseding one', 'MATCH (f:Fact {tenant: $tenant, supersedes: $id}) RETURN f', { id: 'f_x' }],
    ['open facts', 'MATCH (f:Fact {tenant: $tenant}) WHERE f.validTo IS NULL AND f.subjectId = $id RETURN f', { id: 'p_a' }],
    ['utterances of a speaker', 'MATCH (u:Utterance {tenant: $tenant, speakerId: $id}) RETURN u', { id: 'p_a' }],
    ['open facts of a tenant', 'MATCH (f:Fact {tenant: $tenant}) WHERE f.validTo IS NULL RETURN f', {}],
    ['facts addressed to someone', 'MATCH (f:Fact {tenant: $tenant}) WHERE $id IN f.addresseeIds RETURN f', { id: 'p_a' }],
    ['participant by name or alias', 'MATCH (k:ParticipantName {tenant: $tenant, key: $name}) WITH DISTINCT k.participantId AS pid MATCH (n:Participant {tenant: $tenant, id: pid}) RETURN n', { name: 'miko' }],
    ['utterances addressed to someone', 'MATCH (u:Utterance {tenant: $tenant}) WHERE $id IN u.addresseeIds RETURN u', { id: 'p_a' }],
    ['entity by alias', 'MATCH (a:EntityAlias {tenant: $tenant, alias: $alias}) RETURN a', { alias: 'miko' }],
  ];
  test('every hot predicate seeks an index', async () => {
    const options = neo4jTestOptions('test-plan');
    const stores = [new Neo4jGraphStore(options), new Neo4jMemoryStore(options), new Neo4jEntityIndex(options)];
    const driver = neo4j.driver(options.uri, neo4j.auth.basic(options.user, options.password));
    try {
      for (const s of stores) await s.init();
      // The planner uses only online indexes; new ones populate in the background.
      await driver.executeQuery('CALL db.awaitIndexes(60)', {}, { database: options.database });
      const operators = async (cypher: string, params: Record<string, unknown>): Promise<string[]> => {
        const { summary } = await driver.executeQuery(`PROFILE ${cypher}`, { tenant: `${options.tenantPrefix}t1`, ...params }, { database: options.database });
        const ops: string[] = [];
        const walk = (p: { operatorType: string; children: unknown[] } | false | undefined) => {
          if (!p) return;
          ops.push(p.operatorType);
          for (const c of p.children) walk(c as { operatorType: string; children: unknown[] });
        };
        walk(summary.profile as never);
        return ops;
      };
      const scanning = (ops: string[]) => ops.some((op) => /LabelScan|AllNodesScan/.test(op));
      // The check itself: a lookup on an unindexed property is seen to scan.
      assert.ok(scanning(await operators('MATCH (n:Participant) WHERE n.voiceprintCount = 3 RETURN n', {})));
      const scans: string[] = [];
      for (const [what, cypher, params] of hot) {
        const ops = await operators(cypher, params);
        if (scanning(ops)) scans.push(`${what}: ${ops.join(' < ')}`);
      }
      assert.deepEqual(scans, []);
    } finally {
      await driver.close();
      for (const s of stores) await s.close();
    }
  });
});
