/**
 * Voice activity and end-of-turn settings, run as Silero's authors run the model: speech starts at the
 * onset threshold and ends below a lower offset threshold (hysteresis), must last `minSpeechMs`, ends after
 * `endSilenceMs` of silence, and each turn is padded before its onset. All durations in milliseconds.
 * The defaults were kept after a grid search on real far-field and phone speech (bench/vad-real.ts,
 * docs/BENCHMARKS.md): onset 0.4–0.7 and minimum speech 96–250 ms scored within 0.03 of each other.
 */
export interface VadOptions {
  /** Onset: speech probability at or above which a window counts as speech. Default 0.5 (Silero's own). */
  positiveThreshold?: number;
  /**
   * Offset: speech probability below which a window counts as silence (hysteresis between the two).
   * Default `positiveThreshold − 0.15`, at least 0 (as Silero's `get_speech_timestamps`): 0.35 at 0.5.
   */
  negativeThreshold?: number;
  /** Speech must last this long before a turn starts (filters clicks and coughs). Default 200 ms. */
  minSpeechMs?: number;
  /** Silence after speech that ends the turn (Silero's minimum silence, here the end-of-turn wait). Default 500 ms. */
  endSilenceMs?: number;
  /** Audio kept before the detected onset and given to the recogniser and the turn's span. Default 300 ms. */
  prePaddingMs?: number;
  /** A turn longer than this is ended by force. Default 30000 ms. */
  maxTurnMs?: number;
  /**
   * Gain control before the VAD (`LevelControl` in level-control.ts, its defaults): `vad` gains the audio the VAD hears
   * only, `vad+asr` also what the recogniser and the turn's span get, `off` none. Default `vad` (chosen on
   * development speakers in bench/vad-level.ts; see docs/BENCHMARKS.md).
   */
  gainControl?: GainControlMode;
}

/** Where {@link VadOptions.gainControl} applies. */
export type GainControlMode = 'off' | 'vad' | 'vad+asr';
/** The values of {@link GainControlMode}, for configuration parsing. */
export const GAIN_CONTROL_MODES: readonly GainControlMode[] = ['off', 'vad', 'vad+asr'];

/** Offset threshold below the onset threshold when not set, as in Silero's reference implementation. */
export const VAD_HYSTERESIS = 0.15;

/** {@link VadOptions} with every default applied. */
export type ResolvedVadOptions = Required<VadOptions>;

/** Apply the documented defaults and check ranges. */
export function resolveVadOptions(o: VadOptions = {}): ResolvedVadOptions {
  const positiveThreshold = o.positiveThreshold ?? 0.5;
  const r: ResolvedVadOptions = {
    positiveThreshold,
    negativeThreshold: o.negativeThreshold ?? Math.max(0, positiveThreshold - VAD_HYSTERESIS),
    minSpeechMs: o.minSpeechMs ?? 200,
    endSilenceMs: o.endSilenceMs ?? 500,
    prePaddingMs: o.prePaddingMs ?? 300,
    maxTurnMs: o.maxTurnMs ?? 30000,
    gainControl: o.gainControl ?? 'vad',
  };
  if (!GAIN_CONTROL_MODES.includes(r.gainControl)) throw new RangeError(`VAD option gainControl must be one of ${GAIN_CONTROL_MODES.join(', ')}`);
  if (!(r.negativeThreshold <= r.positiveThreshold && r.negativeThreshold >= 0 && r.positiveThreshold <= 1)) {
    throw new RangeError('VAD thresholds must satisfy 0 <= negativeThreshold <= positiveThreshold <= 1');
  }
  for (const k of ['minSpeechMs', 'endSilenceMs', 'prePaddingMs', 'maxTurnMs'] as const) {
    if (!(r[k] >= 0 && Number.isFinite(r[k]))) throw new RangeError(`VAD option ${k} must be a finite number >= 0`);
  }
  return r;
}
