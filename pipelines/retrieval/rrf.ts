/** One ranked result list to fuse, with a weight (default 1). */
export interface RankedList {
  ids: string[];
  weight?: number;
  /**
   * Lists of one group are one piece of evidence: an id scores the best of its shares among them, not their sum (a
   * fact's hits mapped to its source turn and the turn's own hits for the same words). No group: a list of its own.
   */
  group?: string;
}

/** The usual RRF constant: damps the head of each list so no single list dominates. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: score(id) = Σ weight / (RRF_K + rank), rank 1-based (within a `group`, the best term only). Returns ids with
 * fused scores, best first (ties broken by first appearance).
 */
export function reciprocalRankFusion(lists: RankedList[], k = RRF_K): { id: string; score: number }[] {
  /** Each id's shares: one per list of no group, the best per group. */
  const shares = new Map<string, Map<string | number, number>>();
  lists.forEach((list, n) => {
    const w = list.weight ?? 1;
    const key = list.group ?? n;
    const seen = new Set<string>();
    list.ids.forEach((id, i) => {
      if (seen.has(id)) return;
      seen.add(id);
      const mine = shares.get(id) ?? new Map<string | number, number>();
      shares.set(id, mine);
      mine.set(key, Math.max(mine.get(key) ?? 0, w / (k + i + 1)));
    });
  });
  return [...shares.entries()].map(([id, of]) => ({ id, score: [...of.values()].reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.score - a.score);
}
