import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../../bench/lib/seeded-random.js';
import { equalErrorRate, errorRates, P_TARGET, sortTrials } from '../../../pipelines/speaker/eval-metrics.js';

/**
 * The threshold sweep written out the slow way: every score (and +Infinity) tried as "accept at least this",
 * each class's error summed trial by trial. The lowest threshold whose rates differ least gives the EER.
 */
function bruteForce(same: number[], diff: number[], wSame: number[], wDiff: number[]): { eer: number; threshold: number; minDcf: number } {
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const totalSame = sum(wSame);
  const totalDiff = sum(wDiff);
  let best = { eer: 1, threshold: 0, gap: Infinity };
  let minDcf = Infinity;
  for (const t of [...same, ...diff, Infinity].sort((a, b) => a - b)) {
    const frr = sum(same.map((s, i) => (s < t ? wSame[i]! : 0))) / totalSame;
    const far = sum(diff.map((d, i) => (d >= t ? wDiff[i]! : 0))) / totalDiff;
    const gap = Math.abs(frr - far);
    if (gap < best.gap) best = { eer: (frr + far) / 2, threshold: t, gap };
    minDcf = Math.min(minDcf, (P_TARGET * frr + (1 - P_TARGET) * far) / Math.min(P_TARGET, 1 - P_TARGET));
  }
  return { eer: best.eer, threshold: best.threshold, minDcf };
}

/** `n` scores, drawn from `levels` distinct values when given (ties), else continuous; shifted by `shift`. */
function draw(next: () => number, n: number, shift: number, levels: number | null): number[] {
  return Array.from({ length: n }, () => (levels === null ? next() : Math.floor(next() * levels) / levels) + shift);
}

test('errorRates matches the brute-force sweep on random trials, with ties and with whole-number weights', () => {
  const next = seededRandom(11);
  for (let round = 0; round < 300; round++) {
    const levels = round % 3 === 0 ? null : 2 + Math.floor(next() * 8);
    const same = draw(next, 1 + Math.floor(next() * 30), 0.3 * next(), levels);
    const diff = draw(next, 1 + Math.floor(next() * 40), 0, levels);
    // Unweighted, then weighted as a bootstrap resample weighs (how often drawn, 0 included), at least one each.
    const weighted = round % 2 === 1;
    const weights = (n: number): number[] => Array.from({ length: n }, (_, i) => (!weighted ? 1 : i === 0 ? 1 + Math.floor(next() * 3) : Math.floor(next() * 4)));
    const wSame = weights(same.length);
    const wDiff = weights(diff.length);
    const sorted = [...same.map((s, i) => ({ s, target: 1, w: wSame[i]! })), ...diff.map((s, i) => ({ s, target: 0, w: wDiff[i]! }))]
      .sort((a, b) => a.s - b.s);
    const trials = { score: Float64Array.from(sorted, (r) => r.s), target: Uint8Array.from(sorted, (r) => r.target) };
    const got = errorRates(trials, weighted ? sorted.map((r) => r.w) : null);
    assert.deepEqual(got, bruteForce(same, diff, wSame, wDiff), `round ${round}`);
    if (!weighted) {
      assert.deepEqual(errorRates(sortTrials(same, diff)), got, `round ${round}: sortTrials orders them alike`);
      assert.deepEqual(equalErrorRate(same, diff), { eer: got.eer, threshold: got.threshold });
    }
  }
});

test('errorRates: separable scores have EER 0 at the lowest same-speaker score; a class that weighs nothing gives NaN', () => {
  assert.deepEqual(errorRates(sortTrials([0.8, 0.9], [0.1, 0.2, 0.3])), { eer: 0, threshold: 0.8, minDcf: 0 });
  // Every pair alike: rejecting all or nothing are the only points, both with gap 1; the first (accept all) is kept.
  assert.deepEqual(equalErrorRate([0.5, 0.5], [0.5]), { eer: 0.5, threshold: 0.5 });
  assert.ok(Number.isNaN(equalErrorRate([], [0.1, 0.2]).eer));
  const trials = sortTrials([0.9], [0.1]);
  assert.ok(Number.isNaN(errorRates(trials, [0, 1]).minDcf), 'a resample without a same-speaker trial');
});
