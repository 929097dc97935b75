import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteEntityIndex } from '../../../graph/sqlite/sqlite-entity-index.js';
import { QueryCoherence, queryCoherence } from '../../../pipelines/retrieval/coherence.js';
import { DeterministicJudge } from '../../../pipelines/retrieval/schema-judge.js';
import { SEED_SCHEMAS } from '../../../pipelines/retrieval/schemas.js';

const T = 't_coh';
const TEXT: Record<string, string> = {
  m1: 'Ana has a job interview at Acme on Monday',
  m2: 'The Acme interview is with the design team',
  m3: 'Ana is nervous about the interview questions',
  m4: 'Acme is downtown',
  x1: 'The weather was sunny', x2: 'Ben bought bread', x3: 'The train was late',
};
const hits = (...ids: string[]): { id: string; text: string }[] => ids.map((id) => ({ id, text: TEXT[id] ?? id }));

describe('query coherence promotes a coherent subgraph to a schema (deterministic judge)', () => {
  let db: SqliteDatabase;
  let index: SqliteEntityIndex;
  let ids: Record<string, string>;
  beforeEach(async () => {
    db = openDatabase(':memory:');
    index = new SqliteEntityIndex(db);
    await index.ensureSchemas(T, [...SEED_SCHEMAS]);
    const interview = await index.upsertEntity(T, { name: 'job interview', description: 'interview', schemaId: 'sch_work' });
    const acme = await index.upsertEntity(T, { name: 'Acme', description: 'company', schemaId: 'sch_work' });
    const ana = await index.upsertEntity(T, { name: 'Ana', description: 'a person', schemaId: 'sch_relationships' });
    await index.addMemories(T, interview.id, { utteranceIds: ['m1', 'm2', 'm3'] });
    await index.addMemories(T, acme.id, { utteranceIds: ['m2', 'm4'] });
    await index.addMemories(T, ana.id, { utteranceIds: Array.from({ length: 50 }, (_, i) => `a${i}`).concat(['m1', 'm3']) });
    ids = { interview: interview.id, acme: acme.id, ana: ana.id };
  });
  afterEach(() => db.close());

  test('ρ(H) is the mean Jaccard of the queries\' hits with H', () => {
    const h = new Set(['m1', 'm2', 'm3']);
    assert.equal(queryCoherence([new Set(['m1', 'm2', 'm3'])], h), 1);
    assert.equal(queryCoherence([new Set(['m2', 'm3', 'm4']), new Set(['x1'])], h), (2 / 4 + 0) / 2);
  });

  test('coherent queries promote their entities once; later coherent queries never split them again', async () => {
    const c = new QueryCoherence(index, new DeterministicJudge(), { alpha: 0.5 });
    assert.equal(await c.record(T, 'how did the job interview go', hits('m1', 'm2', 'm3')), null);
    assert.equal(await c.record(T, 'when is the Acme interview', hits('m2', 'm3', 'm4')), null);
    const schema = await c.record(T, 'tips for the interview at Acme', hits('m1', 'm2', 'm3'));
    assert.ok(schema, 'promoted on the third coherent query');
    assert.equal(schema.origin, 'emergent');
    const moved = await index.getEntities(T, [ids.interview!, ids.acme!, ids.ana!]);
    assert.equal(moved.find((e) => e.id === ids.interview)?.schemaId, schema.id);
    assert.equal(moved.find((e) => e.id === ids.acme)?.schemaId, schema.id);
    assert.equal(moved.find((e) => e.id === ids.ana)?.schemaId, 'sch_relationships', 'hubs (people) stay where they are');
    for (const q of ['interview again', 'the interview questions', 'Acme interview prep', 'interview day']) {
      assert.equal(await c.record(T, q, hits('m1', 'm2', 'm3')), null);
    }
    const emergent = (await index.listSchemas(T)).filter((s) => s.origin === 'emergent');
    assert.equal(emergent.length, 1, 'never split or promoted twice');
  });

  test('after an erasure, the queries asked before it no longer count towards a schema', async () => {
    const c = new QueryCoherence(index, new DeterministicJudge(), { alpha: 0.5 });
    assert.equal(await c.record(T, 'how did the job interview go', hits('m1', 'm2', 'm3')), null);
    assert.equal(await c.record(T, 'when is the Acme interview', hits('m2', 'm3', 'm4')), null);
    await c.record('other-tenant', 'lunch plans', hits('m9'));
    c.forget(T);
    assert.deepEqual(c.held(T), { queries: 0, texts: 0 }, 'neither the questions nor the memory texts they hit are kept');
    assert.deepEqual(c.held('other-tenant'), { queries: 1, texts: 1 }, 'another tenant keeps its own');
    assert.equal(await c.record(T, 'tips for the interview at Acme', hits('m1', 'm2', 'm3')), null, 'one query since is not enough');
    assert.equal((await index.listSchemas(T)).filter((s) => s.origin === 'emergent').length, 0);
  });

  test('incoherent queries, or a judge that disapproves, promote nothing', async () => {
    const c = new QueryCoherence(index, new DeterministicJudge());
    for (const [q, h] of [['weather', 'x1'], ['bread', 'x2'], ['train', 'x3'], ['interview', 'm1']] as const) {
      assert.equal(await c.record(T, q, hits(h)), null);
    }
    const strict = new QueryCoherence(index, new DeterministicJudge({ minRelevance: 1.01 }));
    for (const q of ['job interview', 'Acme interview', 'interview at Acme']) assert.equal(await strict.record(T, q, hits('m1', 'm2', 'm3')), null);
    assert.equal((await index.listSchemas(T)).filter((s) => s.origin === 'emergent').length, 0);
  });

  test('the memory texts kept for the judge are bounded across tenants, the least recently used going first', async () => {
    const c = new QueryCoherence(index, new DeterministicJudge(), { maxTexts: 3 });
    for (let i = 0; i < 10; i++) await c.record(`tenant-${i}`, 'lunch plans', hits(`m${i}`));
    const held = Array.from({ length: 10 }, (_, i) => c.held(`tenant-${i}`).texts);
    assert.deepEqual(held, [0, 0, 0, 0, 0, 0, 0, 1, 1, 1], 'ten tenants hold three texts together, the newest');
    await c.record('tenant-7', 'lunch again', hits('m7'));
    await c.record('tenant-0', 'lunch plans', hits('m0', 'm1'));
    assert.deepEqual([0, 7, 8, 9].map((i) => c.held(`tenant-${i}`).texts), [2, 1, 0, 0], 'tenant 7, used again, outlived 8 and 9');
    c.forget('tenant-0');
    await c.record('tenant-8', 'lunch plans', hits('m8'));
    assert.deepEqual([7, 8].map((i) => c.held(`tenant-${i}`).texts), [1, 1], 'a forgotten tenant\'s texts no longer count');
  });
});

