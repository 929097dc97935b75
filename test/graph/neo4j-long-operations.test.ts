/**
 * Long Neo4j operations in transactions of bounded size: merging a participant with a long history, relabelling their
 * memories, and erasing them run batch after batch (at most MERGE_BATCH / ERASE_BATCH rows each), so no single
 * transaction grows with the history and none can outlast `NEO4J_QUERY_TIMEOUT_MS` (where one transaction holding a
 * 20,000-turn history failed with 503 on every try: docs/BENCHMARKS.md, neo4jlong), and the data is right at the end.
 * What is checked is the number of transactions each operation ran, never a time, so a busy machine cannot fail it.
 * `PARLEY_TEST_LONG_HISTORY=20000` runs the measured size.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewUtterance } from '../../graph/graph-store.js';
import type { NewFact } from '../../graph/memory-store.js';
import { Neo4jGraphStore } from '../../graph/neo4j/neo4j-graph-store.js';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import { toNum } from '../../graph/neo4j/neo4j-connection.js';
import { MERGE_BATCH } from '../../graph/neo4j/neo4j-participant-merge.js';
import { ERASE_BATCH } from '../../graph/neo4j/neo4j-participant-erasure.js';
import { neo4jStoreParts } from '../helpers/neo4j-store-parts.js';
import { NEO4J_SKIP } from '../helpers/stores.js';

/** Utterances (and facts) in the long history. */
const HISTORY = Number(process.env.PARLEY_TEST_LONG_HISTORY ?? 2_500);
const AT = '2026-12-01T00:00:00.000Z';

const say = (sessionId: string, speakerId: string, text: string, addresseeIds: string[] = []): NewUtterance => ({
  sessionId, speakerId, addresseeIds, text, startMs: null, endMs: null, time: AT, confidence: null, audioRef: null,
});
const fact = (content: string, speakerId: string, addresseeIds: string[] = []): NewFact => ({
  content, speakerId, subjectId: speakerId, addresseeIds, kind: 'statement', slot: null, value: null, time: AT,
  referIds: [], validFrom: AT, supersedes: null, confidence: 0.9, sessionId: 's1', source: 'test',
});

/**
 * `store`, started (schema, start-up backfills), then watched: the name of every ordinary read and write transaction it
 * runs from now on (what is under test is the operation after the start) is pushed to the list returned with it.
 */
async function watched<T extends Neo4jGraphStore | Neo4jMemoryStore>(store: T): Promise<{ store: T; txs: string[] }> {
  await store.init();
  const txs: string[] = [];
  const db = (store as unknown as { db: Record<'read' | 'write', (what: string, work: unknown) => Promise<unknown>> }).db;
  for (const mode of ['read', 'write'] as const) {
    const run = db[mode].bind(db);
    db[mode] = (what, work) => { txs.push(what); return run(what, work); };
  }
  return { store, txs };
}

/** How many of `txs` are named `what`. */
const runs = (txs: string[], what: string): number => txs.filter((w) => w === what).length;

/**
 * Store `n` utterances of stored tenant `tenant` (ids `${prefix}${i}`, sequence `i`, in session `s${i % 7}`) spoken by
 * `speakerId` to `addresseeIds`, as `writeUtterances` lays them out (properties, SPEAKS, ADDRESSED to the key node,
 * ADDRESSES), 5000 per query: through the store this would take minutes on a busy machine.
 */
async function seed(parts: ReturnType<typeof neo4jStoreParts>, n: number, prefix: string, speakerId: string, addresseeIds: string[]): Promise<void> {
  for (let i = 0; i < n; i += 5000) {
    await parts.driver.executeQuery(`
      UNWIND range($from, $to - 1) AS i
      CREATE (u:Utterance {tenant: $tenant, id: $prefix + i, sessionId: 's' + (i % 7), seq: i, speakerId: $speakerId,
        addresseeIds: $addresseeIds, text: 'line ' + i, time: $at})
      WITH u
      CALL { WITH u MATCH (p:Participant {tenant: $tenant, id: $speakerId}) CREATE (p)-[:SPEAKS]->(u) }
      CALL { WITH u UNWIND $addresseeIds AS aid
        MERGE (k:Addressee {tenant: $tenant, id: aid}) CREATE (u)-[:ADDRESSED]->(k)
        WITH u, aid MATCH (p:Participant {tenant: $tenant, id: aid}) CREATE (u)-[:ADDRESSES]->(p) }`,
    { tenant: parts.tenant, from: i, to: Math.min(n, i + 5000), prefix, speakerId, addresseeIds, at: AT }, parts.db);
  }
}

