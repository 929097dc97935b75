import FFT from 'fft.js';

/** Options of the Kaldi-style log-mel filterbank front end. */
export interface FbankOptions {
  /** Number of mel bins (80 for WeSpeaker, 40 for the statistics embedder). */
  numBins: number;
  /** Sample rate in Hz. Default 16000. */
  sampleRate?: number;
  /** Window length in milliseconds. Default 25. */
  frameLengthMs?: number;
  /** Hop in milliseconds. Default 10. */
  frameShiftMs?: number;
  /** Lowest filter edge in Hz. Default 20. */
  lowFreq?: number;
  /** Highest filter edge in Hz; default the Nyquist frequency. */
  highFreq?: number;
  /** Pre-emphasis coefficient. Default 0.97. */
  preemphasis?: number;
}

/** Log-mel features: `frames` rows of `numBins` values, row-major, plus per-frame log energy. */
export interface Fbank {
  data: Float32Array;
  frames: number;
  numBins: number;
  /** Natural-log energy of each frame before windowing (for silence trimming). */
  logEnergy: Float32Array;
}

const melScale = (hz: number): number => 1127 * Math.log(1 + hz / 700);

interface Plan {
  fft: FFT;
  fftSize: number;
  frameLen: number;
  shift: number;
  window: Float64Array;
  /** Per bin: first FFT bin index and weights. */
  filters: { start: number; weights: Float64Array }[];
  preemph: number;
}

const plans = new Map<string, Plan>();

function plan(o: FbankOptions): Plan {
  const sr = o.sampleRate ?? 16_000;
  const key = JSON.stringify([o.numBins, sr, o.frameLengthMs, o.frameShiftMs, o.lowFreq, o.highFreq, o.preemphasis]);
  const cached = plans.get(key);
  if (cached) return cached;
  const frameLen = Math.round((sr * (o.frameLengthMs ?? 25)) / 1000);
  const shift = Math.round((sr * (o.frameShiftMs ?? 10)) / 1000);
  let fftSize = 1;
  while (fftSize < frameLen) fftSize *= 2;
  // Povey window: a Hann window raised to 0.85, Kaldi's default.
  const window = new Float64Array(frameLen);
  for (let i = 0; i < frameLen; i++) window[i] = Math.pow(0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (frameLen - 1)), 0.85);
  const lowMel = melScale(o.lowFreq ?? 20);
  const highMel = melScale(o.highFreq ?? sr / 2);
  const delta = (highMel - lowMel) / (o.numBins + 1);
  const filters: Plan['filters'] = [];
  const half = fftSize / 2;
  for (let b = 0; b < o.numBins; b++) {
    const left = lowMel + b * delta;
    const centre = left + delta;
    const right = centre + delta;
    let start = -1;
    const w: number[] = [];
    for (let k = 0; k < half; k++) {
      const mel = melScale((k * sr) / fftSize);
      const weight = mel > left && mel < right ? (mel <= centre ? (mel - left) / delta : (right - mel) / delta) : 0;
      if (weight > 0) {
        if (start < 0) start = k;
        w.push(weight);
      } else if (start >= 0) break;
    }
    filters.push({ start: Math.max(start, 0), weights: Float64Array.from(w) });
  }
  const p: Plan = { fft: new FFT(fftSize), fftSize, frameLen, shift, window, filters, preemph: o.preemphasis ?? 0.97 };
  plans.set(key, p);
  return p;
}

/**
 * Kaldi-style log-mel filterbank (no dither, DC removal, pre-emphasis, Povey window, power
 * spectrum, triangular mel filters, natural log with a floor). Returns zero frames for audio
 * shorter than one window.
 */
export function computeFbank(audio: Float32Array, options: FbankOptions): Fbank {
  const p = plan(options);
  const frames = audio.length < p.frameLen ? 0 : 1 + Math.floor((audio.length - p.frameLen) / p.shift);
  const data = new Float32Array(frames * options.numBins);
  const logEnergy = new Float32Array(frames);
  const buf = new Float64Array(p.fftSize);
  const out = p.fft.createComplexArray() as number[];
  const floor = 1.1920929e-7;
  for (let f = 0; f < frames; f++) {
    const off = f * p.shift;
    let mean = 0;
    for (let i = 0; i < p.frameLen; i++) mean += audio[off + i]!;
    mean /= p.frameLen;
    let energy = 0;
    for (let i = 0; i < p.frameLen; i++) {
      const v = audio[off + i]! - mean;
      buf[i] = v;
      energy += v * v;
    }
    logEnergy[f] = Math.log(Math.max(energy, floor));
    for (let i = p.frameLen - 1; i > 0; i--) buf[i] = buf[i]! - p.preemph * buf[i - 1]!;
    buf[0] = buf[0]! - p.preemph * buf[0]!;
    for (let i = 0; i < p.frameLen; i++) buf[i] = buf[i]! * p.window[i]!;
    buf.fill(0, p.frameLen);
    p.fft.realTransform(out, buf);
    const row = f * options.numBins;
    for (let b = 0; b < options.numBins; b++) {
      const flt = p.filters[b]!;
      let s = 0;
      for (let j = 0; j < flt.weights.length; j++) {
        const k = flt.start + j;
        const re = out[2 * k]!;
        const im = out[2 * k + 1]!;
        s += flt.weights[j]! * (re * re + im * im);
      }
      data[row + b] = Math.log(Math.max(s, floor));
    }
  }
  return { data, frames, numBins: options.numBins, logEnergy };
}

/** Subtract each bin's mean over the utterance, in place (cepstral mean normalisation). */
export function subtractMean(fb: Fbank): Fbank {
  const { data, frames, numBins } = fb;
  if (frames === 0) return fb;
  for (let b = 0; b < numBins; b++) {
    let m = 0;
    for (let f = 0; f < frames; f++) m += data[f * numBins + b]!;
    m /= frames;
    for (let f = 0; f < frames; f++) data[f * numBins + b] = data[f * numBins + b]! - m;
  }
  return fb;
}
