import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParleyError } from '../../graph/core/errors.js';
import { firstPrint, fusedThresholds, fusedVector, JointSpeakerEmbedder, mapScenarios, withMergePrints } from '../../bench/lib/speaker-fusion.js';
import { cosine, l2Normalise, type SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { ECAPA_THRESHOLDS } from '../../pipelines/speaker/speaker-thresholds.js';

/** A deterministic embedder of the audio's first samples (a test double: no model needed to check the arithmetic). */
const fake = (modelId: string, dimension: number, refuseBelow = 0): SpeakerEmbedder => ({
  modelId, dimension,
  embed: async (audio) => {
    if (audio.length < refuseBelow) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'too short');
    return l2Normalise(Float32Array.from({ length: dimension }, (_, i) => (audio[i % audio.length]! + 0.1 * (i + 1)) * (modelId === 'b' ? -1 : 1) ** i));
  },
});
const audio = (...xs: number[]): Float32Array => Float32Array.from(xs);

test('fused print: its cosine is the weighted sum of the two embedders\' cosines, and it has unit length', async () => {
  const j = new JointSpeakerEmbedder(fake('a', 3), fake('b', 4));
  assert.equal(j.dimension, 7);
  assert.equal(j.modelId, 'a+b');
  const [x, y] = [await j.embed(audio(0.9, -0.3, 0.2, 0.5)), await j.embed(audio(-0.2, 0.8, 0.4, -0.6))];
  const ca = cosine(firstPrint(x, 3), firstPrint(y, 3));
  const cb = cosine(x.slice(3), y.slice(3));
  assert.ok(Math.abs(ca - cb) > 0.05, 'the two embedders disagree on this pair');
  for (const w of [0, 0.3, 0.5, 0.7, 1]) {
    const [fx, fy] = [fusedVector(x, 3, w), fusedVector(y, 3, w)];
    assert.ok(Math.abs(Math.hypot(...fx) - 1) < 1e-6);
    assert.ok(Math.abs(cosine(fx, fy) - (w * ca + (1 - w) * cb)) < 1e-6, `w ${w}`);
  }
  assert.throws(() => fusedVector(x, 3, 1.2), /fusion weight/);
});

test('joint embedder: refuses a piece either embedder refuses, and times each', async () => {
  const j = new JointSpeakerEmbedder(fake('a', 3), fake('b', 4, 3));
  await assert.rejects(j.embed(audio(0.1, 0.2)), (e: unknown) => e instanceof ParleyError && e.code === 'PARLEY_ERR_BAD_AUDIO');
  await j.embed(audio(0.1, 0.2, 0.3, 0.4));
  assert.equal(j.costs[0].seconds, 6 / 16_000);
  assert.equal(j.costs[1].seconds, 6 / 16_000);
});

test('fused thresholds are the weighted sum; mapped scenarios keep their sessions', () => {
  const t = fusedThresholds(ECAPA_THRESHOLDS, { ...ECAPA_THRESHOLDS, tauMatch: 0.95, mergeTau: 0.95 }, 0.5);
  assert.equal(t.tauMatch, 0.65);
  assert.equal(t.mergeTau, 0.75);
  const v = Float32Array.from([1, 0, 0, 1]);
  const scen = [{ name: 's', runs: [[[{ speaker: 'a', vector: v, seconds: 1 }, { speaker: 'b', vector: v, seconds: 2 }]]] }];
  const m = mapScenarios(scen, (x) => firstPrint(x, 2));
  assert.deepEqual(m[0]!.runs[0]![0]!.map((u) => [u.speaker, u.seconds, [...u.vector]]), [['a', 1, [1, 0]], ['b', 2, [1, 0]]]);
  assert.equal(m[0]!.runs[0]![0]![0]!.vector, m[0]!.runs[0]![0]![1]!.vector, 'one mapped vector per original');
});

test('merge prints: the tracker sees the first print, the kind merge the fused one, same sessions', () => {
  const j = Float32Array.from([0.6, 0.8, 1, 0]);
  const scen = [{ name: 's', runs: [[[{ speaker: 'a', vector: j, seconds: 2 }], [{ speaker: 'b', vector: j, seconds: 3 }]]] }];
  const out = withMergePrints(scen, 2, 0.5);
  assert.equal(out[0]!.name, 's');
  const u = out[0]!.runs[0]![1]![0]!;
  assert.deepEqual([u.speaker, u.seconds, [...u.vector]], ['b', 3, [...firstPrint(j, 2)]]);
  assert.deepEqual([...u.mergeVector!], [...fusedVector(j, 2, 0.5)]);
});
