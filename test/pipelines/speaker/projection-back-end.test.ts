import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadMoonshineL1Params } from '../../../pipelines/speaker/moonshine-l1-speaker-embedder.js';
import { repoRoot } from '../../../pipelines/models/repo-root.js';
import { fitBackEnd, type ProjectedSample, type ProjectionBackEnd } from '../../../pipelines/speaker/projection-back-end.js';
import { loadStatsLdaParams, type StatsLdaParams } from '../../../pipelines/speaker/stats-lda-params.js';
import { StatsLdaSpeakerEmbedder } from '../../../pipelines/speaker/stats-lda-speaker-embedder.js';

/** Two raw features, standardised by mean (1, 2) and std (2, 1), projected by the identity. */
const TINY: StatsLdaParams = {
  modelId: 'tiny', featureNames: ['a', 'b'], mean: [1, 2], std: [2, 1], projection: [[1, 0], [0, 1]], eigenvalues: [1, 1],
  training: { speakers: [], heldOut: [], utterances: 0, segments: 0, createdAt: '' },
};

function close(actual: ArrayLike<number>, expected: number[], tol = 1e-6): void {
  assert.equal(actual.length, expected.length);
  for (const [i, e] of expected.entries()) assert.ok(Math.abs(actual[i]! - e) < tol, `[${i}] ${actual[i]} ≠ ${e}`);
}

/** Covariance of `ys` about `about` (each speaker's mean when null), speakers weighted equally. */
function covariance(samples: ProjectedSample[], about: number[] | null): number[][] {
  const labels = [...new Set(samples.map((s) => s.label))];
  const n = samples[0]!.y.length;
  const c = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const l of labels) {
    const ys = samples.filter((s) => s.label === l).map((s) => s.y);
    const m = about ?? Array.from({ length: n }, (_, i) => ys.reduce((a, y) => a + y[i]!, 0) / ys.length);
    for (const y of ys) for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) c[i]![j]! += ((y[i]! - m[i]!) * (y[j]! - m[j]!)) / (ys.length * labels.length);
  }
  return c;
}

/** Three speakers in 2-D, each with four samples spread unevenly in the two directions. */
const SAMPLES: ProjectedSample[] = [[5, 1], [-3, 2], [0, 7]].flatMap(([cx, cy], k) =>
  [[1, 0.2], [-1, -0.2], [0.5, -0.6], [-0.5, 0.6]].map(([dx, dy]) => ({ label: k === 2 ? 'libri-9' : `tts-${k}`, y: [cx! + 3 * dx!, cy! + dy!] })));

describe('projection back end', () => {
  test('the embedder subtracts the stored centre and applies the whitening before normalising', () => {
    const backEnd: ProjectionBackEnd = { kind: 'wccn', centre: [0.5, 0], whiten: [[2, 0], [0, 1]] };
    // raw (4, 3) → z (1.5, 1) → minus centre (1, 1) → whitened (2, 1) → unit length.
    close(new StatsLdaSpeakerEmbedder({ ...TINY, backEnd }).project(Float64Array.of(4, 3)), [2 / Math.sqrt(5), 1 / Math.sqrt(5)]);
    close(new StatsLdaSpeakerEmbedder(TINY).project(Float64Array.of(4, 3)), [1.5 / Math.sqrt(3.25), 1 / Math.sqrt(3.25)]);
    close(new StatsLdaSpeakerEmbedder({ ...TINY, backEnd }).projectOnly(Float64Array.of(4, 3)), [1.5, 1]);
  });

  test('a back end that does not fit the projection is refused when the embedder is built', () => {
    assert.throws(() => new StatsLdaSpeakerEmbedder({ ...TINY, backEnd: { kind: 'wccn', centre: [0, 0, 0], whiten: [[1, 0], [0, 1]] } }), /centre of 2/);
    assert.throws(() => new StatsLdaSpeakerEmbedder({ ...TINY, backEnd: { kind: 'wccn', centre: [0, 0], whiten: [[1, 0]] } }), /whitening rows/);
    assert.throws(() => new StatsLdaSpeakerEmbedder({ ...TINY, backEnd: { kind: 'pca' as 'wccn', centre: [0, 0], whiten: [[1, 0], [0, 1]] } }), /kind/);
  });

  test('parameter files written before back ends load and embed with the raw projection', () => {
    const shipped = loadStatsLdaParams();
    assert.equal(shipped.backEnd, undefined);
    const e = new StatsLdaSpeakerEmbedder(shipped);
    const raw = Float64Array.from(shipped.mean, (m, i) => m + shipped.std[i]! * Math.sin(i + 1));
    const y = e.projectOnly(raw);
    const norm = Math.hypot(...y);
    close(e.project(raw), Array.from(y, (v) => v / norm));
    const v1 = path.join(repoRoot(), 'bench', 'lib', 'params', 'moonshine-l1-v1', 'moonshine-l1-v1.json');
    assert.ok(existsSync(v1), 'the previous moonshine-l1 projection is kept for comparison');
    const old = loadMoonshineL1Params(v1, 'moonshine-l1-v1');
    assert.equal(old.backEnd, undefined);
    assert.equal(new StatsLdaSpeakerEmbedder(old).dimension, 13);
  });

  test('wccn whitens the within-speaker covariance, whitened the total one, about the centre of the population', () => {
    const apply = (b: ProjectionBackEnd): ProjectedSample[] => SAMPLES.map((s) => ({ label: s.label,
      y: b.whiten.map((row) => row.reduce((a, w, i) => a + w * (s.y[i]! - b.centre[i]!), 0)) }));
    const identity = [[1, 0], [0, 1]];
    const wccn = fitBackEnd(SAMPLES, 'wccn');
    close(wccn.centre, [2 / 3, 10 / 3]);
    covariance(apply(wccn), null).forEach((row, i) => close(row, identity[i]!));
    const whitened = fitBackEnd(SAMPLES, 'whitened');
    covariance(apply(whitened), [0, 0]).forEach((row, i) => close(row, identity[i]!));
    const real = fitBackEnd(SAMPLES, 'centred', { name: 'real', has: (l) => l.startsWith('libri-') });
    assert.equal(real.centredOn, 'real');
    close(real.centre, [0, 7]);
    assert.deepEqual(real.whiten, identity);
    assert.throws(() => fitBackEnd(SAMPLES, 'centred', { name: 'none', has: () => false }), /no speaker/);
  });
});
