/**
 * The band a voice was heard through, and what comparing across bands costs the calibrated decision.
 * The decision's score calibration (`speaker-decision.ts`) was fitted on wideband pairs; on telephone audio the
 * cosines of different speakers come closer, so a phone turn (against any voiceprint) and a wideband turn against a
 * voiceprint made from phone audio must clear a higher log-likelihood ratio. The offsets were chosen on speakers the
 * LDA never heard (`npm run bench:speaker-crossband-crossfit`; docs/BENCHMARKS.md, "callerid2").
 */

import { scoreLlr, type ScoreCalibration } from './speaker-decision.js';

/** `wideband`: 16 kHz and up; `narrowband`: a telephone channel (8 kHz streams). */
export type VoiceBand = 'wideband' | 'narrowband';

/** Streams at this rate or below carry telephone-band audio (as the recogniser's narrowband switch). */
const NARROWBAND_MAX_RATE = 8000;

/** The band of a stream at `sampleRate` Hz. */
export function bandOf(sampleRate: number): VoiceBand {
  return sampleRate <= NARROWBAND_MAX_RATE ? 'narrowband' : 'wideband';
}

/** Log-likelihood-ratio offsets (natural log) a match must clear on top of the calibrated decision. */
export interface BandOffsets {
  /** A turn and a voiceprint of different bands (a phone caller against a voice heard wideband, or the reverse). */
  crossBand: number;
  /** A phone turn against a voiceprint made from phone audio. */
  narrowband: number;
}

/**
 * Chosen on the six LDA-training LibriSpeech speakers scored by leave-pair-out refits of the LDA (simulated 8 kHz
 * μ-law calls): the least offset, in steps of 0.25, whose out-of-fold false accepts (both cross-band directions
 * pooled; phone against phone) are no more than out-of-fold wideband-against-wideband's at offset 0 (15.7 %).
 * Before: 1 and 1.25, chosen on speakers the LDA was trained on (wideband FA 0 %), too strict on unheard voices.
 */
export const BAND_OFFSETS: BandOffsets = { crossBand: 0.5, narrowband: 1 };

/** The offsets of an embedder's calibrated decision: measured for `stats-lda-v2` only; null (none) for the others. */
export function bandOffsetsFor(modelId: string): BandOffsets | null {
  return modelId === 'stats-lda-v2' ? BAND_OFFSETS : null;
}

/** The offset a turn heard through `turn` pays against a voiceprint made from `print` audio. */
export function bandOffset(o: BandOffsets, turn: VoiceBand, print: VoiceBand): number {
  if (turn !== print) return o.crossBand;
  return turn === 'narrowband' ? o.narrowband : 0;
}

/**
 * The voiceprint space of an embedder's prototypes made from phone audio: stored apart from the wideband ones
 * (`<modelId>+tel`) so a later session knows which band each came from. Both spaces hold vectors of the same embedder.
 */
export function narrowbandModelId(modelId: string): string {
  return `${modelId}+tel`;
}

/**
 * The cosine an LLR offset is worth under the decision's calibration at `seconds` of voiced speech (the LLR is linear
 * in the cosine): what the voice asker of `query`, a rule on cosines, takes off a score to apply the band rule.
 * Throws when the calibration does not rise with the cosine.
 */
export function cosineOffset(c: ScoreCalibration, llrOffset: number, seconds: number): number {
  if (llrOffset === 0) return 0;
  const slope = scoreLlr(c, 1, seconds) - scoreLlr(c, 0, seconds);
  if (!(slope > 0)) throw new RangeError(`the score calibration must rise with the cosine to convert a band offset (slope ${slope} at ${seconds} s)`);
  return llrOffset / slope;
}

/**
 * The band rule of the end-of-session merge for a session heard through `band` (one stream, one band): a phone
 * session compares phone turns with phone turns, so each join pays the narrowband offset (an LLR, for the calibrated
 * merge rule); a wideband session or no offsets: 0.
 */
export function mergeBandOffset(band: VoiceBand | null, offsets: BandOffsets | null): number {
  return band === 'narrowband' && offsets ? bandOffset(offsets, 'narrowband', 'narrowband') : 0;
}
