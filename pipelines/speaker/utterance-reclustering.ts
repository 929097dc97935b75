import { linkageLlr, type CalibratedMerge } from './session-clustering.js';
import { calibratedMerge, type MergeRuleParams } from './session-rules.js';

/**
 * End-of-session re-clustering at the utterance level (issue #17 item 2): where `clusterSessionIds` only joins whole
 * ids, this pass clusters every utterance of the session afresh and maps the clusters back onto the ids, so an id that
 * absorbed two voices can be split and a stray utterance can move to the id of its voice.
 */

/** One decided utterance of the session. */
export interface SessionUtterance {
  /** The caller's key for the utterance (the tracker's turn index, a stored utterance id). */
  key: string;
  /** The id it is attributed to now. */
  participantId: string;
  /** Its embedding (any scale: only its direction counts). */
  vector: Float32Array;
  /** Voiced seconds (> 0): its weight in every linkage. */
  seconds: number;
  /**
   * Utterances sharing a `turn` (fragments of one turn, the same id) are pooled into one unit before clustering and
   * always move together. Absent: the utterance is a unit of its own.
   */
  turn?: string;
  /** Ids this utterance addressed by name (the vocative rule: it is never given to one of them). */
  namedAddressees?: readonly string[];
}

/** Options of {@link reclusterUtterances}. */
export interface ReclusterOptions {
  /** The calibrated merge rule (`session-rules.ts` `calibratedMerge`): clusters join while their LLR beats its threshold. */
  calibrated: CalibratedMerge;
  /** Ids that existed before the session: clusters holding two of them never join, and a known id is never split off. */
  known: ReadonlySet<string>;
  /**
   * A cluster that no id takes becomes a new id (a split) only when it joined two units or more and holds at least this
   * many voiced seconds (> 0); other ones stay where they were. Default 8.
   */
  minSplitSeconds?: number;
  /** Pairs of ids never one person (overlapping speech, different external ids): their utterances never share a cluster. */
  cannotLink?: Iterable<readonly [string, string]>;
  /**
   * How two clusters' similarity is measured: `average`, the mean utterance-pair cosine weighted by the product of
   * voiced seconds (as `clusterSessionIds`); `centroid`, the cosine of their seconds-weighted mean directions (what the
   * decision's calibration scored: a turn against a prototype). Default `average`.
   */
  linkage?: 'average' | 'centroid';
  /** Sessions with more units than this are left as they are (the clustering is cubic in them). Default 600. */
  maxUnits?: number;
}

/** What the pass decided: utterances to give to another id, some of them to new ids (`split`). */
export interface Reclustering {
  /** `into` is an existing id, or a `split` label for a new one. */
  moves: { key: string; from: string; into: string }[];
  /** New ids to create, each labelled as in `moves`, with the id it was split from. */
  splits: { label: string; from: string }[];
}

/**
 * The setting chosen on stats-lda-v2's training speakers (bench/speaker-recluster.ts, grid 2; not adopted as a default):
 * the embedder's calibrated merge rule with its threshold 3 nats lower (0 nats: a wrong utterance move costs as much
 * as a missed one), centroid linkage, splits of 16 s or more.
 */
export function chosenRecluster(merge: MergeRuleParams): Omit<ReclusterOptions, 'known'> {
  const rule = calibratedMerge(merge);
  return { calibrated: { ...rule, threshold: rule.threshold - 3 }, linkage: 'centroid', minSplitSeconds: 16 };
}

interface Unit {
  keys: string[];
  id: string;
  seconds: number;
  sum: Float64Array;
  named: Set<string>;
}

interface Cluster {
  units: number[];
  sum: Float64Array;
  seconds: number;
  ids: Set<string>;
  named: Set<string>;
  known: Set<string>;
}

/**
 * Agglomerative average-linkage clustering of the session's utterances (pair cosines weighted by the product of their
 * voiced seconds), joining the best pair while its calibrated LLR (smaller cluster's seconds as quality) is above the
 * rule's threshold; never across two known ids, a cannot-link pair, or an utterance and an id it addressed by name.
 * Then each cluster is mapped onto an id, largest overlaps first, one cluster per id, known ids first: an utterance
 * whose cluster maps to another id moves there; a cluster no id takes becomes a new id when it holds two units
 * or more and `minSplitSeconds`, else its utterances stay. A move that would leave someone addressing themself is not made.
 */
export function reclusterUtterances(utterances: readonly SessionUtterance[], options: ReclusterOptions): Reclustering {
  const rule = options.calibrated;
  const c = rule.calibration;
  if (![c.a, c.b, c.c, c.e, rule.threshold].every(Number.isFinite)) throw new RangeError('the calibrated merge rule needs finite numbers');
  const minSplit = options.minSplitSeconds ?? 8;
  if (!(Number.isFinite(minSplit) && minSplit > 0)) throw new RangeError('minSplitSeconds must be a finite number of seconds > 0');
  for (const u of utterances) if (!(u.seconds > 0 && Number.isFinite(u.seconds))) throw new RangeError(`utterance ${u.key}: seconds must be a finite number > 0`);
  const units = unitsOf(utterances);
  if (units.length < 2 || units.length > (options.maxUnits ?? 600)) return { moves: [], splits: [] };
  const forbidden = new Set<string>();
  for (const [a, b] of options.cannotLink ?? []) forbidden.add(`${a}\u0000${b}`).add(`${b}\u0000${a}`);
  const clusters = cluster(units, rule, options.known, forbidden, options.linkage ?? 'average');
  return mapBack(units, clusters, options.known, minSplit);
}

