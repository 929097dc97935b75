import FFT from 'fft.js';

/** Summary of the fundamental frequency over an utterance's voiced frames. */
export interface PitchStats {
  /** Median of ln(F0 in Hz) over voiced frames; 0 when nothing is voiced. */
  medianLogF0: number;
  /** Standard deviation of ln(F0) over voiced frames. */
  stdLogF0: number;
  /** Fraction of frames judged voiced, in [0, 1]. */
  voicedFraction: number;
  /** Mean normalised autocorrelation peak on voiced frames (voice periodicity), in [0, 1]. */
  meanPeriodicity: number;
}

const FRAME = 640; // 40 ms at 16 kHz: two periods of a 50 Hz voice.
const HOP = 320; // 20 ms
const FFT_SIZE = 1024;
const MIN_LAG = 32; // 500 Hz
const MAX_LAG = 320; // 50 Hz
const VOICING = 0.45;
let fft: FFT | null = null;

/**
 * Autocorrelation pitch tracker at 16 kHz (50–500 Hz). Frames quieter than `minLogEnergy`
 * (natural log of the frame's energy) are skipped as silence; by default the threshold is 8 below
 * the loudest frame (about 35 dB).
 */
export function pitchStats(audio: Float32Array, minLogEnergy?: number): PitchStats {
  fft ??= new FFT(FFT_SIZE);
  const frames = audio.length < FRAME ? 0 : 1 + Math.floor((audio.length - FRAME) / HOP);
  const energies = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let e = 0;
    for (let i = 0; i < FRAME; i++) e += audio[f * HOP + i]! ** 2;
    energies[f] = Math.log(e + 1e-10);
  }
  let maxE = -Infinity;
  for (const e of energies) maxE = Math.max(maxE, e);
  const threshold = minLogEnergy ?? maxE - 8;
  const buf = new Float64Array(FFT_SIZE);
  const spec = fft.createComplexArray() as number[];
  const acf = fft.createComplexArray() as number[];
  const logF0: number[] = [];
  let periodicity = 0;
  let considered = 0;
  for (let f = 0; f < frames; f++) {
    if (energies[f]! < threshold) continue;
    considered++;
    let mean = 0;
    for (let i = 0; i < FRAME; i++) mean += audio[f * HOP + i]!;
    mean /= FRAME;
    for (let i = 0; i < FRAME; i++) buf[i] = audio[f * HOP + i]! - mean;
    buf.fill(0, FRAME);
    fft.realTransform(spec, buf);
    fft.completeSpectrum(spec);
    for (let k = 0; k < FFT_SIZE; k++) {
      spec[2 * k] = spec[2 * k]! ** 2 + spec[2 * k + 1]! ** 2;
      spec[2 * k + 1] = 0;
    }
    fft.inverseTransform(acf, spec);
    const r0 = acf[0]!;
    if (r0 <= 0) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
      // Unbias: the overlap shrinks as the lag grows.
      const r = (acf[2 * lag]! / r0) * (FRAME / (FRAME - lag));
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best >= VOICING && bestLag > 0) {
      logF0.push(Math.log(16_000 / bestLag));
      periodicity += Math.min(best, 1);
    }
  }
  if (logF0.length === 0) return { medianLogF0: 0, stdLogF0: 0, voicedFraction: 0, meanPeriodicity: 0 };
  const sorted = [...logF0].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  let v = 0;
  for (const x of logF0) v += (x - median) ** 2;
  return {
    medianLogF0: median,
    stdLogF0: Math.sqrt(v / logF0.length),
    voicedFraction: logF0.length / Math.max(considered, 1),
    meanPeriodicity: periodicity / logF0.length,
  };
}
