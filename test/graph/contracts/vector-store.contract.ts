import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { VectorStore } from '../../../graph/vector-store.js';
import { contractSuite } from './contract-suite.js';

export interface VectorStoreFixture {
  store: VectorStore;
  cleanup(): Promise<void>;
}

const SPACE = { model: 'test-3d', dimension: 3 };
const v = (...xs: number[]): Float32Array => Float32Array.from(xs);

/** The behaviour every VectorStore implementation must show. */
export function vectorStoreContract(name: string, factory: () => Promise<VectorStoreFixture>, skip?: string): void {
  contractSuite(`VectorStore contract: ${name}`, skip, () => {
    let fx: VectorStoreFixture;
    beforeEach(async () => {
      fx = await factory();
      await fx.store.ensureCollection('facts', SPACE);
      await fx.store.upsert('t1', 'facts', [
        { id: 'a', vector: v(1, 0, 0), payload: { layer: 'fact', speakerId: 'p1', addresseeIds: ['p2'], sessionId: 's1' } },
        { id: 'b', vector: v(0.9, 0.1, 0), payload: { layer: 'fact', speakerId: 'p2', addresseeIds: ['p1'], sessionId: 's1' } },
        { id: 'c', vector: v(0, 1, 0), payload: { layer: 'interaction', speakerId: 'p1', sessionId: 's2' } },
        { id: 'd', vector: v(-1, 0, 0), payload: { layer: 'fact', speakerId: 'p3', sessionId: 's2' } },
      ]);
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test('search ranks by cosine, best first', async () => {
      const hits = await fx.store.search('t1', 'facts', v(2, 0, 0), 3);
      assert.deepEqual(hits.map((h) => h.id), ['a', 'b', 'c']);
      assert.ok(Math.abs(hits[0]!.score - 1) < 1e-5);
      assert.equal(hits[0]!.payload.speakerId, 'p1');
    });

    test('payload filters and candidate pools restrict the search', async () => {
      const q = v(1, 0, 0);
      assert.deepEqual((await fx.store.search('t1', 'facts', q, 5, { speakerId: 'p1' })).map((h) => h.id), ['a', 'c']);
      assert.deepEqual((await fx.store.search('t1', 'facts', q, 5, { addresseeId: 'p1' })).map((h) => h.id), ['b']);
      assert.deepEqual((await fx.store.search('t1', 'facts', q, 5, { layer: 'interaction' })).map((h) => h.id), ['c']);
      assert.deepEqual((await fx.store.search('t1', 'facts', q, 5, { sessionId: 's2' })).map((h) => h.id), ['c', 'd']);
      assert.deepEqual((await fx.store.search('t1', 'facts', q, 5, { ids: ['d', 'c', 'zz'] })).map((h) => h.id), ['c', 'd']);
      assert.deepEqual(await fx.store.search('t1', 'facts', q, 5, { ids: [] }), []);
    });

    test('upsert replaces, delete is idempotent, tenants are separate', async () => {
      await fx.store.upsert('t1', 'facts', [{ id: 'd', vector: v(1, 0, 0), payload: { layer: 'fact' } }]);
      assert.equal((await fx.store.search('t1', 'facts', v(1, 0, 0), 1, { ids: ['d'] }))[0]!.score > 0.99, true);
      await fx.store.delete('t1', 'facts', ['d', 'missing']);
      await fx.store.delete('t1', 'facts', ['d']);
      assert.equal(await fx.store.count('t1', 'facts'), 3);
      assert.deepEqual(await fx.store.search('t2', 'facts', v(1, 0, 0), 5), []);
      assert.equal(await fx.store.count('t2', 'facts'), 0);
    });

    test('get returns the stored vectors and payloads of the ids asked, of that tenant only', async () => {
      const got = await fx.store.get('t1', 'facts', ['c', 'a', 'missing']);
      assert.deepEqual(got.map((p) => p.id).sort(), ['a', 'c']);
      const a = got.find((p) => p.id === 'a')!;
      assert.ok(a.vector instanceof Float32Array);
      assert.deepEqual(Array.from(a.vector), [1, 0, 0]);
      assert.equal(a.payload.speakerId, 'p1');
      assert.deepEqual(a.payload.addresseeIds, ['p2']);
      assert.deepEqual(Array.from(got.find((p) => p.id === 'c')!.vector), [0, 1, 0]);
      await fx.store.upsert('t1', 'facts', [{ id: 'a', vector: v(0, 0, 1), payload: { layer: 'fact', textHash: 'h2' } }]);
      const [replaced] = await fx.store.get('t1', 'facts', ['a']);
      assert.deepEqual(Array.from(replaced!.vector), [0, 0, 1]);
      assert.equal(replaced!.payload.textHash, 'h2', 'extra payload fields come back as stored');
      assert.deepEqual(await fx.store.get('t2', 'facts', ['a', 'b']), []);
      assert.deepEqual(await fx.store.get('t1', 'facts', []), []);
      assert.deepEqual(await fx.store.get('t1', 'no-such-collection', ['a']), []);
    });

    test('a collection keeps one embedding space', async () => {
      await fx.store.ensureCollection('facts', SPACE);
      await assert.rejects(fx.store.ensureCollection('facts', { model: 'other', dimension: 3 }), /PARLEY_ERR_EMBEDDING_MISMATCH|re-embed/);
      await assert.rejects(fx.store.upsert('t1', 'facts', [{ id: 'x', vector: v(1, 0), payload: { layer: 'fact' } }]));
      assert.deepEqual(await fx.store.collectionSpace('facts'), SPACE);
      await fx.store.dropCollection('facts');
      assert.equal(await fx.store.collectionSpace('facts'), null);
      await fx.store.ensureCollection('facts', { model: 'other', dimension: 2 });
      assert.equal(await fx.store.count('t1', 'facts'), 0);
    });
  });
}
