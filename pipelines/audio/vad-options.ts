/** Voice activity and end-of-turn settings. All durations in milliseconds. */
export interface VadOptions {
  /** Speech probability at or above which a window counts as speech. Default 0.5. */
  positiveThreshold?: number;
  /** Speech probability below which a window counts as silence (hysteresis between the two). Default 0.35. */
  negativeThreshold?: number;
  /** Speech must last this long before a turn starts (filters clicks and coughs). Default 200 ms. */
  minSpeechMs?: number;
  /** Silence after speech that ends the turn. Default 500 ms. */
  endSilenceMs?: number;
  /** Audio kept before the detected onset and given to the recogniser and the turn's span. Default 300 ms. */
  prePaddingMs?: number;
  /** A turn longer than this is ended by force. Default 30000 ms. */
  maxTurnMs?: number;
}

/** {@link VadOptions} with every default applied. */
export type ResolvedVadOptions = Required<VadOptions>;

/** Apply the documented defaults and check ranges. */
export function resolveVadOptions(o: VadOptions = {}): ResolvedVadOptions {
  const r: ResolvedVadOptions = {
    positiveThreshold: o.positiveThreshold ?? 0.5,
    negativeThreshold: o.negativeThreshold ?? 0.35,
    minSpeechMs: o.minSpeechMs ?? 200,
    endSilenceMs: o.endSilenceMs ?? 500,
    prePaddingMs: o.prePaddingMs ?? 300,
    maxTurnMs: o.maxTurnMs ?? 30000,
  };
  if (!(r.negativeThreshold <= r.positiveThreshold && r.negativeThreshold >= 0 && r.positiveThreshold <= 1)) {
    throw new RangeError('VAD thresholds must satisfy 0 <= negativeThreshold <= positiveThreshold <= 1');
  }
  for (const k of ['minSpeechMs', 'endSilenceMs', 'prePaddingMs', 'maxTurnMs'] as const) {
    if (!(r[k] >= 0 && Number.isFinite(r[k]))) throw new RangeError(`VAD option ${k} must be a finite number >= 0`);
  }
  return r;
}
