import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';
import { readSpeakerParams, scoreLlr, type Candidate, type ScoreCalibration } from './speaker-decision.js';
import { bandOffset, type BandOffsets, type VoiceBand } from './voice-bands.js';

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

/**
 * End-of-session claims (helper speech21): a new id of this session claims a stored id not heard in it from all of its
 * session's speech pooled (the voiced-seconds-weighted mean of its utterances' embeddings, scored at their summed
 * seconds), where one turn was too little to tell. The end-of-session clustering never joins a new id to a stored id
 * that was not heard in the session; this does.
 */
export interface PooledClaim {
  /** Voiced seconds a new id needs in the session to claim a stored id (> 0). */
  minSeconds: number;
  /**
   * LLR (natural log) by which the stored id must beat a new voice's log prior and the next stored id (≥ 0).
   */
  margin: number;
}

/** Throws on a setting that cannot be applied. */
export function validatePooledClaim(c: PooledClaim): void {
  if (!(Number.isFinite(c.minSeconds) && c.minSeconds > 0)) throw new RangeError('pooledClaim.minSeconds must be a finite number of seconds > 0');
  if (!(Number.isFinite(c.margin) && c.margin >= 0)) throw new RangeError('pooledClaim.margin must be a finite number >= 0');
}

/** One id of the session at its end, as {@link pooledClaims} sees it. */
export interface PooledId {
  participantId: string;
  /** Known before this session (stored). */
  known: boolean;
  utterances: readonly { vector: Float32Array; seconds: number }[];
}

/**
 * The new ids of the session that claim a stored id, as merges `{ from: new id, into: stored id }`: strongest claim
 * first, each stored id and each new id at most once. `prints` are the stored prototypes; those of ids heard in the
 * session (`ids` with `known`) are not claimable, nor a stored id in a `cannotLink` pair with the new id (one named the
 * other, different external ids). `logPriorNew` is the decision's. With `band` (the session's band and the decision's
 * band offsets), each print's LLR pays the offset the single-turn decision charges a turn of that band against it
 * (`bandOffset`: a phone session against phone prints, or across bands); a print without a band counts as wideband.
 */
export function pooledClaims(
  rule: PooledClaim, calibration: ScoreCalibration, logPriorNew: number, ids: readonly PooledId[],
  prints: readonly { participantId: string; vector: Float32Array; known: boolean; band?: VoiceBand }[],
  cannotLink: Iterable<readonly [string, string]> = [], band: { session: VoiceBand; offsets: BandOffsets } | null = null,
): { from: string; into: string }[] {
  const heard = new Set(ids.map((x) => x.participantId));
  const apart = new Set([...cannotLink].flatMap(([a, b]) => [`${a}\u0000${b}`, `${b}\u0000${a}`]));
  const all = prints.filter((p) => p.known && !heard.has(p.participantId));
  const claims: { from: string; into: string; llr: number }[] = [];
  for (const id of ids) {
    if (id.known) continue;
    const seconds = id.utterances.reduce((a, u) => a + u.seconds, 0);
    const open = all.filter((p) => !apart.has(`${id.participantId}\u0000${p.participantId}`));
    if (seconds < rule.minSeconds || open.length === 0) continue;
    const pooled = new Float32Array(id.utterances[0]!.vector.length);
    for (const u of id.utterances) for (let i = 0; i < pooled.length; i++) pooled[i] = pooled[i]! + u.seconds * u.vector[i]!;
    const norm = Math.hypot(...pooled) || 1;
    const best = new Map<string, number>();
    for (const p of open) {
      let dot = 0;
      for (let i = 0; i < pooled.length; i++) dot += (pooled[i]! / norm) * p.vector[i]!;
      const offset = band ? bandOffset(band.offsets, band.session, p.band ?? 'wideband') : 0;
      best.set(p.participantId, Math.max(best.get(p.participantId) ?? -Infinity, scoreLlr(calibration, dot, seconds) - offset));
    }
    const ranked = [...best.entries()].sort((x, y) => y[1] - x[1]);
    const [into, llr] = ranked[0]!;
    const second = ranked[1]?.[1] ?? -Infinity;
    if (llr - logPriorNew >= rule.margin && llr - second >= rule.margin && llr > logPriorNew) claims.push({ from: id.participantId, into, llr });
  }
  const taken = new Set<string>();
  const out: { from: string; into: string }[] = [];
  for (const c of claims.sort((x, y) => y.llr - x.llr)) {
    if (taken.has(c.into)) continue;
    taken.add(c.into);
    out.push({ from: c.from, into: c.into });
  }
  return out;
}

/** What `pipelines/speaker/params/<modelId>-pooled-claim.json` holds: the setting chosen for an embedder (bench/speaker-drift.ts). */
export interface PooledClaimParams {
  modelId: string;
  pooledClaim: PooledClaim;
}

/**
 * The end-of-session claim chosen for an embedder, or null when none was chosen for it. Throws on a file that is not a
 * valid setting or was chosen for another embedder.
 */
export function chosenPooledClaim(modelId: string): PooledClaim | null {
  const file = path.join(repoRoot(), 'pipelines', 'speaker', 'params', `${path.basename(modelId)}-pooled-claim.json`);
  return readSpeakerParams<PooledClaimParams>(file, modelId, (p) => validatePooledClaim(p.pooledClaim ?? ({} as PooledClaim)))?.pooledClaim ?? null;
}
