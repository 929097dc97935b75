/**
 * Doubtful speech: a recognised turn heard with so little confidence that its words are more likely wrong than right
 * (a far-field "niacin learn shit he needs some never get hurt…" at 0.11). It stays in the transcript, but gives
 * memory nothing: no facts, no profile updates, no persona evidence, no keyword or vector entry that `memory.context`
 * could push.
 */
import type { Utterance } from '../../graph/types.js';

/**
 * The cut chosen for pocketsphinx on 16 kHz room speech with `bench/asr-confidence.ts` (docs/BENCHMARKS.md, "Doubtful
 * speech"): set `PARLEY_MEMORY_MIN_ASR_CONFIDENCE` to it for far-field wideband rooms.
 */
export const ROOM_SPEECH_MIN_ASR_CONFIDENCE = 0.35;

/**
 * Default lowest ASR confidence of a turn that feeds memory (`PARLEY_MEMORY_MIN_ASR_CONFIDENCE`): 0, no gate. The room
 * cut is not the default because it was measured on 16 kHz speech only: on a phone line pocketsphinx scores good turns
 * below it (test/server/twilio.test.ts's call, heard within 30 % WER, gave memory nothing), and Moonshine's scores were
 * not measured.
 */
export const DEFAULT_MIN_ASR_CONFIDENCE = 0;

/** Whether `u` was recognised (its confidence given) below `min`; a client's text (confidence null) never is. */
export function doubtfulSpeech(u: Pick<Utterance, 'confidence'>, min: number): boolean {
  return u.confidence !== null && u.confidence < min;
}
