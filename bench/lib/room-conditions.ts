/**
 * Harder rooms for the VAD benchmark (issue #17, level control), fixed before any run: quieter far-field
 * levels, a second, larger and more reverberant room, babble from other talkers in the room, and a talker
 * who is near for the first half of the stream and far for the second. Babble is built from the two
 * SpeechBrain speakers (`../shared/data/speech/speechbrain`), who are in neither the development nor the
 * held-out LibriSpeech set. Labels stay those of the clean mixture.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { readWav } from '../../pipelines/audio/wav.js';
import { CONDITIONS, LABEL_WINDOW, degrade, pinkNoise, sox, type Condition, type Mixture } from './room-audio.js';
import { seededRandom } from './seeded-random.js';

/** The first room: sox reverb, a 4 kHz band, at a level. */
const roomA = (gainDb: number): string[] => ['reverb', '60', '50', '100', '100', '20', 'lowpass', '4000', 'gain', String(gainDb)];
/** A larger, more reverberant room (reverberance 95 %, little HF damping, 50 ms pre-delay, wet +3 dB), 3.5 kHz band. */
const roomB = (gainDb: number): string[] => ['reverb', '95', '20', '100', '100', '50', '3', 'lowpass', '3500', 'gain', String(gainDb)];

/** A condition of the level-control benchmark. */
export interface LevelCondition extends Condition {
  /** Noise added at `snrDb`: pink (default) or babble of other talkers through the same effects. */
  noise?: 'pink' | 'babble';
  /** sox effects for the first half of the stream (a near talker); `soxEffects` then apply to the second half only. */
  nearEffects?: string[];
}

/** Previous conditions (clean, far-field at −20 dB, phone) followed by the new ones. */
export const LEVEL_CONDITIONS: LevelCondition[] = [
  ...CONDITIONS,
  { name: 'far-field −30 dB, SNR 20 dB', soxEffects: roomA(-30), snrDb: 20 },
  { name: 'far-field −40 dB, SNR 20 dB', soxEffects: roomA(-40), snrDb: 20 },
  { name: 'room B −30 dB, SNR 10 dB', soxEffects: roomB(-30), snrDb: 10 },
  { name: 'far-field −30 dB, babble SNR 10 dB', soxEffects: roomA(-30), snrDb: 10, noise: 'babble' },
  { name: 'near (−3 dB) then room B −35 dB, SNR 20 dB', soxEffects: roomB(-35), snrDb: 20, nearEffects: ['gain', '-3'] },
];

/** Four overlapping talkers, each the SpeechBrain clips in a seeded order without gaps, looped to `n` samples. */
export function babble(dir: string, n: number, seed: number): Float32Array {
  const clips = readdirSync(dir).filter((f) => f.endsWith('.wav')).sort().map((f) => {
    const w = readWav(path.join(dir, f));
    if (w.sampleRate !== 16000) throw new Error(`${f}: expected 16 kHz, got ${w.sampleRate}`);
    return w.samples;
  });
  if (clips.length === 0) throw new Error(`${dir}: no babble clips`);
  const r = seededRandom(seed);
  const out = new Float32Array(n);
  for (let talker = 0; talker < 4; talker++) {
    let at = -Math.floor(r() * 16000 * 3);
    while (at < n) {
      const c = clips[Math.floor(r() * clips.length)] ?? new Float32Array(0);
      for (let j = 0; j < c.length; j++) if (at + j >= 0 && at + j < n) out[at + j] = (out[at + j] ?? 0) + (c[j] ?? 0);
      at += c.length;
    }
  }
  return out;
}

/** Power of `y` over the windows labelled speech from window `fromWindow` on. */
function speechPower(m: Mixture, y: Float32Array, fromWindow: number): number {
  let ps = 0, n = 0;
  m.speech.forEach((s, k) => {
    if (!s || k < fromWindow) return;
    n += LABEL_WINDOW;
    for (let j = k * LABEL_WINDOW; j < (k + 1) * LABEL_WINDOW; j++) ps += (y[j] ?? 0) ** 2;
  });
  return ps / Math.max(1, n);
}

/** First non-speech window at or after the middle: where the talker moves away. */
function switchWindow(m: Mixture): number {
  let k = Math.floor(m.speech.length / 2);
  while (k < m.speech.length && m.speech[k]) k++;
  return k;
}

/** Degrade a mixture's clean signal under a {@link LevelCondition}; the labels are unchanged. */
export async function degradeLevel(m: Mixture, c: LevelCondition, seed: number, babbleDir: string): Promise<Float32Array> {
  if (!c.nearEffects && c.noise !== 'babble') return degrade(m, c, seed);
  let y: Float32Array;
  let from = 0;
  if (c.nearEffects) {
    from = switchWindow(m);
    const cut = from * LABEL_WINDOW;
    const near = sox(m.clean.subarray(0, cut), c.nearEffects);
    const far = sox(m.clean.subarray(cut), c.soxEffects);
    y = new Float32Array(m.clean.length);
    y.set(near.subarray(0, cut), 0);
    y.set(far, cut);
  } else {
    y = Float32Array.from(sox(m.clean, c.soxEffects));
  }
  if (c.snrDb === undefined) return y;
  const noise = c.noise === 'babble' ? sox(babble(babbleDir, y.length, seed), c.soxEffects) : pinkNoise(y.length, seed);
  const pn = noise.reduce((a, v) => a + v * v, 0) / noise.length;
  const g = Math.sqrt(speechPower(m, y, from) / pn / 10 ** (c.snrDb / 10));
  for (let i = 0; i < y.length; i++) y[i] = (y[i] ?? 0) + g * (noise[i] ?? 0);
  return y;
}
