/**
 * The telephone-band copy of a wideband turn, the "per-band voiceprints" alternative that bench:speaker-crossband
 * measured (and that was not chosen: on the dev half it accepted more other speakers than the cross-band offset).
 */
import LibSampleRate from '@alexanderolsen/libsamplerate-js';
import { decodePcm, encodeMulaw } from '../../pipelines/audio/pcm-codecs.js';
import { SPEAKER_SAMPLE_RATE } from '../../pipelines/speaker/speaker-embedder.js';

/** Edges of the telephone band, in Hz (ITU-T G.712's 300–3400 Hz pass band). */
export const TELEPHONE_BAND_HZ = { low: 300, high: 3400 } as const;

/** Rate of a telephone channel, in Hz. */
const PHONE_RATE = 8000;

/** One biquad section (direct form I), coefficients normalised by a0. */
interface Biquad { b0: number; b1: number; b2: number; a1: number; a2: number }

/** RBJ cookbook Butterworth-Q (1/√2) high- or low-pass section at `hz` for `rate`. */
function section(kind: 'high' | 'low', hz: number, rate: number): Biquad {
  const w = (2 * Math.PI * hz) / rate;
  const alpha = Math.sin(w) / Math.SQRT2;
  const cos = Math.cos(w);
  const a0 = 1 + alpha;
  const k = kind === 'low' ? (1 - cos) / 2 : (1 + cos) / 2;
  const b1 = kind === 'low' ? 1 - cos : -(1 + cos);
  return { b0: k / a0, b1: b1 / a0, b2: k / a0, a1: (-2 * cos) / a0, a2: (1 - alpha) / a0 };
}

function filter(x: Float32Array, s: Biquad): Float32Array {
  const y = new Float32Array(x.length);
  let x1 = 0, x2 = 0, y1 = 0, y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    const out = s.b0 * v + s.b1 * x1 + s.b2 * x2 - s.a1 * y1 - s.a2 * y2;
    x2 = x1; x1 = v; y2 = y1; y1 = out;
    y[i] = out;
  }
  return y;
}

async function resample(x: Float32Array, from: number, to: number): Promise<Float32Array> {
  const src = await LibSampleRate.create(1, from, to, { converterType: LibSampleRate.ConverterType.SRC_SINC_FASTEST });
  try {
    // `simple` returns a view over WASM memory: copy it out before the converter is destroyed.
    return Float32Array.from(src.simple(x));
  } finally {
    src.destroy();
  }
}

/**
 * What a telephone line would deliver of a 16 kHz turn, back at 16 kHz as the server decodes a phone stream:
 * band-passed to 300–3400 Hz (second-order Butterworth edges), resampled to 8 kHz, G.711 μ-law coded, and
 * resampled to 16 kHz with the converter phone streams use. Deterministic (no dither).
 */
export async function telephoneBand(audio: Float32Array): Promise<Float32Array> {
  let x = filter(audio, section('high', TELEPHONE_BAND_HZ.low, SPEAKER_SAMPLE_RATE));
  x = filter(x, section('low', TELEPHONE_BAND_HZ.high, SPEAKER_SAMPLE_RATE));
  const narrow = await resample(x, SPEAKER_SAMPLE_RATE, PHONE_RATE);
  const coded = decodePcm('mulaw', encodeMulaw(narrow));
  return resample(coded, PHONE_RATE, SPEAKER_SAMPLE_RATE);
}
