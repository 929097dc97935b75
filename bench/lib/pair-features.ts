/**
 * A cosine kNN arm and per-class scoring for the learned change-of-mind classifier (its pair features live in
 * pipelines/memory/pair-features.ts, which consolidation uses). Pure: vectors in, numbers out.
 */

/**
 * kNN by cosine over z-scored rows (standardised with the training rows' mean and deviation): each of the `k` nearest
 * training rows votes for its label with weight max(cos, 0); ties go to the lower label.
 */
export function knnPredict(train: readonly Float64Array[], labels: readonly number[], classes: number, k: number, query: readonly Float64Array[]): number[] {
  if (train.length === 0 || train.length !== labels.length) throw new Error(`knnPredict: ${train.length} rows and ${labels.length} labels`);
  if (!Number.isInteger(k) || k < 1) throw new Error(`knnPredict: k must be a positive integer, got ${k}`);
  const dim = train[0]!.length;
  const mean = new Float64Array(dim);
  const sd = new Float64Array(dim);
  for (const r of train) for (let j = 0; j < dim; j++) mean[j] = mean[j]! + r[j]! / train.length;
  for (const r of train) for (let j = 0; j < dim; j++) sd[j] = sd[j]! + (r[j]! - mean[j]!) ** 2 / train.length;
  const unit = (r: Float64Array): Float64Array => {
    const z = r.map((v, j) => (v - mean[j]!) / (Math.sqrt(sd[j]!) || 1));
    const norm = Math.hypot(...z) || 1;
    return z.map((v) => v / norm);
  };
  const t = train.map(unit);
  return query.map((q) => {
    const u = unit(q);
    const sims = t.map((r, i) => ({ i, s: r.reduce((acc, v, j) => acc + v * u[j]!, 0) })).sort((p, q2) => q2.s - p.s).slice(0, k);
    const votes = new Array<number>(classes).fill(0);
    for (const { i, s } of sims) votes[labels[i]!]! += Math.max(s, 0) + 1e-9;
    return votes.indexOf(Math.max(...votes));
  });
}

/** confusion[expected][predicted] over `classes` labels. */
export function confusion(expected: readonly number[], predicted: readonly number[], classes: number): number[][] {
  if (expected.length !== predicted.length) throw new Error('confusion: expected and predicted differ in length');
  const m = Array.from({ length: classes }, () => new Array<number>(classes).fill(0));
  for (const [i, e] of expected.entries()) m[e]![predicted[i]!]!++;
  return m;
}

/** Markdown rows `| name | expected | predicted | correct | precision | recall |` from a confusion matrix. */
export function perClassRows(m: number[][], names: readonly string[]): string[] {
  return names.map((name, k) => {
    const expected = m[k]!.reduce((a, b) => a + b, 0);
    const predicted = m.reduce((a, row) => a + row[k]!, 0);
    const correct = m[k]![k]!;
    const f = (num: number, den: number): string => (den ? `${(num / den).toFixed(2)} (${num}/${den})` : 'n/a');
    return `| ${name} | ${expected} | ${predicted} | ${correct} | ${f(correct, predicted)} | ${f(correct, expected)} |`;
  });
}
