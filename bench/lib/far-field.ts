import { execFileSync } from 'node:child_process';

/** How to degrade a clip: sox reverberation (reverberance %, HF damping %, room scale %) or none, and an SNR. */
export interface Degradation {
  reverb: [number, number, number] | null;
  /** White noise added at this signal-to-noise ratio in dB; `Infinity` for none. */
  snrDb: number;
}

/** The evaluation's far-field condition: a reverberant room heard through a phone band, noise at 15 dB. */
export const FAR_FIELD: Degradation = { reverb: [50, 50, 80], snrDb: 15 };
/** The phone band alone (300–3400 Hz), no room, no noise. */
export const PHONE_BAND: Degradation = { reverb: null, snrDb: Infinity };

/**
 * A degraded version of a 16 kHz clip: optional sox room reverberation, then a 300–3400 Hz telephone
 * band, then white noise (seeded, so runs repeat). Needs sox on the PATH.
 */
export function degrade(audio: Float32Array, seed: number, d: Degradation = FAR_FIELD): Float32Array {
  const input = Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength);
  const raw = ['-t', 'raw', '-r', '16000', '-e', 'floating-point', '-b', '32', '-c', '1'];
  const room = d.reverb ? ['reverb', ...d.reverb.map(String)] : [];
  const out = execFileSync('sox', ['-V1', ...raw, '-', ...raw, '-', ...room, 'sinc', '300-3400', 'rate', '16000'], { input, maxBuffer: 1 << 28 });
  const y = new Float32Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
  if (!Number.isFinite(d.snrDb)) return y;
  let power = 0;
  for (const v of y) power += v * v;
  const sigma = Math.sqrt(power / Math.max(1, y.length) / 10 ** (d.snrDb / 10));
  let x = (seed * 2654435761) % 4294967296 || 1;
  const uniform = (): number => ((x = (x * 1664525 + 1013904223) % 4294967296) + 1) / 4294967297;
  for (let i = 0; i < y.length; i++) y[i] = y[i]! + sigma * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return y;
}

/**
 * Channel copies the embedder's training adds to every clip (scripts/train-speaker-embedder.ts): the
 * phone band, and another room (not the benchmark's) at 10 dB SNR.
 */
export const TRAIN_CHANNELS: Degradation[] = [PHONE_BAND, { reverb: [30, 70, 60], snrDb: 10 }];
