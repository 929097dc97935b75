import type { SessionRules } from '../../pipelines/speaker/session-rules.js';
import type { SpeakerDecisionParams } from '../../pipelines/speaker/speaker-decision.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';

/** A calibrated decision whose LLR is 10·cosine − 5 at any duration, a new voice's log prior 1. */
export const SCRIPTED_DECISION: SpeakerDecisionParams = { modelId: 'scripted', calibration: { a: -5, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 1, minFoundSeconds: 0 };

/** Session rules whose merge calibration is the decision's; the re-clustering's threshold is then 1 − 0 − 3 = −2 nats (cosine > 0.3). */
export const SCRIPTED_RULES: SessionRules = { modelId: 'scripted', merge: { calibration: { a: -5, b: 10, c: 0, e: 0 }, logPriorOddsSame: 0, logCostRatio: 1 }, stay: null };

/** The unit vector at `deg` degrees from x in the x–z plane. */
export const xz = (deg: number): [number, number, number] => [Math.cos((deg * Math.PI) / 180), 0, Math.sin((deg * Math.PI) / 180)];

/**
 * A session where the re-clustering moves a turn (test/server/speaker-recluster.test.ts): A ×3 along x, B ×3 along y,
 * then a turn at 62° from A in the x–z plane (orthogonal to B), which the tracker gives an id of its own (against A its LLR
 * is 1 + 4.7 − 5 < the new-voice prior 1) and the end-of-session merge (cosine ≥ mergeTau 0.9) keeps apart, while the
 * re-clustering joins it to A's cluster (LLR −0.3 > −2).
 */
export const RECLUSTER_SCRIPT: [number, number, number][] = [[1, 0, 0], [1, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 0], [0, 1, 0], xz(62)];

/** A speaker embedder (a test double of the real ones) that returns a script's vectors in turn order, whatever the audio. */
export class ScriptedEmbedder implements SpeakerEmbedder {
  readonly dimension = 3;
  calls = 0;
  /** `modelId`: the embedder it stands in for, where a test needs that embedder's settings (its band offsets). */
  constructor(private readonly script: readonly (readonly number[])[], readonly modelId = 'scripted') {}
  async embed(): Promise<Float32Array> {
    return Float32Array.from(this.script[this.calls++ % this.script.length]!);
  }
}
