import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteEntityIndex } from '../../../graph/sqlite/sqlite-entity-index.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import { SqliteMemoryStore } from '../../../graph/sqlite/sqlite-memory-store.js';
import { SqliteVectorStore } from '../../../graph/sqlite/sqlite-vector-store.js';
import { OpenAiEmbedder } from '../../../pipelines/embeddings/openai-embedder.js';
import { reembedIfNeeded } from '../../../pipelines/embeddings/reembed.js';
import { textHash } from '../../../pipelines/memory/memory-indexer.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { ENTITY_COLLECTION } from '../../../pipelines/retrieval/left-brain-job.js';
import { startOpenAiDouble, type OpenAiDouble } from '../../doubles/openai-double.js';

let double: OpenAiDouble;
let db: SqliteDatabase;
before(async () => {
  double = await startOpenAiDouble({ dimension: 24 });
  db = openDatabase(':memory:');
});
after(async () => {
  await double.close();
  db.close();
});

test('a collection in another embedding space is re-embedded, not mixed', async () => {
  const graph = new SqliteGraphStore(db);
  const memory = new SqliteMemoryStore(db);
  const vectors = new SqliteVectorStore(db);
  const p = await graph.createParticipant('t', { name: 'Ana' });
  await graph.openSession('t', 's', '2026-01-01T00:00:00.000Z');
  const [u] = await graph.addUtterances('t', [{ sessionId: 's', speakerId: p.id, addresseeIds: [], text: 'I like green tea',
    startMs: null, endMs: null, time: '2026-01-01T00:00:01.000Z', confidence: null, audioRef: null }]);
  assert.ok(u);
  const [f] = await memory.addFacts('t', [{ content: 'Ana likes green tea', speakerId: p.id, addresseeIds: [], subjectId: p.id,
    kind: 'preference', slot: 'preference:green tea', value: 'like', time: u.time, referIds: [u.id], validFrom: u.time,
    supersedes: null, confidence: 0.8, sessionId: 's', source: 'test' }]);
  assert.ok(f);
  // Old space: 8-d vectors from another model.
  for (const layer of ['interaction', 'fact'] as const) {
    await vectors.ensureCollection(collectionFor(layer), { model: 'old-model', dimension: 8 });
    await vectors.upsert('t', collectionFor(layer), [{ id: layer === 'fact' ? f.id : u.id, vector: new Float32Array(8).fill(1), payload: { layer } }]);
  }
  const embedder = new OpenAiEmbedder({ baseURL: double.baseURL, apiKey: 'k', model: 'new-model', dimension: 24 });
  await assert.rejects(vectors.ensureCollection(collectionFor('fact'), embedder.space), { code: 'PARLEY_ERR_EMBEDDING_MISMATCH' });
  const written = await reembedIfNeeded({ vectors, embedder, memory, graph }, ['t']);
  assert.deepEqual(written, { interaction: 1, fact: 1, profile: 0, entity: 0 });
  assert.deepEqual(await vectors.collectionSpace(collectionFor('fact')), { model: 'new-model', dimension: 24 });
  const [q] = await embedder.embed(['Ana likes green tea']);
  const hits = await vectors.search('t', collectionFor('fact'), q as Float32Array, 1);
  assert.equal(hits[0]?.id, f.id);
  assert.ok((hits[0]?.score ?? 0) > 0.99);
  assert.equal(hits[0]?.payload.textHash, textHash(f.content), 're-embedded points keep their text\'s digest, as the indexer writes it');
  assert.deepEqual(await reembedIfNeeded({ vectors, embedder, memory, graph }, ['t']), { interaction: 0, fact: 0, profile: 0, entity: 0 }, 'second run is a no-op');
});

test('the left brain\'s entity vectors follow the embedder too (a store written by another model keeps its entities searchable)', async () => {
  const entityDb = openDatabase(':memory:');
  try {
    const graph = new SqliteGraphStore(entityDb);
    const memory = new SqliteMemoryStore(entityDb);
    const vectors = new SqliteVectorStore(entityDb);
    const entities = new SqliteEntityIndex(entityDb);
    const miko = await entities.upsertEntity('t', { name: 'Miko', description: 'Miko: my cat Miko hates the vet', schemaId: 'schema:thing' });
    const lisbon = await entities.upsertEntity('t', { name: 'Lisbon', description: 'Lisbon: we flew to Lisbon in May', schemaId: 'schema:thing' });
    await vectors.ensureCollection(ENTITY_COLLECTION, { model: 'old-model', dimension: 8 });
    await vectors.upsert('t', ENTITY_COLLECTION, [miko, lisbon].map((e) => ({ id: e.id, vector: new Float32Array(8).fill(1), payload: { layer: 'entity' } })));
    const embedder = new OpenAiEmbedder({ baseURL: double.baseURL, apiKey: 'k', model: 'new-model', dimension: 24 });
    await assert.rejects(vectors.ensureCollection(ENTITY_COLLECTION, embedder.space), { code: 'PARLEY_ERR_EMBEDDING_MISMATCH' });

    assert.deepEqual(await reembedIfNeeded({ vectors, embedder, memory, graph }, ['t']), { interaction: 0, fact: 0, profile: 0, entity: 0 },
      'without the entity index the collection is left alone');
    const written = await reembedIfNeeded({ vectors, embedder, memory, graph, entities, batch: 1 }, ['t']);
    assert.deepEqual(written, { interaction: 0, fact: 0, profile: 0, entity: 2 });
    await vectors.ensureCollection(ENTITY_COLLECTION, embedder.space);
    const [q] = await embedder.embed(['Lisbon: we flew to Lisbon in May']);
    const [hit] = await vectors.search('t', ENTITY_COLLECTION, q as Float32Array, 1);
    assert.equal(hit?.id, lisbon.id);
    assert.equal(hit?.payload.name, 'lisbon');
    assert.equal(await vectors.count('t', ENTITY_COLLECTION), 2);
    assert.equal((await reembedIfNeeded({ vectors, embedder, memory, graph, entities }, ['t'])).entity, 0, 'second run is a no-op');
  } finally {
    entityDb.close();
  }
});
