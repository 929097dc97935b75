import { seededRandom } from './seeded-random.js';

/** Word errors and reference words of one clip. */
export interface ClipErrors { errors: number; words: number }

/**
 * WER of `a` (total errors / total words over clips) with its 95 % percentile bootstrap over clips; with `b` (the
 * same clips under another system), the paired difference a − b on the same resamples.
 */
export function werCi(a: readonly ClipErrors[], b?: readonly ClipErrors[], rounds = 2000): { mean: number; lo: number; hi: number } {
  const wer = (c: readonly ClipErrors[], idx: number[]): number => {
    let e = 0, w = 0;
    for (const i of idx) { e += c[i]!.errors; w += c[i]!.words; }
    return w === 0 ? 0 : e / w;
  };
  const all = a.map((_, i) => i);
  const stat = (idx: number[]): number => wer(a, idx) - (b ? wer(b, idx) : 0);
  const next = seededRandom(1);
  const values: number[] = [];
  for (let r = 0; r < rounds; r++) values.push(stat(all.map(() => Math.floor(next() * a.length))));
  values.sort((x, y) => x - y);
  return { mean: stat(all), lo: values[Math.floor(0.025 * rounds)]!, hi: values[Math.ceil(0.975 * rounds) - 1]! };
}
