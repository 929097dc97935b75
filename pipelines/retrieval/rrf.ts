/** One ranked result list to fuse, with a weight (default 1). */
export interface RankedList {
  ids: string[];
  weight?: number;
  /** The searcher's own score of each id (same order), where it has one: BM25 over turns (`termDependence` re-scores it). */
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
