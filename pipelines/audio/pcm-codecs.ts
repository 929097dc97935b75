import { ParleyError } from '../../graph/core/errors.js';
import type { AudioEncoding } from './audio-format.js';

/** G.711 mu-law byte to linear 16-bit value, as a lookup table (the byte is stored complemented). */
const MULAW_TABLE: Float32Array = (() => {
  const table = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    const u = ~i & 0xff;
    const exponent = (u >> 4) & 0x07;
    const mantissa = u & 0x0f;
    const magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84;
    table[i] = ((u & 0x80) !== 0 ? -magnitude : magnitude) / 32768;
  }
  return table;
})();

/** G.711 A-law byte to linear 16-bit value, as a lookup table (even bits inverted; a set sign bit is positive). */
const ALAW_TABLE: Float32Array = (() => {
  const table = new Float32Array(256);
  for (let i = 0; i < 256; i++) {
    const a = i ^ 0x55;
    const exponent = (a >> 4) & 0x07;
    const mantissa = (a & 0x0f) << 4;
    const magnitude = exponent === 0 ? mantissa + 8 : (mantissa + 0x108) << (exponent - 1);
    table[i] = ((a & 0x80) !== 0 ? magnitude : -magnitude) / 32768;
  }
  return table;
})();

/** A G.711 mu-law byte as a sample in [-1, 1]. */
export const mulawSample = (byte: number): number => MULAW_TABLE[byte & 0xff] ?? 0;

/** A G.711 A-law byte as a sample in [-1, 1]. */
export const alawSample = (byte: number): number => ALAW_TABLE[byte & 0xff] ?? 0;

/**
 * Decode raw little-endian samples to Float32 in [-1, 1]. The frame must already be validated as a
 * whole number of samples.
 * @throws ParleyError `PARLEY_ERR_BAD_AUDIO` for NaN or infinite `f32le` samples.
 */
export function decodePcm(encoding: AudioEncoding, frame: Uint8Array): Float32Array {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  if (encoding === 'pcm_s16le') {
    const out = new Float32Array(frame.byteLength >> 1);
    for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true) / 32768;
    return out;
  }
  if (encoding === 'mulaw') {
    const out = new Float32Array(frame.byteLength);
    for (let i = 0; i < out.length; i++) out[i] = mulawSample(frame[i] ?? 0xff);
    return out;
  }
  const out = new Float32Array(frame.byteLength >> 2);
  for (let i = 0; i < out.length; i++) {
    const v = view.getFloat32(i * 4, true);
    if (!Number.isFinite(v)) {
      throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `f32le frame has a non-finite sample at index ${i}`);
    }
    // Clip rather than reject: slightly hot float audio is common and harmless.
    out[i] = v > 1 ? 1 : v < -1 ? -1 : v;
  }
  return out;
}

/** Encode linear Float32 samples in [-1, 1] to G.711 mu-law bytes (for tests and clients). */
export function encodeMulaw(samples: Float32Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    let pcm = Math.round((samples[i] ?? 0) * 32767);
    const sign = pcm < 0 ? 0x80 : 0;
    if (pcm < 0) pcm = -pcm;
    pcm = Math.min(pcm, 32635) + 0x84;
    let exponent = 7;
    for (let mask = 0x4000; (pcm & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
    const mantissa = (pcm >> (exponent + 3)) & 0x0f;
    out[i] = ~(sign | (exponent << 4) | mantissa) & 0xff;
  }
  return out;
}

/** Encode Float32 samples in [-1, 1] to 16-bit little-endian PCM bytes. */
export function encodeS16le(samples: Float32Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out.writeInt16LE(Math.round(v < 0 ? v * 32768 : v * 32767), i * 2);
  }
  return out;
}
