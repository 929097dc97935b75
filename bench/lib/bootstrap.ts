/** Percentile bootstrap over questions (resampled with replacement), seeded so a run is repeatable. */
import { seededRandom } from './seeded-random.js';

/** Mean of `values` with its 95 % percentile-bootstrap interval (`rounds` resamples). */
export function bootstrapMean(values: readonly number[], rounds = 2000, seed = 1): { mean: number; lo: number; hi: number } {
  const n = values.length;
  if (n === 0) return { mean: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const next = seededRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(next() * n)] as number;
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  return { mean, lo: means[Math.floor(0.025 * rounds)] as number, hi: means[Math.min(rounds - 1, Math.ceil(0.975 * rounds) - 1)] as number };
}

/** Paired difference a − b per question (same questions, same resamples), with its 95 % interval. */
export function bootstrapDelta(a: readonly number[], b: readonly number[], rounds = 2000, seed = 1): { mean: number; lo: number; hi: number } {
  if (a.length !== b.length) throw new Error('paired bootstrap needs the same questions');
  return bootstrapMean(a.map((x, i) => x - (b[i] as number)), rounds, seed);
}

/** `75.8 % [73.1, 78.4]`: a share as a percentage with its interval. */
export function pct(ci: { mean: number; lo: number; hi: number }, signed = false): string {
  const f = (x: number): string => (100 * x).toFixed(1);
  return `${signed && ci.mean >= 0 ? '+' : ''}${f(ci.mean)} % [${f(ci.lo)}, ${f(ci.hi)}]`;
}
