/**
 * Doubtful speech: a recognised turn heard with so little confidence that its words are more likely wrong than right
 * (a far-field "niacin learn shit he needs some never get hurt…" at 0.11). It stays in the transcript, but gives
 * memory nothing: no facts, no profile updates, no persona evidence, no keyword or vector entry that `memory.context`
 * could push.
 */
import type { Utterance } from '../../graph/types.js';

/**
 * The cut chosen for pocketsphinx on 16 kHz room speech with `bench/asr-confidence.ts` (docs/BENCHMARKS.md, "Doubtful
 * speech"): what `auto` applies to the turns pocketsphinx heard from wideband audio.
 */
export const ROOM_SPEECH_MIN_ASR_CONFIDENCE = 0.35;

/**
 * `PARLEY_MEMORY_MIN_ASR_CONFIDENCE`: one lowest ASR confidence (0–1) for every recognised turn, or `auto`: each turn's
 * own by what heard it ({@link minAsrConfidenceFor}).
 */
export type MinAsrConfidence = number | 'auto';

/**
 * Default `PARLEY_MEMORY_MIN_ASR_CONFIDENCE`: `auto`. One cut for every turn is not the default because the room cut
 * was measured on 16 kHz pocketsphinx speech only: on a phone line pocketsphinx scores good turns below it
 * (test/server/twilio.test.ts's call, heard within 30 % WER, gave memory nothing), and Moonshine's scores were not
 * measured.
 */
export const DEFAULT_MIN_ASR_CONFIDENCE: MinAsrConfidence = 'auto';

/** Streams declared at this rate or above are wideband: the rate {@link ROOM_SPEECH_MIN_ASR_CONFIDENCE} was measured at. */
const WIDEBAND_MIN_RATE = 16000;

/**
 * The lowest ASR confidence that lets `u` feed memory under `setting`: a number as it is, for every turn; `auto`:
 * {@link ROOM_SPEECH_MIN_ASR_CONFIDENCE} for a turn pocketsphinx heard from wideband (16 kHz or above) audio, else 0, no
 * gate: phone-line turns, other recognisers' (Moonshine), a client's text, and turns stored before `heardBy` was kept.
 */
export function minAsrConfidenceFor(u: Pick<Utterance, 'heardBy'>, setting: MinAsrConfidence): number {
  if (setting !== 'auto') return setting;
  const heard = u.heardBy;
  return heard?.asr === 'pocketsphinx' && heard.sampleRate >= WIDEBAND_MIN_RATE ? ROOM_SPEECH_MIN_ASR_CONFIDENCE : 0;
}

/** Whether `u` was recognised (its confidence given) below its cut under `min`; a client's text (confidence null) never is. */
export function doubtfulSpeech(u: Pick<Utterance, 'confidence' | 'heardBy'>, min: MinAsrConfidence): boolean {
  return u.confidence !== null && u.confidence < minAsrConfidenceFor(u, min);
}
