import { cosine } from './speaker-embedder.js';

/** An embedding with its true speaker. */
export interface LabelledEmbedding {
  speaker: string;
  vector: Float32Array;
}

/** Same-speaker and different-speaker cosine scores over all pairs. */
export function pairScores(items: LabelledEmbedding[]): { same: number[]; diff: number[] } {
  const same: number[] = [];
  const diff: number[] = [];
  for (let i = 0; i < items.length; i++)
    for (let j = i + 1; j < items.length; j++)
      (items[i]!.speaker === items[j]!.speaker ? same : diff).push(cosine(items[i]!.vector, items[j]!.vector));
  return { same, diff };
}

/** Equal error rate and the threshold where it occurs. */
export function equalErrorRate(same: number[], diff: number[]): { eer: number; threshold: number } {
  const thresholds = [...same, ...diff].sort((a, b) => a - b);
  let best = { eer: 1, threshold: 0, gap: Infinity };
  for (const t of thresholds) {
    const frr = same.filter((s) => s < t).length / Math.max(same.length, 1);
    const far = diff.filter((d) => d >= t).length / Math.max(diff.length, 1);
    const gap = Math.abs(frr - far);
    if (gap < best.gap) best = { eer: (frr + far) / 2, threshold: t, gap };
  }
  return { eer: best.eer, threshold: best.threshold };
}

export const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

/** Split audio into windows of `windowS` seconds every `hopS` seconds (the whole clip if shorter). */
export function segments(audio: Float32Array, windowS: number, hopS: number, sampleRate = 16_000): Float32Array[] {
  const w = Math.round(windowS * sampleRate);
  const h = Math.round(hopS * sampleRate);
  if (audio.length <= w) return [audio];
  const out: Float32Array[] = [];
  for (let s = 0; s + w <= audio.length; s += h) out.push(audio.subarray(s, s + w));
  return out;
}
