import { ParleyError } from '../../graph/core/errors.js';
import { l2Normalise, type SpeakerEmbedder } from './speaker-embedder.js';
import { applyBackEnd, validateBackEnd } from './projection-back-end.js';
import { loadStatsLdaParams, type StatsLdaParams } from './stats-lda-params.js';
import { utteranceStats } from './stats-features.js';

/**
 * The weight-free embedder that runs everywhere: per-utterance MFCC, delta and pitch statistics,
 * standardised and projected by an LDA learned offline (`scripts/train-speaker-embedder.ts`).
 * Light enough to run on the event loop for short utterances (see `bench/speaker-eval.ts`).
 */
export class StatsLdaSpeakerEmbedder implements SpeakerEmbedder {
  readonly modelId: string;
  readonly dimension: number;
  readonly params: StatsLdaParams;

  /** Uses the shipped parameters unless `params` are given. */
  constructor(params: StatsLdaParams = loadStatsLdaParams()) {
    this.params = params;
    this.modelId = params.modelId;
    this.dimension = params.projection.length;
    if (params.backEnd) validateBackEnd(params.backEnd, this.dimension);
  }

  /** Synchronous embedding, for callers that already run off the event loop. */
  embedSync(audio: Float32Array): Float32Array {
    const raw = utteranceStats(audio);
    if (!raw) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'utterance too short or silent to embed (need 0.3 s of speech)');
    return this.project(raw);
  }

  async embed(audio: Float32Array): Promise<Float32Array> {
    return this.embedSync(audio);
  }

  /** Standardise, project and (when the file has one) apply the back end to raw features; then length-normalise. */
  project(raw: Float64Array): Float32Array {
    const y = this.projectOnly(raw);
    return l2Normalise(this.params.backEnd ? applyBackEnd(this.params.backEnd, y) : y);
  }

  /** The projection alone (no back end, not normalised): what a back end is fitted on. */
  projectOnly(raw: Float64Array): Float32Array {
    const { mean, std, projection } = this.params;
    const z = Float64Array.from(raw, (v, i) => (v - mean[i]!) / std[i]!);
    const out = new Float32Array(projection.length);
    projection.forEach((row, k) => {
      let s = 0;
      for (let i = 0; i < row.length; i++) s += row[i]! * z[i]!;
      out[k] = s;
    });
    return out;
  }
}

/**
 * The baseline the benchmark compares against: raw MFCC means and standard deviations (48 values,
 * no standardisation, no LDA) compared by cosine.
 */
export class MfccMeanSpeakerEmbedder implements SpeakerEmbedder {
  readonly modelId = 'mfcc-meanstd-baseline';
  readonly dimension = 48;

  async embed(audio: Float32Array): Promise<Float32Array> {
    const raw = utteranceStats(audio);
    if (!raw) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'utterance too short or silent to embed');
    return l2Normalise(Float32Array.from(raw.subarray(0, this.dimension)));
  }
}
