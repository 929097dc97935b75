import { scoreLlr, type ScoreCalibration } from './speaker-decision.js';
import { validateAbsorption, type SmallIdAbsorption } from './small-id-absorption.js';

export type { SmallIdAbsorption } from './small-id-absorption.js';

/** One utterance's embedding with its voiced duration (the weight it carries in the clustering). */
export interface WeightedEmbedding {
  /** L2-normalised embedding. */
  vector: Float32Array;
  /** Voiced speech in the utterance, seconds (> 0). */
  seconds: number;
}

/** One speaker id of the session as the end-of-session clustering sees it. */
export interface SessionId {
  participantId: string;
  /** True when the id existed before this session; two known ids are never joined here. */
  known: boolean;
  /** This session's utterances attributed to the id. */
  utterances: readonly WeightedEmbedding[];
}

/**
 * The calibrated merge rule (`session-rules.ts`): two groups join when the calibrated same-speaker LLR of
 * their average linkage, with the smaller group's pooled voiced seconds as quality measure, is above
 * `threshold` (nats; derived from stated priors and costs, docs/ARCHITECTURE.md "Speaker identity").
 */
export interface CalibratedMerge {
  calibration: ScoreCalibration;
  threshold: number;
}

/** Options of {@link clusterSessionIds}: exactly one of `linkageTau` (the cosine rule) and `calibrated`. */
export interface SessionClusterOptions {
  /**
   * Cosine rule: two groups join when the duration-weighted mean cosine over every pair of their
   * utterances is at least this (the embedder's `mergeTau`).
   */
  linkageTau?: number;
  /** Calibrated rule: join while the LLR of the linkage beats the threshold. */
  calibrated?: CalibratedMerge;
  /** Ids with fewer utterances in the session take no part. Default 1. */
  minUtterances?: number;
  /** Pairs of ids that are never one person (overlapping speech, one named the other, different external ids). */
  cannotLink?: Iterable<readonly [string, string]>;
  /**
   * The band rule (`voice-bands.ts` `mergeBandOffset`): an LLR every join must clear on top of the calibrated rule, for
   * a session heard through a telephone channel. Only with `calibrated` (the offsets are LLRs; on the cosine rule their
   * worth in cosine, 0.1–0.2, would put mergeTau 0.9 past 1 and end every merge). Default 0.
   */
  bandOffset?: number;
  /**
   * Small new ids (issue #17 item 2, far-field): with the cosine rule, a pair in which one group is new in this
   * session (no known id) and holds less than `maxSeconds` of voiced speech joins at the lower linkage `minLinkage`
   * instead of `linkageTau`, the small group going into the other. A voice split by a noisy channel leaves such
   * short-lived ids behind, whose few seconds cannot reach the linkage two whole voices need. Absent: none.
   */
  absorb?: SmallIdAbsorption;
}

interface Group {
  root: SessionId;
  members: string[];
  seconds: number;
  known: boolean;
}

/** Calibrated same-speaker LLR of two groups' average linkage, from the smaller group's voiced seconds. */
export function linkageLlr(rule: CalibratedMerge, linkage: number, secondsA: number, secondsB: number): number {
  return scoreLlr(rule.calibration, linkage, Math.min(secondsA, secondsB));
}

/**
 * End-of-session merge by agglomerative clustering over all of a session's fragments: each id starts as
 * a group of its utterances; the average linkage of two groups is the mean utterance-pair cosine, each
 * pair weighted by the product of their voiced durations. The best-scoring pair joins while its score
 * passes: the linkage itself at least `linkageTau` (cosine rule), or its calibrated LLR above
 * `calibrated.threshold`; never when a cannot-link pair spans them or both hold a known id. Returns
 * `{from, into}` pairs in the order to apply them, `into` being the surviving id (the known one, else
 * the one with more voiced speech) and always a final survivor, never an id merged away later.
 */
