/** AUROC (ties count half) and its stratified, seeded bootstrap: positives and negatives resampled apart. */
import { seededRandom } from './seeded-random.js';

/** Probability that a random positive scores above a random negative (ties half): the Mann–Whitney statistic. */
export function auroc(pos: readonly number[], neg: readonly number[]): number {
  if (pos.length === 0 || neg.length === 0) return Number.NaN;
  const all = [...pos.map((v) => ({ v, p: 1 })), ...neg.map((v) => ({ v, p: 0 }))].sort((a, b) => a.v - b.v);
  let rankSum = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j]!.v === all[i]!.v) j++;
    const mid = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) if (all[t]!.p === 1) rankSum += mid;
    i = j;
  }
  return (rankSum - (pos.length * (pos.length + 1)) / 2) / (pos.length * neg.length);
}

/** A figure with its 95 % percentile interval. */
export interface Interval { mean: number; lo: number; hi: number }

/**
 * `stat` of each measure (`measures[m]` scores every case; `isPos` tells positives) and of the paired difference of the
 * first two, each with its 95 % interval over `rounds` stratified resamples (the same resamples for every measure).
 */
export function bootstrapStat(
  measures: readonly (readonly number[])[], isPos: readonly boolean[], stat: (pos: number[], neg: number[]) => number,
  rounds = 2000, seed = 1,
): { each: Interval[]; delta: Interval } {
  const posIdx = isPos.flatMap((p, i) => (p ? [i] : []));
  const negIdx = isPos.flatMap((p, i) => (p ? [] : [i]));
  const of = (m: readonly number[], idx: readonly number[]): number[] => idx.map((i) => m[i]!);
  const point = measures.map((m) => stat(of(m, posIdx), of(m, negIdx)));
  const next = seededRandom(seed);
  const draws: number[][] = measures.map(() => []);
  const deltas: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const p = posIdx.map(() => posIdx[Math.floor(next() * posIdx.length)]!);
    const n = negIdx.map(() => negIdx[Math.floor(next() * negIdx.length)]!);
    const vals = measures.map((m) => stat(of(m, p), of(m, n)));
    vals.forEach((v, i) => draws[i]!.push(v));
    deltas.push(vals[0]! - (vals[1] ?? 0));
  }
  const ci = (mean: number, xs: number[]): Interval => {
    xs.sort((a, b) => a - b);
    return { mean, lo: xs[Math.floor(0.025 * rounds)]!, hi: xs[Math.min(rounds - 1, Math.ceil(0.975 * rounds) - 1)]! };
  };
  return { each: point.map((v, i) => ci(v, draws[i]!)), delta: ci(point[0]! - (point[1] ?? 0), deltas) };
}

/** `0.912 [0.890, 0.931]`. */
export function fmt(ci: Interval, signed = false): string {
  const f = (x: number): string => x.toFixed(3);
  return `${signed && ci.mean >= 0 ? '+' : ''}${f(ci.mean)} [${f(ci.lo)}, ${f(ci.hi)}]`;
}

/** Logistic regression by batch gradient descent (features already on a 0–1 scale); returns bias then one weight per feature. */
export function fitLogistic(x: readonly (readonly number[])[], y: readonly number[], steps = 5000, rate = 0.5): number[] {
  const d = x[0]?.length ?? 0;
  const w = new Array<number>(d + 1).fill(0);
  for (let s = 0; s < steps; s++) {
    const g = new Array<number>(d + 1).fill(0);
    x.forEach((row, i) => {
      const z = w[0]! + row.reduce((a, v, j) => a + v * w[j + 1]!, 0);
      const e = 1 / (1 + Math.exp(-z)) - y[i]!;
      g[0]! += e;
      row.forEach((v, j) => { g[j + 1]! += e * v; });
    });
    for (let j = 0; j <= d; j++) w[j]! -= (rate * g[j]!) / x.length;
  }
  return w;
}
