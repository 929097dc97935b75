import type { EncoderStates, MoonshineEncoder } from '../asr/moonshine-encoder.js';

/** Samples of audio per Moonshine encoder frame (its three strided convolutions: 64 × 3 × 2). */
export const MOONSHINE_FRAME_SAMPLES = 384;
/** Frames more than this far (natural log of energy, ~35 dB) below the loudest are not pooled. */
const SILENCE_BELOW_MAX = 8;
/** Frames quieter than about −70 dBFS (natural log of a frame's mean square) are never speech. */
const ABSOLUTE_FLOOR = -16;
/** Fewest voiced encoder frames (~24 ms each) to pool: 0.3 s, as the statistics embedder needs. */
export const MIN_VOICED_FRAMES = 12;

/**
 * Which encoder frames carry speech: those whose stretch of audio is within ~35 dB of the loudest
 * frame's (and above an absolute floor). `frames` is the encoder's frame count for `audio`.
 */
export function voicedFrames(audio: Float32Array, frames: number): number[] {
  const energy = new Float64Array(frames);
  let max = -Infinity;
  for (let f = 0; f < frames; f++) {
    const start = f * MOONSHINE_FRAME_SAMPLES;
    const end = Math.min(audio.length, start + MOONSHINE_FRAME_SAMPLES);
    let s = 0;
    for (let i = start; i < end; i++) s += audio[i]! * audio[i]!;
    energy[f] = Math.log(s / Math.max(1, end - start) + 1e-12);
    max = Math.max(max, energy[f]!);
  }
  const threshold = Math.max(max - SILENCE_BELOW_MAX, ABSOLUTE_FLOOR);
  const keep: number[] = [];
  for (let f = 0; f < frames; f++) if (energy[f]! >= threshold) keep.push(f);
  return keep;
}

/**
 * Pooled Moonshine encoder states of a turn (length 2 × encoder dimension): the mean and the standard
 * deviation over its voiced frames of the encoder's last hidden states, the whole turn encoded at once.
 * Returns null when fewer than {@link MIN_VOICED_FRAMES} frames are voiced.
 */
export async function pooledEncoderStates(encoder: MoonshineEncoder, audio: Float32Array): Promise<Float64Array | null> {
  const [states] = await encoder.states(audio);
  return poolVoiced(audio, states!);
}

/** Mean and standard deviation over the voiced frames of `audio` of its per-frame `states`; null under {@link MIN_VOICED_FRAMES}. */
export function poolVoiced(audio: Float32Array, { data, frames, dim }: EncoderStates): Float64Array | null {
  const keep = voicedFrames(audio, frames);
  if (keep.length < MIN_VOICED_FRAMES) return null;
  const out = new Float64Array(2 * dim);
  for (const f of keep) for (let d = 0; d < dim; d++) out[d]! += data[f * dim + d]!;
  for (let d = 0; d < dim; d++) out[d] = out[d]! / keep.length;
  for (const f of keep) for (let d = 0; d < dim; d++) out[dim + d]! += (data[f * dim + d]! - out[d]!) ** 2;
  for (let d = 0; d < dim; d++) out[dim + d] = Math.sqrt(out[dim + d]! / keep.length);
  return out;
}
