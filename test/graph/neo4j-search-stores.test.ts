import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Driver } from 'neo4j-driver';
import { Neo4jLexicalIndex } from '../../graph/neo4j/neo4j-lexical-index.js';
import { EXACT_MAX, Neo4jVectorStore } from '../../graph/neo4j/neo4j-vector-store.js';
import { Neo4jVoiceprintStore } from '../../graph/neo4j/neo4j-voiceprint-store.js';
import { assertFloodKeepsScores, lexicalIndexContract } from './contracts/lexical-index.contract.js';
import { vectorStoreContract } from './contracts/vector-store.contract.js';
import { voiceprintStoreContract } from './contracts/voiceprint-store.contract.js';
import { closedPort, NEO4J_SKIP, neo4jTestOptions, storeUnavailable } from '../helpers/stores.js';

// Each fixture gets its own tenant prefix (and so its own collection names); clean-up erases it.

vectorStoreContract('neo4j vector index', async () => {
  const store = new Neo4jVectorStore(neo4jTestOptions('test-vec'));
  return { store, cleanup: async () => { await store.dropAll(); await store.eraseAll(); await store.close(); } };
}, NEO4J_SKIP);

lexicalIndexContract('neo4j full-text', async () => {
  const index = new Neo4jLexicalIndex(neo4jTestOptions('test-lex'));
  return { index, cleanup: async () => { await index.eraseAll(); await index.close(); } };
}, NEO4J_SKIP);

voiceprintStoreContract('neo4j', async () => {
  const store = new Neo4jVoiceprintStore(neo4jTestOptions('test-vp'));
  return { store, cleanup: async () => { await store.eraseAll(); await store.close(); } };
}, NEO4J_SKIP);

