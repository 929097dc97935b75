/** Prosodic features of one utterance's 16 kHz mono audio span. */
export interface Prosody {
  /** Mean fundamental frequency over voiced frames, in Hz; null when nothing was voiced. */
  f0MeanHz: number | null;
  /** Range (5th to 95th percentile) of F0 over voiced frames, in Hz. */
  f0RangeHz: number;
  /** Root-mean-square amplitude of the span (samples in [-1, 1]). */
  rms: number;
  /** Words per second of the span. */
  wordsPerSecond: number;
  /** Fraction of frames judged voiced. */
  voicedRatio: number;
}

const FRAME = 640; // 40 ms at 16 kHz
const MIN_F0 = 70;
const MAX_F0 = 400;

/** F0 of one frame by normalised autocorrelation, or null when unvoiced. */
function frameF0(x: Float32Array, start: number, sampleRate: number): number | null {
  const minLag = Math.floor(sampleRate / MAX_F0);
  const maxLag = Math.ceil(sampleRate / MIN_F0);
  let energy = 0;
  for (let i = 0; i < FRAME; i++) energy += (x[start + i] ?? 0) ** 2;
  if (energy / FRAME < 1e-5) return null;
  const rs = new Float32Array(maxLag + 2);
  let best = 0;
  for (let lag = minLag; lag <= maxLag + 1; lag++) {
    let num = 0;
    let den = 0;
    for (let i = 0; i + lag < FRAME; i++) {
      const a = x[start + i] ?? 0;
      const b = x[start + i + lag] ?? 0;
      num += a * b;
      den += a * a + b * b;
    }
    rs[lag] = den > 0 ? (2 * num) / den : 0;
    if (lag <= maxLag) best = Math.max(best, rs[lag] ?? 0);
  }
  // The shortest lag that peaks close to the best avoids picking a sub-harmonic (2T, 3T…).
  let bestLag = 0;
  for (let lag = minLag; lag <= maxLag; lag++) {
    const r = rs[lag] ?? 0;
    if (r >= 0.9 * best && r >= (rs[lag - 1] ?? 0) && r >= (rs[lag + 1] ?? 0)) {
      bestLag = lag;
      break;
    }
  }
  return best >= 0.5 && bestLag > 0 ? sampleRate / bestLag : null;
}

/** Pitch, energy and speaking rate of `samples` (mono, `sampleRate` Hz, default 16000). */
export function computeProsody(samples: Float32Array, wordCount: number, sampleRate = 16_000): Prosody {
  let sum = 0;
  for (const s of samples) sum += s * s;
  const f0s: number[] = [];
  let frames = 0;
  for (let start = 0; start + FRAME <= samples.length; start += FRAME) {
    frames++;
    const f0 = frameF0(samples, start, sampleRate);
    if (f0 !== null) f0s.push(f0);
  }
  f0s.sort((a, b) => a - b);
  const pct = (p: number): number => f0s[Math.min(f0s.length - 1, Math.floor(p * f0s.length))] ?? 0;
  const seconds = samples.length / sampleRate;
  return {
    f0MeanHz: f0s.length > 0 ? f0s.reduce((a, b) => a + b, 0) / f0s.length : null,
    f0RangeHz: f0s.length > 0 ? pct(0.95) - pct(0.05) : 0,
    rms: samples.length > 0 ? Math.sqrt(sum / samples.length) : 0,
    wordsPerSecond: seconds > 0 ? wordCount / seconds : 0,
    voicedRatio: frames > 0 ? f0s.length / frames : 0,
  };
}

/**
 * Arousal in [0, 1] from prosody relative to a speaker baseline (loud, fast, wide-pitched speech
 * is aroused). Without a baseline, typical conversational values are used.
 */
export function arousal(p: Prosody, baseline: Partial<Prosody> = {}): number {
  const rmsRatio = p.rms / (baseline.rms ?? 0.05);
  const rateRatio = p.wordsPerSecond / (baseline.wordsPerSecond ?? 2.5);
  const rangeRatio = p.f0RangeHz / (baseline.f0RangeHz || 60);
  // Each ratio is floored at 1/4 so one missing cue (e.g. a flat pitch) cannot swamp the others.
  const lg = (r: number): number => Math.log2(Math.max(0.25, r));
  const score = (lg(rmsRatio) + lg(rateRatio) + lg(rangeRatio)) / 3;
  return Math.min(1, Math.max(0, 0.5 + score / 2));
}
