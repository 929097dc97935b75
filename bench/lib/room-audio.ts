/**
 * Real speech in rooms and on phone lines, with reference speech timings, for VAD benchmarks and tests.
 * LibriSpeech utterances (no timings of their own) are concatenated with random silences; each 32 ms
 * window is labelled speech or not from the CLEAN signal's energy (see {@link labelWindows}); the mixture is
 * then degraded (sox reverb + band limit + level, seeded pink noise at a set SNR; phone: 8 kHz μ-law
 * through Parley's own decoder) and the VAD runs on the degraded audio only.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { AudioDecoder } from '../../pipelines/audio/audio-decoder.js';
import { encodeMulaw } from '../../pipelines/audio/pcm-codecs.js';
import { readWav } from '../../pipelines/audio/wav.js';
import { repoRoot } from '../../pipelines/models/repo-root.js';
import { seededRandom } from './seeded-random.js';
import { requireDataOrSkip } from './cli.js';

/** Window length of the labels, in samples at 16 kHz (Silero's window, 32 ms). */
export const LABEL_WINDOW = 512;

/** `../shared/data/speech/librispeech-test-other-10`, or `undefined` when absent. */
export function librispeechDir(): string | undefined {
  const d = path.resolve(process.env['PARLEY_SHARED_DATA'] ?? path.join(repoRoot(), '../shared/data'), 'speech/librispeech-test-other-10');
  return existsSync(d) ? d : undefined;
}

/**
 * `librispeechDir()`, or undefined after saying the bench is skipped (an error instead where the data is
 * required: `requireDataOrSkip`).
 */
export function librispeechDirOrSkip(): string | undefined {
  const dir = librispeechDir();
  if (dir) return dir;
  requireDataOrSkip('../shared/data/speech/librispeech-test-other-10');
  console.log('skipped: ../shared/data/speech/librispeech-test-other-10 not found (set PARLEY_SHARED_DATA)');
  return undefined;
}

/** Speaker ids (folder names) under `dir`, sorted. */
export function librispeechSpeakers(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
}


/** A clean mixture and its reference: `speech[k]` tells whether window k (samples k·512 …) is speech. */
export interface Mixture { clean: Float32Array; speech: boolean[] }

/**
 * Label each window of one clean utterance: speech when its energy is within `rangeDb` (default 35 dB) of
 * the utterance's loudest window; speech runs closer than `bridgeWindows` (default 4, 128 ms) are joined,
 * as a listener hears one stretch of speech through a stop consonant or a short breath.
 */
export function labelWindows(x: Float32Array, rangeDb = 35, bridgeWindows = 4): boolean[] {
  const db: number[] = [];
  for (let i = 0; i + LABEL_WINDOW <= x.length; i += LABEL_WINDOW) {
    let s = 0;
    for (let j = i; j < i + LABEL_WINDOW; j++) s += (x[j] ?? 0) ** 2;
    db.push(10 * Math.log10(s / LABEL_WINDOW + 1e-12));
  }
  const top = Math.max(...db);
  const lab = db.map((d) => d > top - rangeDb);
  let last = -1;
  for (let k = 0; k < lab.length; k++) {
    if (!lab[k]) continue;
    if (last >= 0 && k - last - 1 <= bridgeWindows) for (let j = last + 1; j < k; j++) lab[j] = true;
    last = k;
  }
  return lab;
}

/**
 * Concatenate one speaker's utterances (sorted by file name, at most `maxClips`) with silences of
 * 0.5–3 s drawn from `seed`, each utterance cut to whole windows.
 */
export function speakerMixture(dir: string, speaker: string, seed: number, maxClips = Infinity): Mixture {
  const r = seededRandom(seed);
  const files = readdirSync(path.join(dir, speaker)).filter((f) => f.endsWith('.wav')).sort().slice(0, maxClips);
  const parts: Float32Array[] = [];
  const speech: boolean[] = [];
  const gap = (): void => {
    const n = Math.round((0.5 + 2.5 * r()) * 16000 / LABEL_WINDOW);
    parts.push(new Float32Array(n * LABEL_WINDOW));
    for (let k = 0; k < n; k++) speech.push(false);
  };
  gap();
  for (const f of files) {
    const w = readWav(path.join(dir, speaker, f));
    if (w.sampleRate !== 16000) throw new Error(`${f}: expected 16 kHz, got ${w.sampleRate}`);
    const x = w.samples.subarray(0, Math.floor(w.samples.length / LABEL_WINDOW) * LABEL_WINDOW);
    parts.push(x);
    speech.push(...labelWindows(x));
    gap();
  }
  const clean = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { clean.set(p, at); at += p.length; }
  return { clean, speech };
}

/** A degradation of a clean mixture. */
export interface Condition {
  name: string;
  /** sox effects applied to the clean signal (16 kHz in and out). */
  soxEffects: string[];
  /** Pink noise added after the effects at this SNR (speech windows' power over noise power), dB; none when omitted. */
  snrDb?: number;
  /** Send through 8 kHz G.711 μ-law and back to 16 kHz with Parley's stream decoder. */
  phone?: boolean;
}