/** A seeded generator, so a failing run can be repeated. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = s;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const cosine = (a: Float32Array, b: Float32Array): number => {
  let dot = 0; let na = 0; let nb = 0;
  for (let i = 0; i < a.length; i++) { dot += a[i]! * b[i]!; na += a[i]! * a[i]!; nb += b[i]! * b[i]!; }
  return dot / Math.sqrt(na * nb);
};

describe('Neo4j vector search with filters above the exact-scan size', { skip: NEO4J_SKIP }, () => {
  const store = new Neo4jVectorStore(neo4jTestOptions('test-vec-ann'));
  const dim = 8;
  const random = rng(11);
  const query = Float32Array.from({ length: dim }, (_, i) => (i === 0 ? 1 : 0));
  const vec = (first: number) => Float32Array.from({ length: dim }, (_, j) => (j === 0 ? first : random() * 2 - 1));
  // Tenant t1: 1500 "near" points (close to the query, layer fact) and EXACT_MAX + 300 "mixed" points
  // (anywhere, layer interaction or persona at random, speaker p_far). A layer filter on the near
  // points' opposite finds none among the index's first neighbours, so the search must grow its
  // fetch. Tenant t2 holds a few points nearer still, which t1 must never see.
  const points = [
    ...Array.from({ length: 1500 }, (_, i) => ({ id: `near${i}`, layer: 'fact', v: vec(5) })),
    ...Array.from({ length: EXACT_MAX + 300 }, (_, i) => ({ id: `mixed${i}`, layer: random() < 0.5 ? 'interaction' : 'persona', v: vec(random() * 2 - 1) })),
  ];
  const truth = (keep: (p: (typeof points)[number]) => boolean, k: number) => points.filter(keep)
    .map((p) => ({ id: p.id, s: cosine(p.v, query) })).sort((a, b) => b.s - a.s).slice(0, k).map((p) => p.id);

  before(async () => {
    await store.ensureCollection('c', { model: 'rand', dimension: dim });
    // Addressees: every near point is addressed to p_near; of the mixed points, the first 40 to p_few
    // (few matching, none near) and all of them to p_far (more than the exact-scan size, none near).
    await store.upsert('t1', 'c', points.map((p, i) => ({ id: p.id, vector: p.v, payload: {
      layer: p.layer, speakerId: p.layer === 'fact' ? 'p_near' : 'p_far',
      addresseeIds: p.layer === 'fact' ? ['p_near'] : i < 1540 ? ['p_few', 'p_far'] : ['p_far'],
    } })));
    await store.upsert('t2', 'c', [0, 1, 2].map((i) => ({ id: `t2_${i}`, vector: query, payload: { layer: 'interaction', speakerId: 'p_far' } })));
  });
  after(async () => {
    await store.dropAll();
    await store.eraseAll();
    await store.close();
  });

  test('a filter that passes none of the first neighbours still returns k hits, all passing it, best first', async () => {
    const k = 10;
    const hits = await store.search('t1', 'c', query, k, { speakerId: 'p_far' });
    assert.equal(hits.length, k);
    for (const h of hits) assert.equal(h.payload.speakerId, 'p_far');
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score);
    const byId = new Map(points.map((p) => [p.id, p]));
    for (const h of hits) assert.ok(Math.abs(h.score - cosine(byId.get(h.id)!.v, query)) < 1e-4, 'scores are cosine in [-1, 1]');
  });

  test('an addressee filter with many non-matching near neighbours returns a full k, best first', async () => {
    const k = 10;
    const byId = new Map(points.map((p, i) => [p.id, i]));
    for (const [addressee, matching] of [['p_few', 40], ['p_far', EXACT_MAX + 300]] as const) {
      const hits = await store.search('t1', 'c', query, k, { addresseeId: addressee });
      assert.equal(hits.length, k, `${addressee}: ${matching} points match, a full k comes back`);
      for (const h of hits) assert.ok(h.payload.addresseeIds?.includes(addressee), `${h.id} is addressed to ${addressee}`);
      if (addressee === 'p_few') {
        // Below the exact-scan size the answer is the exact top k of the matching points.
        assert.deepEqual(hits.map((h) => h.id), truth((p) => p.layer !== 'fact' && byId.get(p.id)! < 1540, k));
      }
    }
  });

  test('with a filter uncorrelated with distance the approximate answer is close to the exact one', async () => {
    const k = 10;
    const hits = await store.search('t1', 'c', Float32Array.from({ length: dim }, (_, i) => (i === 1 ? 1 : 0)), k, { layer: ['interaction', 'persona'] });
    const q1 = Float32Array.from({ length: dim }, (_, i) => (i === 1 ? 1 : 0));
    const exact = points.filter((p) => p.layer !== 'fact').map((p) => ({ id: p.id, s: cosine(p.v, q1) })).sort((a, b) => b.s - a.s).slice(0, k).map((p) => p.id);
    const overlap = hits.filter((h) => exact.includes(h.id)).length;
    assert.equal(hits.length, k);
    assert.ok(overlap >= 8, `approximate search found ${overlap} of the exact top ${k}`);
  });

  test('below the exact-scan size the answer is exact', async () => {
    const hits = await store.search('t1', 'c', query, 5, { layer: 'persona' });
    assert.deepEqual(hits.map((h) => h.id), truth((p) => p.layer === 'persona', 5));
  });

  test('unfiltered search of the big tenant does not return the other tenant\'s nearer points', async () => {
    const hits = await store.search('t1', 'c', query, 5);
    assert.equal(hits.length, 5);
    for (const h of hits) assert.match(h.id, /^near/);
    assert.deepEqual((await store.search('t2', 'c', query, 5)).map((h) => h.id).sort(), ['t2_0', 't2_1', 't2_2']);
  });
});

describe('Neo4j vector collections under concurrency', { skip: NEO4J_SKIP }, () => {
  test('several stores binding one collection at once create one binding and one index', async () => {
    const options = neo4jTestOptions('test-vec-race');
    const stores = Array.from({ length: 4 }, () => new Neo4jVectorStore(options));
    try {
      await Promise.all(stores.map((s) => s.ensureCollection('c', { model: 'm', dimension: 4 })));
      await Promise.all(stores.map((s, i) => s.upsert('t1', 'c', [{ id: `p${i}`, vector: Float32Array.from([1, i, 0, 0]), payload: { layer: 'fact' } }])));
      assert.equal(await stores[0]!.count('t1', 'c'), 4);
      assert.equal((await stores[3]!.search('t1', 'c', Float32Array.from([1, 0, 0, 0]), 1))[0]!.id, 'p0');
      await assert.rejects(stores[1]!.ensureCollection('c', { model: 'other', dimension: 4 }), /re-embed/);
    } finally {
      await stores[0]!.dropAll();
      await stores[0]!.eraseAll();
      await Promise.all(stores.map((s) => s.close()));
    }
  });
});

describe('Neo4j vector collections re-embedded by another process', { skip: NEO4J_SKIP }, () => {
  test('a store with a stale cached binding writes under the current one', async () => {
    const options = neo4jTestOptions('test-vec-stale');
    const one = new Neo4jVectorStore(options);
    const two = new Neo4jVectorStore(options);
    try {
      await one.ensureCollection('c', { model: 'm1', dimension: 2 });
      assert.deepEqual(await two.collectionSpace('c'), { model: 'm1', dimension: 2 }, 'two caches the binding');
      // Re-embedded elsewhere with another model of the same dimension, then of another dimension.
      await one.dropCollection('c');
      await one.ensureCollection('c', { model: 'm2', dimension: 2 });
      await two.upsert('t1', 'c', [{ id: 'a', vector: Float32Array.from([1, 0]), payload: { layer: 'fact' } }]);
      // The point must carry the current binding's label, or the current vector index never sees it.
      const driver = (one as unknown as { driver: Driver }).driver;
      const underCurrentLabel = async (id: string) => (await driver.executeQuery(`
        MATCH (c:VectorCollection {name: $name}) MATCH (n:VectorPoint {collection: $name, id: $id}) RETURN c.label IN labels(n) AS ok`,
      { name: `${options.tenantPrefix}c`, id }, { database: options.database })).records[0]?.get('ok');
      assert.equal(await underCurrentLabel('a'), true);
      assert.deepEqual((await one.search('t1', 'c', Float32Array.from([1, 0]), 5)).map((h) => h.id), ['a']);
      await one.dropCollection('c');
      await one.ensureCollection('c', { model: 'm3', dimension: 3 });
      await two.upsert('t1', 'c', [{ id: 'b', vector: Float32Array.from([0, 1, 0]), payload: { layer: 'fact' } }]);
      assert.equal(await underCurrentLabel('b'), true);
      assert.deepEqual((await one.search('t1', 'c', Float32Array.from([0, 1, 0]), 5)).map((h) => h.id), ['b']);
      await one.dropCollection('c');
      await assert.rejects(two.upsert('t1', 'c', [{ id: 'c', vector: Float32Array.from([0, 1, 0]), payload: { layer: 'fact' } }]), /ensureCollection/);
    } finally {
      await one.dropAll();
      await one.eraseAll();
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe('Neo4j keyword ranking per tenant', { skip: NEO4J_SKIP }, () => {
  test("one tenant's documents never change another tenant's scores", async () => {
    const index = new Neo4jLexicalIndex(neo4jTestOptions('test-lex-stats'));
    try {
      // Tenant A floods the same words (and many documents): with index-wide statistics this would
      // lower their idf for B and reorder B's results.
      await assertFloodKeepsScores(index);
    } finally {
      await index.eraseAll();
      await index.close();
    }
  });
});

describe('Neo4j search stores outage', () => {
  test('an unreachable server fails with a retryable error naming NEO4J_URI', async () => {
    const port = await closedPort();
    const options = { uri: `bolt://127.0.0.1:${port}`, user: 'neo4j', password: 'x', maxRetryMs: 300, readyTimeoutMs: 1000 };
    const vectors = new Neo4jVectorStore(options);
    const lexical = new Neo4jLexicalIndex(options);
    const prints = new Neo4jVoiceprintStore(options);
    try {
      assert.equal(await vectors.ready(), false);
      await assert.rejects(vectors.ensureCollection('facts', { model: 'm', dimension: 3 }), storeUnavailable('NEO4J_URI'));
      await assert.rejects(lexical.index('t1', [{ id: 'a', text: 'hello', layer: 'fact' }]), storeUnavailable('NEO4J_URI'));
      await assert.rejects(prints.list('t1'), storeUnavailable('NEO4J_URI'));
    } finally {
      await Promise.all([vectors.close(), lexical.close(), prints.close()]);
    }
  });
});