/** Units: utterances pooled by (`turn`, id), each a seconds-weighted sum of unit vectors. */
function unitsOf(utterances: readonly SessionUtterance[]): Unit[] {
  const byKey = new Map<string, Unit>();
  const out: Unit[] = [];
  for (const u of utterances) {
    const k = u.turn === undefined ? null : `${u.turn}\u0000${u.participantId}`;
    let unit = k === null ? undefined : byKey.get(k);
    if (!unit) {
      unit = { keys: [], id: u.participantId, seconds: 0, sum: new Float64Array(u.vector.length), named: new Set() };
      out.push(unit);
      if (k !== null) byKey.set(k, unit);
    }
    unit.keys.push(u.key);
    unit.seconds += u.seconds;
    for (const n of u.namedAddressees ?? []) unit.named.add(n);
    let squares = 0;
    for (const v of u.vector) squares += v * v;
    if (squares === 0) continue;
    const scale = u.seconds / Math.sqrt(squares);
    for (let d = 0; d < Math.min(u.vector.length, unit.sum.length); d++) unit.sum[d]! += scale * u.vector[d]!;
  }
  return out;
}

function cluster(units: Unit[], rule: CalibratedMerge, known: ReadonlySet<string>, forbidden: Set<string>, linkage: 'average' | 'centroid'): Cluster[] {
  const groups: (Cluster | null)[] = units.map((u, i) => ({
    units: [i], sum: Float64Array.from(u.sum), seconds: u.seconds, ids: new Set([u.id]), named: new Set(u.named), known: new Set(known.has(u.id) ? [u.id] : []),
  }));
  // Both linkages follow from the clusters' seconds-weighted sums of unit vectors: the sum over every utterance pair of
  // seconds × seconds × cosine is the dot product of the two sums.
  const similarity = (a: Cluster, b: Cluster): number =>
    dot(a.sum, b.sum) / (linkage === 'average' ? a.seconds * b.seconds : Math.sqrt(dot(a.sum, a.sum) * dot(b.sum, b.sum)) || 1);
  const link = groups.map((a, i) => groups.map((b, j) => (i === j ? -Infinity : similarity(a!, b!))));
  const apart = (a: Cluster, b: Cluster): boolean =>
    (a.known.size > 0 && b.known.size > 0 && [...a.known].some((k) => !b.known.has(k)))
    || [...a.named].some((n) => b.ids.has(n)) || [...b.named].some((n) => a.ids.has(n))
    || [...a.ids].some((x) => [...b.ids].some((y) => forbidden.has(`${x}\u0000${y}`)));
  for (;;) {
    let best: [number, number] | null = null;
    let bestScore = rule.threshold;
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++) {
        const a = groups[i];
        const b = groups[j];
        if (!a || !b) continue;
        const s = linkageLlr(rule, link[i]![j]!, a.seconds, b.seconds);
        if (s <= bestScore || apart(a, b)) continue;
        best = [i, j];
        bestScore = s;
      }
    if (!best) return groups.filter((g): g is Cluster => g !== null);
    const [i, j] = best;
    const a = groups[i]!;
    const b = groups[j]!;
    a.units.push(...b.units);
    for (let d = 0; d < a.sum.length; d++) a.sum[d]! += b.sum[d] ?? 0;
    a.seconds += b.seconds;
    for (const x of b.ids) a.ids.add(x);
    for (const x of b.named) a.named.add(x);
    for (const x of b.known) a.known.add(x);
    groups[j] = null;
    for (let m = 0; m < groups.length; m++) {
      const g = groups[m];
      if (m === i || !g) continue;
      link[i]![m] = similarity(a, g);
      link[m]![i] = link[i]![m]!;
    }
  }
}

/** Each cluster onto an id (known ids first, then largest overlap, one-to-one), a split, or nothing. */
function mapBack(units: Unit[], clusters: Cluster[], known: ReadonlySet<string>, minSplit: number): Reclustering {
  const pairs: { k: number; id: string; seconds: number; known: boolean }[] = [];
  for (const [k, c] of clusters.entries()) {
    const overlap = new Map<string, number>();
    for (const u of c.units) overlap.set(units[u]!.id, (overlap.get(units[u]!.id) ?? 0) + units[u]!.seconds);
    for (const [id, seconds] of overlap) pairs.push({ k, id, seconds, known: known.has(id) });
  }
  pairs.sort((x, y) => Number(y.known) - Number(x.known) || y.seconds - x.seconds || x.id.localeCompare(y.id));
  const target = new Map<number, string>();
  const taken = new Set<string>();
  for (const p of pairs) {
    if (target.has(p.k) || taken.has(p.id)) continue;
    target.set(p.k, p.id);
    taken.add(p.id);
  }
  const out: Reclustering = { moves: [], splits: [] };
  for (const [k, c] of clusters.entries()) {
    let into = target.get(k);
    if (into === undefined) {
      // Only a cluster the rule built (two units or more) is a voice of its own; a unit that joined nothing stays.
      if (c.seconds < minSplit || c.units.length < 2) continue;
      // The id most of the cluster came from: the one it is split off.
      const from = pairs.filter((p) => p.k === k).sort((x, y) => y.seconds - x.seconds)[0]!.id;
      into = `split-${out.splits.length + 1}`;
      out.splits.push({ label: into, from });
    }
    for (const u of c.units) {
      const unit = units[u]!;
      // The vocative rule: an utterance never goes to someone it addressed by name.
      if (unit.id === into || unit.named.has(into)) continue;
      for (const key of unit.keys) out.moves.push({ key, from: unit.id, into });
    }
  }
  return out;
}

function dot(x: Float64Array, y: Float64Array): number {
  let s = 0;
  for (let d = 0; d < Math.min(x.length, y.length); d++) s += x[d]! * y[d]!;
  return s;
}