describe('Neo4j: long operations in bounded transactions', { skip: NEO4J_SKIP }, () => {
  test('merging a participant with a long history runs in bounded transactions, and the data is right', async () => {
    const parts = neo4jStoreParts('test-long-merge');
    const { store: setup, driver, tenant, db } = parts;
    const store = new Neo4jGraphStore(parts.options);
    const count = async (cypher: string, params: Record<string, unknown>) =>
      toNum((await driver.executeQuery(cypher, { tenant, ...params }, db)).records[0]?.get('n'));
    try {
      const ana = await setup.createParticipant('t1', { name: 'Ana' });
      const ben = await setup.createParticipant('t1', { aliases: ['Benny'] });
      const cy = await setup.createParticipant('t1', { name: 'Cy' });
      await seed(parts, HISTORY, 'ua', ana.id, [cy.id]);
      await seed(parts, 3000, 'uc', cy.id, [ana.id]);
      await seed(parts, 1500, 'ub', ben.id, [ana.id, cy.id]);

      const { txs } = await watched(store);
      await store.mergeParticipants('t1', ana.id, ben.id);
      // Batches of at most MERGE_BATCH rows: as many transactions as the history needs, not one holding all of it.
      assert.ok(runs(txs, 'mergeParticipants.speakers') >= Math.ceil(HISTORY / MERGE_BATCH), txs.join(', '));

      assert.equal(await store.getParticipant('t1', ana.id), null);
      assert.deepEqual(await store.retiredParticipant('t1', ana.id), { mergedInto: ben.id });
      const merged = await store.getParticipant('t1', ben.id);
      assert.equal(merged?.name, 'Ana');
      assert.deepEqual(merged?.aliases, ['Benny']);
      assert.equal(await count('MATCH (u:Utterance {tenant: $tenant, speakerId: $id}) RETURN count(u) AS n', { id: ana.id }), 0);
      assert.equal(await count('MATCH (:Participant {tenant: $tenant, id: $id})-[:SPEAKS]->(u:Utterance {speakerId: $id}) RETURN count(u) AS n', { id: ben.id }), HISTORY + 1500);
      assert.equal(await count('MATCH (u:Utterance {tenant: $tenant}) WHERE $id IN u.addresseeIds RETURN count(u) AS n', { id: ana.id }), 0);
      assert.equal(await count('MATCH (k:Addressee {tenant: $tenant, id: $id}) RETURN count(k) AS n', { id: ana.id }), 0);
      // Cy's replies are addressed to the survivor (property, key node and interaction edge); Ben's own turns to nobody of himself.
      assert.equal(await count(`MATCH (u:Utterance {tenant: $tenant, speakerId: $cy})-[:ADDRESSED]->(:Addressee {id: $id})
        MATCH (u)-[:ADDRESSES]->(:Participant {id: $id}) WHERE u.addresseeIds = [$id] RETURN count(u) AS n`, { cy: cy.id, id: ben.id }), 3000);
      assert.equal(await count('MATCH (u:Utterance {tenant: $tenant, speakerId: $id}) WHERE $id IN u.addresseeIds OR (u)-[:ADDRESSES]->(:Participant {id: $id}) OR (u)-[:ADDRESSED]->(:Addressee {id: $id}) RETURN count(u) AS n', { id: ben.id }), 0);
      assert.equal(await count('MATCH (u:Utterance {tenant: $tenant, speakerId: $id}) WHERE u.addresseeIds = [$cy] RETURN count(u) AS n', { id: ben.id, cy: cy.id }), HISTORY + 1500);
      assert.equal((await store.queryInteractions('t1', { addresseeId: ben.id, limit: 1000 })).length, 1000);
    } finally {
      await setup.eraseAll();
      await store.close();
      await setup.close();
    }
  });

  test('a merge cut short after some batches is finished by merging again', async () => {
    const parts = neo4jStoreParts('test-long-merge-resume');
    const { store, driver, tenant, db } = parts;
    try {
      const ana = await store.createParticipant('t1', { name: 'Ana' });
      const ben = await store.createParticipant('t1', { name: 'Ben' });
      const spoken = (await store.addUtterances('t1', Array.from({ length: 40 }, (_, i) => say('s1', ana.id, `line ${i}`)))).map((u) => u.id);
      const reply = await store.addUtterances('t1', [say('s1', ben.id, 'hi Ana', [ana.id])]);
      // What a first attempt leaves when it stops after its first batch: part of Ana's turns already Ben's, Ana still there.
      await driver.executeQuery(`
        MATCH (a:Participant {tenant: $tenant, id: $ana})-[s:SPEAKS]->(u:Utterance) WHERE u.id IN $first
        DELETE s SET u.speakerId = $ben
        WITH u MATCH (b:Participant {tenant: $tenant, id: $ben}) MERGE (b)-[:SPEAKS]->(u)`,
      { tenant, ana: ana.id, ben: ben.id, first: spoken.slice(0, 15) }, db);
      await store.mergeParticipants('t1', ana.id, ben.id);
      assert.equal(await store.getParticipant('t1', ana.id), null);
      assert.deepEqual(await store.retiredParticipant('t1', ana.id), { mergedInto: ben.id });
      assert.ok((await store.getUtterances('t1', spoken)).every((u) => u.speakerId === ben.id));
      assert.deepEqual((await store.getUtterance('t1', reply[0]!.id))?.addresseeIds, []);
      assert.deepEqual((await store.getParticipant('t1', ben.id))?.aliases, ['Ana']);
    } finally {
      await store.eraseAll();
      await store.close();
    }
  });

  test('relabelling and erasing memories of a long history run in bounded transactions', async () => {
    const parts = neo4jStoreParts('test-long-memory');
    // Seeding 4,000 facts is set-up, not what is measured: a busy CI machine may need more than the default 20 s for it.
    const setup = new Neo4jMemoryStore({ ...parts.options, queryTimeoutMs: 300_000 });
    const memory = new Neo4jMemoryStore(parts.options);
    try {
      const facts: NewFact[] = [];
      for (let i = 0; i < HISTORY / 2; i++) facts.push(fact(`Ana likes thing ${i}`, 'p_ana', ['p_cy']));
      for (let i = 0; i < 2000; i++) facts.push(fact(`Cy tells Ana about ${i}`, 'p_cy', ['p_ana']));
      for (let i = 0; i < facts.length; i += 2000) await setup.addFacts('t1', facts.slice(i, i + 2000));
      await setup.markProcessed('t1', 'u0', [], { speakerId: 'p_ana', deletedIds: [] });
      await parts.driver.executeQuery(`UNWIND range(1, 1199) AS i
        CREATE (:ProcessedUtterance {tenant: $tenant, utteranceId: 'u' + i, factIds: [], processedAt: $at, speakerId: 'p_ana', deletedIds: []})`,
      { tenant: parts.tenant, at: AT }, parts.db);

      const { txs } = await watched(memory);
      await memory.relabelParticipant('t1', 'p_ana', 'p_ben');
      assert.ok(runs(txs, 'relabelParticipant.facts') >= Math.ceil(HISTORY / 2 / ERASE_BATCH), txs.join(', '));

      const count = async (where: string, id: string) => toNum((await parts.driver.executeQuery(
        `MATCH (f:Fact {tenant: $tenant}) WHERE ${where} RETURN count(f) AS n`, { tenant: parts.tenant, id, cy: 'p_cy' }, parts.db)).records[0]?.get('n'));
      assert.equal(await count('f.speakerId = $id OR f.subjectId = $id OR $id IN f.addresseeIds OR (f)-[:ADDRESSED]->(:Addressee {id: $id})', 'p_ana'), 0);
      assert.equal(await count("f.speakerId = $id AND f.subjectId = $id AND f.addresseeIds = [$cy] AND (f)-[:ADDRESSED]->(:Addressee {id: $cy})", 'p_ben'), HISTORY / 2);
      assert.equal(await count("f.speakerId = $cy AND f.addresseeIds = [$id] AND (f)-[:ADDRESSED]->(:Addressee {id: $id})", 'p_ben'), 2000);
      assert.equal((await memory.processedBy('t1', 'u1199'))?.speakerId, 'p_ben');

      const erased = await memory.deleteParticipant('t1', 'p_ben');
      assert.equal(erased.factIds.length, HISTORY / 2);
      assert.equal(await count('f.speakerId = $id OR $id IN f.addresseeIds OR (f)-[:ADDRESSED]->(:Addressee {id: $id})', 'p_ben'), 0);
      assert.equal(await count('f.speakerId = $cy AND f.addresseeIds = []', 'p_ben'), 2000);
    } finally {
      await setup.eraseAll();
      await memory.close();
      await setup.close();
      await parts.store.close();
    }
  });

  test('erasing a participant with a long history runs in bounded transactions', async () => {
    const parts = neo4jStoreParts('test-long-erase');
    const { store: setup } = parts;
    const store = new Neo4jGraphStore(parts.options);
    try {
      const ana = await setup.createParticipant('t1', { name: 'Ana' });
      const cy = await setup.createParticipant('t1', { name: 'Cy' });
      await seed(parts, HISTORY, 'ua', ana.id, [cy.id]);
      await seed(parts, 2000, 'uc', cy.id, [ana.id]);
      const replies = Array.from({ length: 2000 }, (_, i) => `uc${i}`);
      const { txs } = await watched(store);
      const erased = await store.deleteParticipant('t1', ana.id);
      assert.ok(runs(txs, 'deleteParticipant.utterances') >= Math.ceil(HISTORY / ERASE_BATCH), txs.join(', '));
      assert.equal(erased?.length, HISTORY);
      assert.equal(await store.getParticipant('t1', ana.id), null);
      assert.deepEqual(await store.queryInteractions('t1', { speakerId: ana.id }), []);
      assert.ok((await store.getUtterances('t1', replies)).every((u) => u.addresseeIds.length === 0));
    } finally {
      await setup.eraseAll();
      await store.close();
      await setup.close();
    }
  });
});
