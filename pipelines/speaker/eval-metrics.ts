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

/** Detection cost setting of `minDcf`: prior of a target (same-speaker) trial; misses and false alarms cost 1. */
export const P_TARGET = 0.05;

/** Verification trials sorted by score, lowest first. */
export interface SortedTrials {
  score: Float64Array;
  /** 1 where the trial is a same-speaker pair, 0 where it is a different-speaker one. */
  target: Uint8Array;
}

/** The operating points of a set of trials that a threshold sweep finds. */
export interface ErrorRates {
  /** Equal error rate: the mean of the miss and false-accept rates where they differ least (the lowest such threshold). */
  eer: number;
  /** The threshold of that point: trials scoring at least this are accepted (Infinity: none). */
  threshold: number;
  /** Minimum over thresholds of the detection cost at `pTarget`, normalised by the cost of always deciding alike. */
  minDcf: number;
}

/** `same` and `diff` scores as one list of trials sorted by score. */
export function sortTrials(same: readonly number[], diff: readonly number[]): SortedTrials {
  const rows = [...same.map((s) => ({ s, target: 1 })), ...diff.map((s) => ({ s, target: 0 }))].sort((a, b) => a.s - b.s);
  return { score: Float64Array.from(rows, (r) => r.s), target: Uint8Array.from(rows, (r) => r.target) };
}

/**
 * EER, its threshold and normalised minDCF of sorted trials, in one sweep over the thresholds between distinct
 * scores (and below the lowest and above the highest). `weight` gives each trial's weight (default 1: a
 * bootstrap resample weighs a trial by how often it was drawn). NaN figures when either class weighs nothing.
 */
export function errorRates(t: SortedTrials, weight: ArrayLike<number> | null = null, pTarget = P_TARGET): ErrorRates {
  const n = t.score.length;
  let totalSame = 0;
  let totalDiff = 0;
  for (let k = 0; k < n; k++) {
    if (t.target[k]) totalSame += weight ? weight[k]! : 1;
    else totalDiff += weight ? weight[k]! : 1;
  }
  if (totalSame === 0 || totalDiff === 0) return { eer: Number.NaN, threshold: Number.NaN, minDcf: Number.NaN };
  // At step k the threshold lies just above score k: everything up to it is rejected (k = -1: nothing).
  let missed = 0;
  let rejectedDiff = 0;
  let best = { eer: 1, threshold: 0, gap: Infinity };
  let minDcf = Infinity;
  const norm = Math.min(pTarget, 1 - pTarget);
  for (let k = -1; k < n; k++) {
    if (k >= 0) {
      if (t.target[k]) missed += weight ? weight[k]! : 1;
      else rejectedDiff += weight ? weight[k]! : 1;
      if (k + 1 < n && t.score[k + 1] === t.score[k]) continue;
    }
    const frr = missed / totalSame;
    const far = (totalDiff - rejectedDiff) / totalDiff;
    const gap = Math.abs(frr - far);
    if (gap < best.gap) best = { eer: (frr + far) / 2, threshold: k + 1 < n ? t.score[k + 1]! : Infinity, gap };
    minDcf = Math.min(minDcf, (pTarget * frr + (1 - pTarget) * far) / norm);
  }
  return { eer: best.eer, threshold: best.threshold, minDcf };
}

/** Equal error rate of same- and different-speaker scores and the threshold where it occurs (`errorRates`). */
export function equalErrorRate(same: readonly number[], diff: readonly number[]): { eer: number; threshold: number } {
  const { eer, threshold } = errorRates(sortTrials(same, diff));
  return { eer, threshold };
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
