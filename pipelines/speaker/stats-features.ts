import { computeFbank } from './fbank.js';
import { pitchStats } from './pitch.js';

/** Number of cepstral coefficients kept (c1…c24; c0, the loudness, is dropped). */
export const NUM_CEPS = 24;
const NUM_MEL = 40;
/** Frames more than this far (natural log of energy, ~35 dB) below the loudest are silence. */
const SILENCE_BELOW_MAX = 8;
/** Frames quieter than about −70 dBFS (natural log of a 25 ms frame's energy) are never speech. */
const ABSOLUTE_FLOOR = -10;
/** Minimum number of speech frames (10 ms each) to embed. */
export const MIN_SPEECH_FRAMES = 30;

/** Names of the raw statistics, in order (documented in the params JSON). */
export const STAT_FEATURE_NAMES: string[] = [
  ...Array.from({ length: NUM_CEPS }, (_, i) => `mfcc${i + 1}_mean`),
  ...Array.from({ length: NUM_CEPS }, (_, i) => `mfcc${i + 1}_std`),
  ...Array.from({ length: NUM_CEPS }, (_, i) => `dmfcc${i + 1}_std`),
  'log_f0_median',
  'log_f0_std',
  'voiced_fraction',
  'periodicity',
];

let dct: Float64Array | null = null;
function dctMatrix(): Float64Array {
  if (dct) return dct;
  dct = new Float64Array(NUM_CEPS * NUM_MEL);
  for (let c = 1; c <= NUM_CEPS; c++)
    for (let m = 0; m < NUM_MEL; m++)
      dct[(c - 1) * NUM_MEL + m] = Math.sqrt(2 / NUM_MEL) * Math.cos((Math.PI * c * (m + 0.5)) / NUM_MEL);
  return dct;
}

/** MFCCs (c1…c24) of the speech frames of an utterance, row-major, and the frame count. */
export function speechMfcc(audio: Float32Array): { data: Float64Array; frames: number } {
  const fb = computeFbank(audio, { numBins: NUM_MEL, lowFreq: 20, highFreq: 7600 });
  let maxE = -Infinity;
  for (const e of fb.logEnergy) maxE = Math.max(maxE, e);
  const keep: number[] = [];
  const threshold = Math.max(maxE - SILENCE_BELOW_MAX, ABSOLUTE_FLOOR);
  for (let f = 0; f < fb.frames; f++) if (fb.logEnergy[f]! >= threshold) keep.push(f);
  const d = dctMatrix();
  const data = new Float64Array(keep.length * NUM_CEPS);
  keep.forEach((f, row) => {
    for (let c = 0; c < NUM_CEPS; c++) {
      let s = 0;
      for (let m = 0; m < NUM_MEL; m++) s += d[c * NUM_MEL + m]! * fb.data[f * NUM_MEL + m]!;
      data[row * NUM_CEPS + c] = s;
    }
  });
  return { data, frames: keep.length };
}

/**
 * Raw per-utterance voice statistics (length `STAT_FEATURE_NAMES.length`): MFCC means and standard
 * deviations, delta-MFCC standard deviations, and pitch statistics. Returns null when the audio has
 * fewer than `MIN_SPEECH_FRAMES` speech frames.
 */
export function utteranceStats(audio: Float32Array): Float64Array | null {
  const { data, frames } = speechMfcc(audio);
  if (frames < MIN_SPEECH_FRAMES) return null;
  const out = new Float64Array(STAT_FEATURE_NAMES.length);
  for (let c = 0; c < NUM_CEPS; c++) {
    let m = 0;
    for (let f = 0; f < frames; f++) m += data[f * NUM_CEPS + c]!;
    m /= frames;
    let v = 0;
    let dv = 0;
    for (let f = 0; f < frames; f++) {
      v += (data[f * NUM_CEPS + c]! - m) ** 2;
      // Two-frame regression delta over the kept frames (silence gaps are short next to the span).
      const a = data[Math.min(f + 2, frames - 1) * NUM_CEPS + c]! - data[Math.max(f - 2, 0) * NUM_CEPS + c]!;
      const b = data[Math.min(f + 1, frames - 1) * NUM_CEPS + c]! - data[Math.max(f - 1, 0) * NUM_CEPS + c]!;
      dv += ((2 * a + b) / 10) ** 2;
    }
    out[c] = m;
    out[NUM_CEPS + c] = Math.sqrt(v / frames);
    out[2 * NUM_CEPS + c] = Math.sqrt(dv / frames);
  }
  const p = pitchStats(audio);
  const base = 3 * NUM_CEPS;
  // Unvoiced audio (whisper, noise): a typical adult value, so it reads as "no pitch evidence".
  const voiced = p.voicedFraction > 0;
  out[base] = voiced ? p.medianLogF0 : Math.log(150);
  out[base + 1] = voiced ? p.stdLogF0 : 0.2;
  out[base + 2] = p.voicedFraction;
  out[base + 3] = p.meanPeriodicity;
  return out;
}
