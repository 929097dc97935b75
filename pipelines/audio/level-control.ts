/**
 * Causal automatic gain control (AGC) for one stream's 16 kHz audio, meant for the VAD's input: Silero v5
 * hears quiet far-field talkers less well than the same speech at a normal level (bench/vad-real.ts).
 *
 * Defaults (−20 dBFS, at most +30 dB, 2 s release, no noise gate) were chosen on development speakers only
 * (bench/vad-level.ts `--dev`, docs/BENCHMARKS.md).
 *
 * The level is a peak-following envelope of the short-term RMS (20 ms smoothing, instant attack, slow
 * exponential release); the gain brings that envelope to `targetDbfs`, at most `maxGainDb`, never below
 * 0 dB (loud audio is left as it is). With `noiseCapDbfs` set, the gain is also held low enough that the
 * stream's noise floor (the quietest 32 ms block RMS of the last 2 s) stays at or under that level, so
 * silence and steady noise are not raised towards speech level. Output sample n depends on input samples
 * ≤ n only; output is clamped to [−1, 1]. One instance per stream: it holds that stream's state.
 */

/** Settings of {@link LevelControl}; levels in dB relative to full scale (1.0). */
export interface LevelControlOptions {
  /** Level the envelope is brought to. Default −20 dBFS. */
  targetDbfs?: number;
  /** Largest gain applied. Default 30 dB. */
  maxGainDb?: number;
  /** Release time constant of the envelope, seconds (it falls by 8.7 dB per `releaseS`). Default 2 s. */
  releaseS?: number;
  /**
   * Noise gate: the gain keeps the noise floor at or under this level; `null` for no gate. Default `null`:
   * on the development speakers a −50 dBFS gate scored lower and did not keep babble out of turns either.
   */
  noiseCapDbfs?: number | null;
  /** Sample rate of the audio. Default 16000. */
  sampleRate?: number;
}

/** {@link LevelControlOptions} with every default applied. */
export type ResolvedLevelControlOptions = Required<LevelControlOptions>;

/** Apply the documented defaults and check ranges. */
export function resolveLevelControlOptions(o: LevelControlOptions = {}): ResolvedLevelControlOptions {
  const r: ResolvedLevelControlOptions = {
    targetDbfs: o.targetDbfs ?? -20,
    maxGainDb: o.maxGainDb ?? 30,
    releaseS: o.releaseS ?? 2,
    noiseCapDbfs: o.noiseCapDbfs === undefined ? null : o.noiseCapDbfs,
    sampleRate: o.sampleRate ?? 16000,
  };
  if (!(r.targetDbfs <= 0 && r.targetDbfs >= -60)) throw new RangeError('level control targetDbfs must be in [-60, 0]');
  if (!(r.maxGainDb >= 0 && r.maxGainDb <= 60)) throw new RangeError('level control maxGainDb must be in [0, 60]');
  if (!(r.releaseS > 0 && r.releaseS <= 60)) throw new RangeError('level control releaseS must be in (0, 60]');
  if (r.noiseCapDbfs !== null && !(r.noiseCapDbfs <= 0 && r.noiseCapDbfs >= -100)) {
    throw new RangeError('level control noiseCapDbfs must be in [-100, 0] or null');
  }
  if (!(Number.isInteger(r.sampleRate) && r.sampleRate >= 8000)) throw new RangeError('level control sampleRate must be an integer >= 8000');
  return r;
}

const dbToAmp = (db: number): number => 10 ** (db / 20);
/** Block length of the noise-floor tracker, seconds (Silero's window at 16 kHz). */
const FLOOR_BLOCK_S = 0.032;
/** How far back the noise floor looks, seconds. */
const FLOOR_SPAN_S = 2;
/** Smoothing of the short-term power, seconds. */
const POWER_TAU_S = 0.02;

/** One stream's level control; see the module comment. */
export class LevelControl {
  readonly options: ResolvedLevelControlOptions;
  private readonly target: number;
  private readonly maxGain: number;
  private readonly cap: number;
  private readonly powerAlpha: number;
  private readonly release: number;
  private readonly blockSamples: number;
  /** RMS of the last completed blocks (ring), for the noise floor. */
  private readonly blocks: Float64Array;
  private blocksFilled = 0;
  private blockAt = 0;
  private blockSum = 0;
  private blockCount = 0;
  private floorOfBlocks = Infinity;
  private power = 0;
  private envelope: number;
  private lastGain: number;

  constructor(options: LevelControlOptions = {}) {
    this.options = resolveLevelControlOptions(options);
    const o = this.options;
    this.target = dbToAmp(o.targetDbfs);
    this.maxGain = dbToAmp(o.maxGainDb);
    this.cap = o.noiseCapDbfs === null ? Infinity : dbToAmp(o.noiseCapDbfs);
    this.powerAlpha = 1 - Math.exp(-1 / (o.sampleRate * POWER_TAU_S));
    this.release = Math.exp(-1 / (o.sampleRate * o.releaseS));
    this.blockSamples = Math.round(o.sampleRate * FLOOR_BLOCK_S);
    this.blocks = new Float64Array(Math.round(FLOOR_SPAN_S / FLOOR_BLOCK_S));
    // Start at the largest gain: the first speech pulls the envelope up at once.
    this.envelope = this.target / this.maxGain;
    this.lastGain = this.maxGain;
  }

  /** Gain applied to the last sample processed, in dB. */
  get gainDb(): number {
    return 20 * Math.log10(this.lastGain);
  }

  /**
   * Gain-controlled copy of `x` (the next samples of the stream), written into `out` when given (it may be
   * `x` itself) and returned.
   */
  process(x: Float32Array, out: Float32Array = new Float32Array(x.length)): Float32Array {
    if (out.length < x.length) throw new RangeError('level control output buffer is shorter than its input');
    let { power, envelope, blockSum, blockCount } = this;
    let gain = this.lastGain;
    for (let i = 0; i < x.length; i++) {
      const v = x[i] ?? 0;
      const sq = v * v;
      power += this.powerAlpha * (sq - power);
      const rms = Math.sqrt(power);
      envelope = rms > envelope * this.release ? rms : envelope * this.release;
      blockSum += sq;
      blockCount++;
      if (blockCount === this.blockSamples) {
        this.pushBlock(Math.sqrt(blockSum / blockCount));
        blockSum = 0;
        blockCount = 0;
      }
      // Before the first block completes, the floor is the level of the samples so far.
      const floor = this.blocksFilled > 0 ? this.floorOfBlocks : Math.sqrt(blockSum / Math.max(1, blockCount));
      gain = Math.min(this.maxGain, this.target / envelope, floor > 0 ? this.cap / floor : Infinity);
      if (gain < 1) gain = 1;
      const y = v * gain;
      out[i] = y > 1 ? 1 : y < -1 ? -1 : y;
    }
    this.power = power;
    this.envelope = envelope;
    this.blockSum = blockSum;
    this.blockCount = blockCount;
    this.lastGain = gain;
    return out;
  }

  private pushBlock(rms: number): void {
    this.blocks[this.blockAt] = rms;
    this.blockAt = (this.blockAt + 1) % this.blocks.length;
    if (this.blocksFilled < this.blocks.length) this.blocksFilled++;
    let min = Infinity;
    for (let k = 0; k < this.blocksFilled; k++) min = Math.min(min, this.blocks[k] ?? Infinity);
    this.floorOfBlocks = min;
  }
}
