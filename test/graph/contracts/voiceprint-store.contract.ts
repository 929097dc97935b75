import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { VoiceprintStore } from '../../../graph/voiceprint-store.js';
import { contractSuite } from './contract-suite.js';

/**
 * The behaviour every VoiceprintStore must have. Call from an implementation's test file with a
 * factory that returns a fresh, empty store (and a cleanup).
 */
export function voiceprintStoreContract(
  name: string,
  factory: () => Promise<{ store: VoiceprintStore; cleanup: () => Promise<void> }>,
  skip?: string,
): void {
  contractSuite(`VoiceprintStore contract: ${name}`, skip, () => {
    const vec = (...xs: number[]): Float32Array => Float32Array.from(xs);

    test('upsert then get and list round-trip the vector exactly', async () => {
      const { store, cleanup } = await factory();
      try {
        const v = vec(0.6, -0.8, 0.1234567);
        const saved = await store.upsert('t1', { participantId: 'p_a', modelId: 'm1', vector: v, updateCount: 1 });
        assert.match(saved.id, /^vp_/);
        const got = await store.get('t1', saved.id);
        assert.deepEqual(Array.from(got!.vector), Array.from(v));
        assert.equal(got!.participantId, 'p_a');
        assert.equal(got!.modelId, 'm1');
        assert.equal(got!.updateCount, 1);
        assert.ok(!Number.isNaN(Date.parse(got!.createdAt)));
        assert.equal((await store.list('t1')).length, 1);
      } finally {
        await cleanup();
      }
    });

    test('upsert with an existing id replaces vector and count', async () => {
      const { store, cleanup } = await factory();
      try {
        const a = await store.upsert('t1', { participantId: 'p_a', modelId: 'm1', vector: vec(1, 0), updateCount: 1 });
        await store.upsert('t1', { id: a.id, participantId: 'p_a', modelId: 'm1', vector: vec(0, 1), updateCount: 5 });
        const all = await store.list('t1');
        assert.equal(all.length, 1);
        assert.deepEqual(Array.from(all[0]!.vector), [0, 1]);
        assert.equal(all[0]!.updateCount, 5);
      } finally {
        await cleanup();
      }
    });

    test('tenants are isolated and list filters by model', async () => {
      const { store, cleanup } = await factory();
      try {
        const a = await store.upsert('t1', { participantId: 'p_a', modelId: 'm1', vector: vec(1, 0), updateCount: 1 });
        await store.upsert('t1', { participantId: 'p_b', modelId: 'm2', vector: vec(0, 1), updateCount: 1 });
        await store.upsert('t2', { participantId: 'p_c', modelId: 'm1', vector: vec(1, 1), updateCount: 1 });
        assert.equal(await store.get('t2', a.id), null);
        assert.equal(await store.delete('t2', a.id), false);
        assert.deepEqual((await store.list('t1', 'm1')).map((p) => p.participantId), ['p_a']);
        assert.deepEqual((await store.list('t2')).map((p) => p.participantId), ['p_c']);
        assert.equal(await store.deleteByParticipant('t2', 'p_a'), 0);
        assert.equal((await store.list('t1')).length, 2);
      } finally {
        await cleanup();
      }
    });

    test('delete, deleteByParticipant, reassign and countByParticipant', async () => {
      const { store, cleanup } = await factory();
      try {
        const a1 = await store.upsert('t1', { participantId: 'p_a', modelId: 'm1', vector: vec(1, 0), updateCount: 1 });
        await store.upsert('t1', { participantId: 'p_a', modelId: 'm2', vector: vec(1, 0), updateCount: 1 });
        await store.upsert('t1', { participantId: 'p_b', modelId: 'm1', vector: vec(0, 1), updateCount: 1 });
        assert.equal(await store.countByParticipant('t1', 'p_a'), 2);
        assert.equal(await store.reassign('t1', 'p_b', 'p_a'), 1);
        assert.equal(await store.countByParticipant('t1', 'p_a'), 3);
        assert.equal(await store.countByParticipant('t1', 'p_b'), 0);
        assert.equal(await store.delete('t1', a1.id), true);
        assert.equal(await store.get('t1', a1.id), null);
        assert.equal(await store.deleteByParticipant('t1', 'p_a'), 2);
        assert.deepEqual(await store.list('t1'), []);
      } finally {
        await cleanup();
      }
    });
  });
}
