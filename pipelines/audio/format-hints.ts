/**
 * Guesses at a wrong declared format, for warnings that name the likely cause: audio that keeps arriving at
 * a multiple of real time (stereo sent as mono, a higher rate than declared), and `f32le` samples sent as
 * `pcm_s16le`. Neither refuses anything: valid audio can look like either for a while.
 */

/** Float32 exponents of samples from about 2^-27 up to 1 (audio in [-1, 1] that is not silence). */
const F32_EXPONENTS = { min: 100, max: 127 } as const;

/**
 * Whether a `pcm_s16le` frame's words look like the halves of little-endian float32 samples: the high half
 * of each pair (its sign, exponent and top of the mantissa) nearly always holds an audio exponent, which s16
 * audio, crossing zero all the time, does not. Undefined for a frame with too few non-zero pairs to tell (silence).
 */
export function looksLikeF32(frame: Uint8Array): boolean | undefined {
  const pairs = Math.floor(frame.length / 4);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  let heard = 0;
  let audioExponent = 0;
  for (let i = 0; i < pairs; i++) {
    const high = view.getUint16(i * 4 + 2, true);
    if (high === 0 || high === 0x8000) continue;
    heard += 1;
    const exponent = (high >> 7) & 0xff;
    if (exponent >= F32_EXPONENTS.min && exponent <= F32_EXPONENTS.max) audioExponent += 1;
  }
  if (heard < 80 || heard < pairs / 2) return undefined;
  return audioExponent >= heard * 0.95;
}

/** The warning for {@link looksLikeF32}. */
export const F32_AS_S16_HINT = 'the audio looks like 32-bit float samples (encoding=f32le) sent as pcm_s16le: '
  + 'reconnect with encoding=f32le, or convert to 16-bit integers; as declared it is heard as noise';

/**
 * A hint for audio arriving `ratio` times faster than real time over at least a few seconds (whole-stream rate):
 * near 2× or more, the client probably sends more samples per second than it declared. Undefined below 1.4×,
 * and for a burst (over 8×, a client sending what it held).
 */
export function rateHint(ratio: number): string | undefined {
  if (ratio < 1.4 || ratio > 8) return undefined;
  return `it keeps arriving at about ${ratio.toFixed(1)}× real time, which a wrong format explains: check channels `
    + '(only mono is taken: stereo sent as mono arrives at 2×) and sample_rate (audio at a higher rate than declared)';
}
