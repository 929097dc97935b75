/** One ranked result list to fuse, with a weight (default 1). */
export interface RankedList {
  ids: string[];
  weight?: number;
  /**
   * Each id's score from the search that ranked it (BM25, cosine…), parallel to `ids`, higher is better (`termDependence` re-scores BM25's); comparable only
   * within this list. Absent (or not one per id): the list is read by rank alone (`fuseRanked`).
   */
  scores?: number[];
}

/** The usual RRF constant: damps the head of each list so no single list dominates. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: score(id) = Σ weight / (RRF_K + rank), rank 1-based. Returns ids with
 * fused scores, best first (ties broken by first appearance).
 */
export function reciprocalRankFusion(lists: RankedList[], k = RRF_K): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) {
    const w = list.weight ?? 1;
    const seen = new Set<string>();
    list.ids.forEach((id, i) => {
      if (seen.has(id)) return;
      seen.add(id);
      scores.set(id, (scores.get(id) ?? 0) + w / (k + i + 1));
    });
  }
  return [...scores.entries()].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/**
 * How ranked lists are fused (`fuseRanked`): `rrf` by rank alone (`reciprocalRankFusion`); `combsum-minmax` and
 * `combmnz-minmax` add each list's scores scaled to 0–1 within the list (CombMNZ then multiplies by the number of lists
 * holding the id); `combsum-z` adds them as standard scores within the list, shifted so the list's last is 0; `rrf-gap`
 * is RRF with each list's weight raised by how far its best score stands out (`scoreGap`).
 */
export const FUSION_METHODS = ['rrf', 'combsum-minmax', 'combmnz-minmax', 'combsum-z', 'rrf-gap'] as const;
export type FusionMethod = (typeof FUSION_METHODS)[number];

/** Options of `fuseRanked`. */
export interface FusionOptions {
  /** Default `rrf`. */
  method?: FusionMethod;
  /** RRF constant (also of the rank scores given to a list without scores); default `RRF_K`. */
  k?: number;
  /** With `rrf-gap`: a list's weight becomes `weight × (1 + gapWeight × scoreGap)`; default 1. */
  gapWeight?: number;
}

/** A list's distinct ids (first, best occurrence kept) with their raw scores: the search's, else 1 / (k + rank). */
function scored(list: RankedList, k: number): { id: string; raw: number }[] {
  const own = list.scores !== undefined && list.scores.length === list.ids.length && list.scores.every(Number.isFinite);
  const seen = new Set<string>();
  const out: { id: string; raw: number }[] = [];
  list.ids.forEach((id, i) => {
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ id, raw: own ? list.scores![i]! : 1 / (k + i + 1) });
  });
  return out;
}

/**
 * How far a list's best score stands out, 0–1: (best − second) / (best − last) over its distinct ids; 0 for a list of
 * fewer than three, without scores, or whose scores are all equal. A BM25 list whose first turn alone holds the rare
 * word scores near 1; one whose head is a run of near ties, near 0.
 */
export function scoreGap(list: RankedList): number {
  if (list.scores === undefined || list.scores.length !== list.ids.length) return 0;
  const s = scored(list, RRF_K).map((e) => e.raw);
  if (s.length < 3) return 0;
  const best = Math.max(...s);
  const last = Math.min(...s);
  const second = [...s].sort((a, b) => b - a)[1]!;
  return best > last ? (best - second) / (best - last) : 0;
}

/** A list's scores normalised within it: min-max to 0–1, or standard scores shifted so the lowest is 0; all equal: 1 each. */
function normalised(entries: { id: string; raw: number }[], how: 'minmax' | 'z'): Map<string, number> {
  const raws = entries.map((e) => e.raw);
  const max = Math.max(...raws);
  const min = Math.min(...raws);
  if (!(max > min)) return new Map(entries.map((e) => [e.id, 1]));
  if (how === 'minmax') return new Map(entries.map((e) => [e.id, (e.raw - min) / (max - min)]));
  const mean = raws.reduce((a, b) => a + b, 0) / raws.length;
  const sd = Math.sqrt(raws.reduce((a, b) => a + (b - mean) ** 2, 0) / raws.length);
  return new Map(entries.map((e) => [e.id, (e.raw - min) / sd]));
}

/**
 * Fuse ranked lists (`FusionMethod`), keeping what RRF discards when asked: the margins of each list's own scores.
 * Returns ids with fused scores, best first (ties broken by first appearance); with `rrf` exactly `reciprocalRankFusion`.
 */
export function fuseRanked(lists: RankedList[], options: FusionOptions = {}): { id: string; score: number }[] {
  const method = options.method ?? 'rrf';
  const k = options.k ?? RRF_K;
  if (!FUSION_METHODS.includes(method)) throw new RangeError(`fusion is one of ${FUSION_METHODS.join(', ')}, got ${String(method)}`);
  if (method === 'rrf') return reciprocalRankFusion(lists, k);
  if (method === 'rrf-gap') {
    const g = options.gapWeight ?? 1;
    if (!(g >= 0)) throw new RangeError(`fusionGapWeight is a factor of 0 or more, got ${String(g)}`);
    return reciprocalRankFusion(lists.map((l) => ({ ids: l.ids, weight: (l.weight ?? 1) * (1 + g * scoreGap(l)) })), k);
  }
  const sums = new Map<string, number>();
  const hits = new Map<string, number>();
  for (const list of lists) {
    const w = list.weight ?? 1;
    const entries = scored(list, k);
    if (entries.length === 0) continue;
    const norm = normalised(entries, method === 'combsum-z' ? 'z' : 'minmax');
    for (const { id } of entries) {
      sums.set(id, (sums.get(id) ?? 0) + w * norm.get(id)!);
      if (w > 0) hits.set(id, (hits.get(id) ?? 0) + 1);
    }
  }
  const mnz = method === 'combmnz-minmax';
  return [...sums.entries()].map(([id, s]) => ({ id, score: mnz ? s * (hits.get(id) ?? 0) : s })).sort((a, b) => b.score - a.score);
}
