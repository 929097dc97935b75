/**
 * Score fusion of two speaker embedders (issue #17 item 2, audit "next steps" 2; bench/speaker-fuse.ts): every piece
 * of audio embedded by both, kept as the joint vector [a/|a|, b/|b|]; the fused print at weight w is
 * [√w·a/|a|, √(1−w)·b/|b|], a unit vector whose cosine with another fused print is w·cos_a + (1−w)·cos_b, so every
 * pass that reads cosines (the calibrated decision, the merge, the prototypes) sees the weighted sum of the two scores.
 */
import { ParleyError } from '../../graph/core/errors.js';
import { l2Normalise, type SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import type { SpeakerThresholds } from '../../pipelines/speaker/speaker-thresholds.js';
import type { EmbedCost } from './speaker-meeting-embedders.js';
import type { Scenario } from './speaker-revise-data.js';

/** Both embedders on every piece: refuses what either refuses, returns [a/|a|, b/|b|]; `costs` sums each one's time. */
export class JointSpeakerEmbedder implements SpeakerEmbedder {
  readonly modelId: string;
  readonly dimension: number;
  constructor(readonly a: SpeakerEmbedder, readonly b: SpeakerEmbedder, readonly costs: [EmbedCost, EmbedCost] = [{ ms: 0, seconds: 0 }, { ms: 0, seconds: 0 }]) {
    this.modelId = `${a.modelId}+${b.modelId}`;
    this.dimension = a.dimension + b.dimension;
  }

  async embed(audio: Float32Array): Promise<Float32Array> {
    const out = new Float32Array(this.dimension);
    for (const [k, e] of [this.a, this.b].entries()) {
      const t = performance.now();
      const v = await e.embed(audio).finally(() => {
        this.costs[k]!.ms += performance.now() - t;
        this.costs[k]!.seconds += audio.length / 16_000;
      });
      out.set(l2Normalise(Float32Array.from(v)), k === 0 ? 0 : this.a.dimension);
    }
    return out;
  }
}

/** The fused print at weight `w` of a joint vector whose first `dimA` values are the first embedder's. */
export function fusedVector(joint: Float32Array, dimA: number, w: number): Float32Array {
  if (!(w >= 0 && w <= 1)) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `fusion weight must be in [0, 1], not ${w}`);
  const sa = Math.sqrt(w);
  const sb = Math.sqrt(1 - w);
  return joint.map((v, i) => v * (i < dimA ? sa : sb));
}

/** The first embedder's print alone (the joint vector's first `dimA` values). */
export function firstPrint(joint: Float32Array, dimA: number): Float32Array {
  return joint.slice(0, dimA);
}

/** `scen` with every utterance's vector replaced by `f` of it (same sessions, same order: the runs pair). */
export function mapScenarios(scen: readonly Scenario[], f: (v: Float32Array) => Float32Array): Scenario[] {
  const memo = new Map<Float32Array, Float32Array>();
  const g = (v: Float32Array): Float32Array => memo.get(v) ?? (memo.set(v, f(v)), memo.get(v)!);
  return scen.map((s) => ({ name: s.name, runs: s.runs.map((run) => run.map((sess) => sess.map((u) => ({ ...u, vector: g(u.vector) })))) }));
}

/**
 * Thresholds of the fused print, a priori: the weighted sum of the two embedders' (their cosines at their own
 * thresholds give the fused cosine at this one); the asker thresholds likewise.
 */
export function fusedThresholds(ta: SpeakerThresholds, tb: SpeakerThresholds, w: number): SpeakerThresholds {
  const mix = (x: number, y: number): number => Number((w * x + (1 - w) * y).toFixed(4));
  return {
    tauMatch: mix(ta.tauMatch, tb.tauMatch), tauUpdate: mix(ta.tauUpdate, tb.tauUpdate), alpha: mix(ta.alpha, tb.alpha),
    askerHigh: mix(ta.askerHigh, tb.askerHigh), askerMargin: mix(ta.askerMargin, tb.askerMargin), askerLow: mix(ta.askerLow, tb.askerLow),
    mergeTau: mix(ta.mergeTau, tb.mergeTau),
  };
}

/**
 * `scen` (joint vectors) as the kind merge reads it (bench/lib/speaker-kind-merge.ts): every utterance's `vector` the
 * first embedder's print (what the one live tracker sees), its `mergeVector` the fused print at `w` (what the merge of a
 * meeting-like session clusters on). Same sessions, same order.
 */
export function withMergePrints(scen: readonly Scenario[], dimA: number, w: number): Scenario[] {
  return scen.map((s) => ({ name: s.name, runs: s.runs.map((run) => run.map((sess) => sess.map((u) => ({ ...u, vector: firstPrint(u.vector, dimA), mergeVector: fusedVector(u.vector, dimA, w) })))) }));
}
