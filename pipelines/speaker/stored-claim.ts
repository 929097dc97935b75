import { scoreLlr, type Candidate, type ScoreCalibration } from './speaker-decision.js';

/**
 * How a turn may claim an id stored before this session and not yet heard in it (issue #17 item 2: returning
 * speakers taken for someone else). A wrong stored identity puts one person's facts on another, which is worse than a
 * new id (the end-of-session clustering or a later session can still join a new id to its person), so such a claim can
 * be made to need more evidence than the decision's log priors ask: an extra cost, a margin over the next stored
 * voice, and enough voiced speech. Ids already heard in this session (founded here, or stored and claimed earlier in
 * it) are untouched.
 */
export interface StoredClaim {
  /** Log-likelihood ratio (natural log) a stored id not yet heard in this session pays beyond its log prior 0 (≥ 0). */
  cost: number;
  /**
   * LLR (natural log) by which the best such id must beat the next-best such id (≥ 0; 0: no margin); below it none of
   * them may be claimed by this turn.
   */
  margin: number;
  /** Voiced seconds a turn needs to claim such an id (≥ 0); a shorter turn stays with this session's ids or founds one. */
  minSeconds: number;
}

/** Throws on a setting that cannot be applied. */
export function validateStoredClaim(c: StoredClaim): void {
  for (const k of ['cost', 'margin', 'minSeconds'] as const) {
    const x = c[k];
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) throw new RangeError(`storedClaim.${k} must be a finite number >= 0`);
  }
}

/**
 * The candidates with `claim` applied: every id not heard in this session pays `cost` more LLR, and may not be chosen
 * at all (offset +Infinity) when the turn has under `minSeconds` voiced seconds or the best such id does not beat the
 * next such id by `margin`. LLRs are scored at `llrSeconds` (what the decision scores the turn at).
 */
export function gateStoredClaims(claim: StoredClaim, calibration: ScoreCalibration, candidates: readonly Candidate[], voicedSeconds: number, llrSeconds = voicedSeconds): Candidate[] {
  const stored = candidates.filter((c) => !c.inSession);
  if (stored.length === 0) return [...candidates];
  // One score per participant: its best prototype (one per band).
  const best = new Map<string, number>();
  for (const c of stored) {
    const s = scoreLlr(calibration, c.cosine, llrSeconds) - (c.llrOffset ?? 0);
    best.set(c.participantId, Math.max(best.get(c.participantId) ?? -Infinity, s));
  }
  const [first = -Infinity, second = -Infinity] = [...best.values()].sort((x, y) => y - x);
  const barred = voicedSeconds < claim.minSeconds || first - second < claim.margin;
  return candidates.map((c) => (c.inSession ? c : { ...c, llrOffset: barred ? Infinity : (c.llrOffset ?? 0) + claim.cost }));
}
