import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitLda, fitWccn, type LabelledVector } from '../../../pipelines/speaker/lda-trainer.js';
import { seededRandom } from '../../../bench/lib/seeded-random.js';

/** Three classes in 4 dimensions: class means differ along x0, within-class noise is large along x1, small along x2 and x3. */
function samples(): LabelledVector[] {
  const next = seededRandom(3);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const out: LabelledVector[] = [];
  for (let c = 0; c < 3; c++)
    for (let i = 0; i < 200; i++) out.push({ label: `c${c}`, x: Float64Array.of(2 * c + 0.3 * gauss(), 5 * gauss(), 0.5 * gauss(), 0.5 * gauss() + 0.2 * c) });
  return out;
}

/** Covariance of projected within-class deviations (standardised first, as the fit does). */
function projectedWithin(s: LabelledVector[], fit: { mean: number[]; std: number[]; projection: number[][] }): number[][] {
  const z = s.map((v) => ({ label: v.label, x: Array.from(v.x, (x, i) => (x - fit.mean[i]!) / fit.std[i]!) }));
  const y = z.map((v) => ({ label: v.label, y: fit.projection.map((r) => r.reduce((a, w, i) => a + w * v.x[i]!, 0)) }));
  const k = fit.projection.length;
  const means = new Map<string, number[]>();
  for (const label of new Set(y.map((v) => v.label))) {
    const rows = y.filter((v) => v.label === label);
    means.set(label, Array.from({ length: k }, (_, d) => rows.reduce((a, r) => a + r.y[d]!, 0) / rows.length));
  }
  const cov = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const v of y) {
    const m = means.get(v.label)!;
    for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) cov[a]![b]! += ((v.y[a]! - m[a]!) * (v.y[b]! - m[b]!)) / y.length;
  }
  return cov;
}

test('WCCN keeps every dimension and makes the within-class covariance the identity (no shrinkage)', () => {
  const s = samples();
  const fit = fitWccn(s, 0);
  assert.equal(fit.projection.length, 4);
  const cov = projectedWithin(s, fit);
  for (let a = 0; a < 4; a++) for (let b = 0; b < 4; b++) assert.ok(Math.abs(cov[a]![b]! - (a === b ? 1 : 0)) < 1e-6, `cov[${a}][${b}] = ${cov[a]![b]}`);
  // The direction that separates the classes (x0) has by far the largest between/within ratio.
  assert.ok(Math.max(...fit.eigenvalues) > 10 * [...fit.eigenvalues].sort((a, b) => b - a)[1]!, `ratios ${fit.eigenvalues.join(', ')}`);
});

test('LDA keeps at most classes − 1 directions, the first along the class means', () => {
  const fit = fitLda(samples(), 24, 0);
  assert.equal(fit.projection.length, 2);
  const first = fit.projection[0]!.map((w, i) => w / fit.std[i]!);
  assert.ok(Math.abs(first[0]!) > 5 * Math.abs(first[1]!), `first direction ${first.join(', ')}`);
});
