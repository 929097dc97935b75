import type { ResolvedVadOptions } from './vad-options.js';

/** A turn boundary found by {@link TurnSegmenter}. Times in ms on the session's audio clock. */
export type SegmentEvent =
  | { type: 'start'; /** Detected speech onset (unpadded). */ onsetMs: number }
  /** Speech paused inside an open turn: the silence that may end it has begun. */
  | { type: 'pause'; /** Where the silence began. */ silenceFromMs: number }
  | {
      type: 'stop';
      /** Where speech ended: the start of the closing silence, or the decision time when forced. */
      speechEndMs: number;
      /** Audio position at which the end of turn was decided. */
      decidedAtMs: number;
      reason: EndReason;
    };

/**
 * Why a turn ended: its closing silence, the client's commit, its longest length, or `overload`: audio after
 * it was shed under overload, so the turn closes where that unheard audio begins.
 */
export type EndReason = 'silence' | 'commit' | 'max_turn' | 'overload';

/** Longest run of sub-threshold windows a not-yet-confirmed onset survives, in ms. */
const MAX_CANDIDATE_DIP_MS = 64;

/**
 * The end-of-turn state machine over per-window speech probabilities, with hysteresis: a turn starts once
 * speech (≥ positive threshold, then staying ≥ negative) has lasted `minSpeechMs`; it ends after
 * `endSilenceMs` of windows below the negative threshold, on `commit`, or at `maxTurnMs`. The first
 * window of each such silence inside a turn is reported as a pause.
 */
export class TurnSegmenter {
  private candidateMs: number | undefined;
  private candidateDipMs = 0;
  private onsetMs: number | undefined;
  private silenceFromMs: number | undefined;

  constructor(private readonly opts: ResolvedVadOptions) {}

  /** Whether a turn is open. */
  get inSpeech(): boolean {
    return this.onsetMs !== undefined;
  }

  /** Feed one window's probability, covering `[startMs, endMs)`. */
  push(prob: number, startMs: number, endMs: number): SegmentEvent | undefined {
    const { positiveThreshold: pos, negativeThreshold: neg } = this.opts;
    if (this.onsetMs === undefined) {
      if (this.candidateMs === undefined) {
        if (prob >= pos) this.candidateMs = startMs;
        this.candidateDipMs = 0;
      } else if (prob < neg) {
        // One weak window inside a word is common; only a real pause abandons the candidate.
        this.candidateDipMs += endMs - startMs;
        if (this.candidateDipMs > MAX_CANDIDATE_DIP_MS) this.candidateMs = undefined;
      } else {
        this.candidateDipMs = 0;
      }
      if (this.candidateMs !== undefined && prob >= neg && endMs - this.candidateMs >= this.opts.minSpeechMs) {
        this.onsetMs = this.candidateMs;
        this.candidateMs = undefined;
        this.silenceFromMs = undefined;
        return { type: 'start', onsetMs: this.onsetMs };
      }
      return undefined;
    }
    const paused = this.silenceFromMs === undefined && prob < neg;
    if (prob >= pos) this.silenceFromMs = undefined;
    else if (prob < neg) this.silenceFromMs ??= startMs;
    if (this.silenceFromMs !== undefined && endMs - this.silenceFromMs >= this.opts.endSilenceMs) {
      return this.end(this.silenceFromMs, endMs, 'silence');
    }
    if (endMs - this.onsetMs >= this.opts.maxTurnMs) return this.end(endMs, endMs, 'max_turn');
    return paused ? { type: 'pause', silenceFromMs: startMs } : undefined;
  }

  /**
   * Force the open turn to end at `nowMs` (`reason` `commit`, or `overload` where the audio after `nowMs` was
   * shed); any onset not yet confirmed is dropped. `undefined` when no turn is open.
   */
  commit(nowMs: number, reason: 'commit' | 'overload' = 'commit'): SegmentEvent | undefined {
    this.candidateMs = undefined;
    this.candidateDipMs = 0;
    if (this.onsetMs === undefined) return undefined;
    return this.end(this.silenceFromMs ?? nowMs, nowMs, reason);
  }

  private end(speechEndMs: number, decidedAtMs: number, reason: EndReason): SegmentEvent {
    this.onsetMs = undefined;
    this.silenceFromMs = undefined;
    return { type: 'stop', speechEndMs, decidedAtMs, reason };
  }
}
