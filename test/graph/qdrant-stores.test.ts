import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { QdrantClient } from '@qdrant/js-client-rest';
import { pointId } from '../../graph/qdrant/qdrant-common.js';
import { toQdrantFilter } from '../../graph/qdrant/qdrant-filter.js';
import { QdrantLexicalIndex } from '../../graph/qdrant/qdrant-lexical-index.js';
import { QdrantVectorStore } from '../../graph/qdrant/qdrant-vector-store.js';
import { QdrantVoiceprintStore } from '../../graph/qdrant/qdrant-voiceprint-store.js';
import { documentVector, queryVector, stem, terms } from '../../graph/qdrant/sparse-text.js';
import { lexicalIndexContract } from './contracts/lexical-index.contract.js';
import { vectorStoreContract } from './contracts/vector-store.contract.js';
import { voiceprintStoreContract } from './contracts/voiceprint-store.contract.js';
import { closedPort, storeUnavailable } from '../helpers/stores.js';

const QDRANT_URL = process.env.QDRANT_URL;
const skip = QDRANT_URL ? undefined : 'QDRANT_URL is not set: no Qdrant server installable here (none in the registries these machines reach)';
let fixtures = 0;

/** A unique collection prefix per fixture, and a clean-up that drops every collection under it. */
function qdrantFixture() {
  const collectionPrefix = `parley_test_${process.pid}_${Date.now()}_${fixtures++}_`;
  const options = { url: QDRANT_URL!, apiKey: process.env.QDRANT_API_KEY ?? null, collectionPrefix };
  const cleanup = async () => {
    const client = new QdrantClient({ url: QDRANT_URL!, ...(process.env.QDRANT_API_KEY ? { apiKey: process.env.QDRANT_API_KEY } : {}), checkCompatibility: false });
    const { collections } = await client.getCollections();
    for (const c of collections) if (c.name.startsWith(collectionPrefix)) await client.deleteCollection(c.name);
  };
  return { options, cleanup };
}

vectorStoreContract('qdrant', async () => {
  const { options, cleanup } = qdrantFixture();
  return { store: new QdrantVectorStore(options), cleanup };
}, skip);

lexicalIndexContract('qdrant sparse bm25', async () => {
  const { options, cleanup } = qdrantFixture();
  return { index: new QdrantLexicalIndex(options), cleanup };
}, skip);

voiceprintStoreContract('qdrant', async () => {
  const { options, cleanup } = qdrantFixture();
  return { store: new QdrantVoiceprintStore(options), cleanup };
}, skip);

describe('Qdrant mapping (no server needed)', () => {
  test('point ids are stable UUIDs, distinct per tenant', () => {
    const a = pointId('t1', 'u_1');
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(pointId('t1', 'u_1'), a);
    assert.notEqual(pointId('t2', 'u_1'), a);
    assert.notEqual(pointId('t1', 'u_2'), a);
  });

  test('every filter is scoped to the tenant; the id pool becomes a has_id condition', () => {
    const f = toQdrantFilter('t1', { layer: ['fact', 'profile'], addresseeId: 'p2', ids: ['a'] });
    assert.deepEqual(f.must, [
      { key: 'tenant', match: { value: 't1' } },
      { key: 'layer', match: { any: ['fact', 'profile'] } },
      { key: 'addresseeIds', match: { value: 'p2' } },
      { has_id: [pointId('t1', 'a')] },
    ]);
    assert.deepEqual(toQdrantFilter('t9').must, [{ key: 'tenant', match: { value: 't9' } }]);
  });

  test('tokenisation drops stop words and operators and stems inflections together', () => {
    assert.deepEqual(terms('"AND OR ( * :'), []);
    assert.equal(stem('cats'), stem('cat'));
    assert.equal(stem('promised'), stem('promise'));
    assert.equal(stem('adopted'), stem('adopt'));
    assert.equal(stem('raining'), stem('rain'));
    assert.notEqual(stem('weather'), stem('lovely'));
    assert.equal(stem('generalisations'), stem('generalisation'));
    assert.equal(stem('généralement'), 'généralement', 'words outside a–z are not stemmed as English');
    assert.deepEqual(queryVector('the the of'), { indices: [], values: [] });
  });

  test('sparse vectors rank like BM25 once IDF is applied as Qdrant does', () => {
    const docs: Record<string, string> = {
      u1: 'Ana promised to send Ben the draft on Friday',
      u2: 'Ben adopted a cat called Miko',
      f1: 'Ben has a cat named Miko; the cat likes tuna',
      u3: 'The weather is lovely today',
    };
    const vectors = Object.fromEntries(Object.entries(docs).map(([id, text]) => [id, documentVector(text)]));
    const df = new Map<number, number>();
    for (const v of Object.values(vectors)) for (const i of v.indices) df.set(i, (df.get(i) ?? 0) + 1);
    const n = Object.keys(docs).length;
    // Qdrant's idf modifier: ln(1 + (N - n + 0.5) / (n + 0.5)).
    const idf = (i: number) => Math.log(1 + (n - (df.get(i) ?? 0) + 0.5) / ((df.get(i) ?? 0) + 0.5));
    const search = (q: string) => {
      const query = queryVector(q);
      return Object.entries(vectors)
        .map(([id, v]) => ({ id, score: query.indices.reduce((s, qi) => { const j = v.indices.indexOf(qi); return j < 0 ? s : s + idf(qi) * v.values[j]!; }, 0) }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score);
    };
    assert.deepEqual(search('cats Miko').map((h) => h.id), ['f1', 'u2'], 'two mentions of cat outrank one');
    assert.deepEqual(search('promise draft').map((h) => h.id), ['u1']);
    assert.deepEqual(search('weather? "lovely" -today*').map((h) => h.id), ['u3']);
    const tf = documentVector('cat cat cat dog');
    assert.ok(tf.values[tf.indices.indexOf(queryVector('cat').indices[0]!)]! > tf.values[tf.indices.indexOf(queryVector('dog').indices[0]!)]!);
  });
});

describe('Qdrant outage', () => {
  test('an unreachable server reports not ready, fast, and fails writes with a retryable error naming QDRANT_URL', async () => {
    const port = await closedPort();
    const options = { url: `http://127.0.0.1:${port}`, timeoutMs: 1000, readyTimeoutMs: 500 };
    const vectors = new QdrantVectorStore(options);
    assert.equal(await vectors.ready(), false);
    await assert.rejects(vectors.ensureCollection('facts', { model: 'm', dimension: 3 }), storeUnavailable('QDRANT_URL'));
    await assert.rejects(new QdrantLexicalIndex(options).index('t1', [{ id: 'a', text: 'hello', layer: 'fact' }]), /QDRANT_URL/);
    await assert.rejects(new QdrantVoiceprintStore(options).list('t1'), /QDRANT_URL/);
  });
});