/** The conditions of the VAD benchmark. */
export const CONDITIONS: Condition[] = [
  { name: 'clean', soxEffects: [] },
  { name: 'far-field, SNR 20 dB', soxEffects: ['reverb', '60', '50', '100', '100', '20', 'lowpass', '4000', 'gain', '-20'], snrDb: 20 },
  { name: 'far-field, SNR 5 dB', soxEffects: ['reverb', '60', '50', '100', '100', '20', 'lowpass', '4000', 'gain', '-20'], snrDb: 5 },
  { name: 'phone 8 kHz μ-law, SNR 15 dB', soxEffects: ['highpass', '300', 'lowpass', '3400', 'gain', '-6'], snrDb: 15, phone: true },
];

/** Run sox effects over 16 kHz samples; the result keeps the input length. */
export function sox(x: Float32Array, effects: string[]): Float32Array {
  if (effects.length === 0) return x;
  const fmt = ['-t', 'f32', '-r', '16000', '-c', '1'];
  const out = execFileSync('sox', ['-V1', ...fmt, '-', ...fmt, '-', ...effects],
    { input: Buffer.from(x.buffer, x.byteOffset, x.byteLength), maxBuffer: 1 << 30 });
  // Reverb lengthens the signal: keep the original length so windows stay aligned with the labels.
  const y = new Float32Array(x.length);
  y.set(new Float32Array(out.buffer, out.byteOffset, Math.min(x.length, out.byteLength >> 2)));
  return y;
}

/** Pink noise (Paul Kellet's economy filter over seeded white noise), unit-less. */
export function pinkNoise(n: number, seed: number): Float32Array {
  const r = seededRandom(seed);
  const out = new Float32Array(n);
  let b0 = 0, b1 = 0, b2 = 0;
  for (let i = 0; i < n; i++) {
    const w = r() * 2 - 1;
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    out[i] = b0 + b1 + b2 + w * 0.1848;
  }
  return out;
}

/** Degrade a mixture's clean signal; the labels are unchanged. */
export async function degrade(m: Mixture, c: Condition, seed: number): Promise<Float32Array> {
  const y = Float32Array.from(sox(m.clean, c.soxEffects));
  if (c.snrDb !== undefined) {
    let ps = 0, ns = 0;
    m.speech.forEach((s, k) => {
      if (!s) return;
      ns += LABEL_WINDOW;
      for (let j = k * LABEL_WINDOW; j < (k + 1) * LABEL_WINDOW; j++) ps += (y[j] ?? 0) ** 2;
    });
    const noise = pinkNoise(y.length, seed);
    const pn = noise.reduce((a, v) => a + v * v, 0) / noise.length;
    const g = Math.sqrt(ps / Math.max(1, ns) / pn / 10 ** (c.snrDb / 10));
    for (let i = 0; i < y.length; i++) y[i] = (y[i] ?? 0) + g * (noise[i] ?? 0);
  }
  return c.phone ? await phoneLine(y) : y;
}

/** 16 kHz → 8 kHz (sox) → μ-law bytes, whole 20 ms frames (160 bytes) as a phone gateway sends them. */
export function mulawLine(x: Float32Array): Buffer {
  const fmt = ['-t', 'f32', '-c', '1'];
  const out = execFileSync('sox', ['-V1', ...fmt, '-r', '16000', '-', ...fmt, '-r', '8000', '-', 'rate', '8000'],
    { input: Buffer.from(x.buffer, x.byteOffset, x.byteLength), maxBuffer: 1 << 30 });
  const narrow = new Float32Array(out.buffer, out.byteOffset, out.byteLength >> 2);
  return Buffer.from(encodeMulaw(narrow.subarray(0, Math.floor(narrow.length / 160) * 160)));
}

/** 16 kHz → 8 kHz (sox) → μ-law bytes → Parley's decoder (μ-law, 8 kHz → 16 kHz) in 20 ms frames; same length out. */
export async function phoneLine(x: Float32Array): Promise<Float32Array> {
  const bytes = mulawLine(x);
  const dec = await AudioDecoder.create({ encoding: 'mulaw', sampleRate: 8000, channels: 1 });
  const y = new Float32Array(x.length);
  let at = 0;
  for (let i = 0; i < bytes.length && at < y.length; i += 160) {
    const part = dec.decode(bytes.subarray(i, i + 160));
    y.set(part.subarray(0, y.length - at), at);
    at += part.length;
  }
  dec.close();
  return y;
}

/** A line of text spoken by `voice` ("flite:slt", "festival:kal_diphone"), as 16 kHz mono samples, through files in `dir`. */
export function synth(dir: string, voice: string, text: string): Float32Array {
  const [engine, name] = voice.split(':') as [string, string];
  const raw = path.join(dir, 'raw.wav');
  const out = path.join(dir, 'out.wav');
  if (engine === 'flite') execFileSync('flite', ['-voice', name, '-t', text, '-o', raw]);
  else execFileSync('text2wave', ['-eval', `(voice_${name})`, '-o', raw], { input: text });
  // -R: an 8 kHz voice is resampled and dithered; sox seeds the dither from the clock without it.
  execFileSync('sox', ['-R', raw, '-r', '16000', '-c', '1', '-b', '16', out]);
  return readWav(out).samples;
}
