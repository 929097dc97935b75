import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { identifyAsker, identifyAskerFromAudio } from '../../../pipelines/speaker/identify-asker.js';
import type { SpeakerEmbedder } from '../../../pipelines/speaker/speaker-embedder.js';
import { ECAPA_THRESHOLDS } from '../../../pipelines/speaker/speaker-thresholds.js';
import { SpeakerTracker } from '../../../pipelines/speaker/speaker-tracker.js';
import { MemoryVoiceprintStore } from '../../doubles/memory-voiceprint-store.js';

/** Unit vector whose cosine to e0 is `c`, lying in the (e0, e_k) plane. */
const withCos = (c: number, k = 1): Float32Array => {
  const v = new Float32Array(4);
  v[0] = c;
  v[k] = Math.sqrt(1 - c * c);
  return v;
};
const e0 = Float32Array.from([1, 0, 0, 0]);

describe('identifyAsker (ECAPA defaults 0.40 / 0.02 / 0.35)', () => {
  test('a prototype\'s cosineOffset (the band rule) ranks and bars the low threshold; the high bar reads the plain cosine', () => {
    const one = (c: number, cosineOffset: number) => identifyAsker(withCos(c), [{ participantId: 'p', vector: e0, cosineOffset }], ECAPA_THRESHOLDS);
    assert.equal(one(0.45, 0).confidence, 'high');
    // A phone voice against its own voiceprint stays reachable as high: an offset never lifts the high bar past 1.
    assert.equal(one(0.45, 0.08).confidence, 'high');
    assert.ok(Math.abs(one(0.45, 0.08).score - 0.45) < 1e-6, 'the reported score is the plain cosine');
    assert.equal(one(0.38, 0).confidence, 'low');
    assert.deepEqual([one(0.38, 0.05).participantId, one(0.38, 0.05).confidence], [null, 'unresolved']);
    assert.deepEqual([one(0.45, 0.2).participantId, one(0.45, 0.2).confidence], [null, 'unresolved']);
  });
  test('offsets decide which participant ranks first', () => {
    const r = identifyAsker(withCos(0.5), [
      { participantId: 'phone-print', vector: e0, cosineOffset: 0.1 },
      { participantId: 'wide-print', vector: withCos(0.999, 3), cosineOffset: 0 },
    ], ECAPA_THRESHOLDS);
    assert.equal(r.participantId, 'wide-print');
  });

  const protos = [{ participantId: 'ana', vector: e0 }, { participantId: 'ben', vector: Float32Array.from([0, 0, 1, 0]) }];
  test('high at cosine ≥ 0.40 with margin ≥ 0.02', () => {
    const r = identifyAsker(withCos(0.45), protos, ECAPA_THRESHOLDS);
    assert.deepEqual([r.participantId, r.confidence], ['ana', 'high']);
  });
  test('low when the margin is too small, or between 0.35 and 0.40', () => {
    const close = [...protos, { participantId: 'cy', vector: withCos(0.999, 3) }];
    assert.equal(identifyAsker(withCos(0.45), close, ECAPA_THRESHOLDS).confidence, 'low');
    const r = identifyAsker(withCos(0.37), protos, ECAPA_THRESHOLDS);
    assert.deepEqual([r.participantId, r.confidence], ['ana', 'low']);
  });
  test('unresolved below 0.35 or with no prototypes', () => {
    assert.deepEqual(identifyAsker(withCos(0.3), protos, ECAPA_THRESHOLDS).participantId, null);
    assert.equal(identifyAsker(e0, [], ECAPA_THRESHOLDS).confidence, 'unresolved');
  });
  test('several prints of one participant count as one (no self-margin)', () => {
    const r = identifyAsker(withCos(0.5), [{ participantId: 'ana', vector: e0 }, { participantId: 'ana', vector: withCos(0.99, 2) }], ECAPA_THRESHOLDS);
    assert.equal(r.confidence, 'high');
  });
  test('query audio never updates prototypes or the store', async () => {
    const store = new MemoryVoiceprintStore();
    const tr = await SpeakerTracker.open({ tenant: 't', modelId: 'test-double', thresholds: ECAPA_THRESHOLDS, storeVoiceprints: true, store, createParticipant: async () => 'ana' });
    await tr.assign(e0);
    const before = JSON.stringify(await store.list('t'), (_, v: unknown) => (v instanceof Float32Array ? Array.from(v) : v));
    // Test double for an embedder: returns a fixed vector (the real ones are tested in their own files).
    const fake: SpeakerEmbedder = { modelId: 'test-double', dimension: 4, embed: async () => withCos(0.9) };
    const stored = await store.list('t');
    const r = await identifyAskerFromAudio(fake, new Float32Array(16000), stored, ECAPA_THRESHOLDS);
    assert.equal(r.participantId, 'ana');
    const after = JSON.stringify(await store.list('t'), (_, v: unknown) => (v instanceof Float32Array ? Array.from(v) : v));
    assert.equal(after, before);
    assert.deepEqual(Array.from(tr.prototypes()[0]!.vector), Array.from(e0));
  });
});