export function clusterSessionIds(ids: readonly SessionId[], options: SessionClusterOptions): { from: string; into: string }[] {
  const rule = options.calibrated;
  if ((options.linkageTau === undefined) === (rule === undefined)) throw new RangeError('give exactly one of linkageTau and calibrated');
  if (rule) {
    const c = rule.calibration;
    if (![c.a, c.b, c.c, c.e, rule.threshold].every(Number.isFinite)) throw new RangeError('the calibrated merge rule needs finite numbers');
  } else if (!(options.linkageTau! >= -1 && options.linkageTau! <= 1)) throw new RangeError('linkageTau must be a cosine in [-1, 1]');
  const band = options.bandOffset ?? 0;
  if (!(Number.isFinite(band) && band >= 0)) throw new RangeError('bandOffset must be a finite LLR ≥ 0');
  if (band > 0 && !rule) throw new RangeError('bandOffset applies to the calibrated rule only (an LLR), not to linkageTau');
  const absorb = options.absorb;
  if (absorb) {
    if (rule) throw new RangeError('absorb applies to the cosine rule (linkageTau) only');
    validateAbsorption(absorb);
  }
  const minUtt = options.minUtterances ?? 1;
  const forbidden = new Set<string>();
  for (const [a, b] of options.cannotLink ?? []) forbidden.add(`${a}\u0000${b}`).add(`${b}\u0000${a}`);
  const eligible = ids.filter((c) => c.utterances.length >= minUtt && c.utterances.every((u) => u.seconds > 0));
  const groups: (Group | null)[] = eligible.map((c) => ({
    root: c, members: [c.participantId], seconds: c.utterances.reduce((s, u) => s + u.seconds, 0), known: c.known,
  }));
  // link[i][j]: duration-weighted mean of utterance-pair cosines between groups i and j. The sum over
  // every pair is the dot product of the two ids' duration-weighted sums of unit vectors, so it costs
  // one pass over the session's utterances, not one per pair of them (a day-long session has thousands).
  const sums = eligible.map((c) => weightedUnitSum(c.utterances));
  const link = sums.map((x, i) => sums.map((y, j) => {
    if (i === j) return -Infinity;
    let dot = 0;
    for (let d = 0; d < Math.min(x.sum.length, y.sum.length); d++) dot += x.sum[d]! * y.sum[d]!;
    return dot / (x.seconds * y.seconds);
  }));
  const merges: { from: string; into: string }[] = [];
  for (;;) {
    let best: [number, number] | null = null;
    // The cosine rule joins at the threshold, the calibrated one only above it.
    let bestScore = -Infinity;
    let absorbed: Group | null = null;
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++) {
        const gi = groups[i];
        const gj = groups[j];
        if (!gi || !gj) continue;
        const s = rule ? linkageLlr(rule, link[i]![j]!, gi.seconds, gj.seconds) - band : link[i]![j]!;
        const small = absorb ? smallOf(gi, gj, absorb.maxSeconds) : null;
        const threshold = rule ? rule.threshold : small ? Math.min(absorb!.minLinkage, options.linkageTau!) : options.linkageTau!;
        if (s < threshold || (rule && s === threshold) || s < bestScore || (best && s === bestScore)) continue;
        if (gi.known && gj.known) continue;
        if (gi.members.some((a) => gj.members.some((b) => forbidden.has(`${a}\u0000${b}`)))) continue;
        best = [i, j];
        bestScore = s;
        absorbed = small && s < options.linkageTau! ? small : null;
      }
    if (!best) return merges;
    const [i, j] = best;
    const a = groups[i]!;
    const b = groups[j]!;
    // A small group joined below linkageTau goes into the other; otherwise the known, else the longer, survives.
    const keepA = absorbed ? absorbed === b : a.known || (!b.known && a.seconds >= b.seconds);
    const [into, from, k, gone] = keepA ? [a, b, i, j] : [b, a, j, i];
    // Lance–Williams update of average linkage for the joined group.
    for (let m = 0; m < groups.length; m++) {
      if (m === k || m === gone || !groups[m]) continue;
      const s = (into.seconds * link[k]![m]! + from.seconds * link[gone]![m]!) / (into.seconds + from.seconds);
      link[k]![m] = s;
      link[m]![k] = s;
    }
    into.seconds += from.seconds;
    into.known ||= from.known;
    into.members.push(...from.members);
    for (const prior of merges) if (from.members.includes(prior.into)) prior.into = into.root.participantId;
    merges.push({ from: from.root.participantId, into: into.root.participantId });
    groups[gone] = null;
  }
}

/** The group of the pair that is new in the session and under `maxSeconds` (the shorter when both are), else null. */
function smallOf(a: Group, b: Group, maxSeconds: number): Group | null {
  const small = [a, b].filter((g) => !g.known && g.seconds < maxSeconds).sort((x, y) => x.seconds - y.seconds);
  return small[0] ?? null;
}

/** Average linkage of two sets of utterances: the mean pair cosine, each pair weighted by the product of their voiced seconds. */
export function averageLinkage(a: readonly WeightedEmbedding[], b: readonly WeightedEmbedding[]): number {
  const x = weightedUnitSum(a);
  const y = weightedUnitSum(b);
  let dot = 0;
  for (let d = 0; d < Math.min(x.sum.length, y.sum.length); d++) dot += x.sum[d]! * y.sum[d]!;
  return dot / (x.seconds * y.seconds);
}

/** Σ seconds × vector / |vector| over `utterances` (a zero vector adds nothing: its cosine is 0), and Σ seconds. */
function weightedUnitSum(utterances: readonly WeightedEmbedding[]): { sum: Float64Array; seconds: number } {
  let dimension = 0;
  for (const u of utterances) dimension = Math.max(dimension, u.vector.length);
  const sum = new Float64Array(dimension);
  let seconds = 0;
  for (const u of utterances) {
    seconds += u.seconds;
    let squares = 0;
    for (const v of u.vector) squares += v * v;
    if (squares === 0) continue;
    const scale = u.seconds / Math.sqrt(squares);
    for (let d = 0; d < u.vector.length; d++) sum[d] = (sum[d] ?? 0) + scale * (u.vector[d] ?? 0);
  }
  return { sum, seconds };
}

/**
 * The session's ids for {@link clusterSessionIds}: every id the tracker attributed utterances to in this
 * session (from `SpeakerTracker.sessionStats()`), `known` when it existed before the session.
 */
export function sessionIdsFrom(
  prototypes: readonly { participantId: string; known: boolean }[],
  stats: readonly { participantId: string; embeddings: readonly WeightedEmbedding[] }[],
): SessionId[] {
  const known = new Map(prototypes.map((p) => [p.participantId, p.known]));
  return stats
    .filter((s) => known.has(s.participantId) && s.embeddings.length > 0)
    .map((s) => ({ participantId: s.participantId, known: known.get(s.participantId)!, utterances: s.embeddings }));
}
