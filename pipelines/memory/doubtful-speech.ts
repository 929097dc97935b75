/**
 * Doubtful speech: a recognised turn heard with so little confidence that its words are more likely wrong than right
 * (a far-field "niacin learn shit he needs some never get hurt…" at 0.11). It stays in the transcript, but gives
 * memory nothing: no facts, no profile updates, no persona evidence, no keyword or vector entry that `memory.context`
 * could push.
 */
import type { Utterance } from '../../graph/types.js';

/**
 * Default lowest ASR confidence of a turn that feeds memory (`PARLEY_MEMORY_MIN_ASR_CONFIDENCE`), chosen on training
 * speech with `bench/asr-confidence.ts` (docs/BENCHMARKS.md, "Doubtful speech").
 */
export const DEFAULT_MIN_ASR_CONFIDENCE = 0.35;

/** Whether `u` was recognised (its confidence given) below `min`; a client's text (confidence null) never is. */
export function doubtfulSpeech(u: Pick<Utterance, 'confidence'>, min: number): boolean {
  return u.confidence !== null && u.confidence < min;
}
