/** How `diversify` re-ranks: `weight` turns it on. */
export interface DiversifyOptions<T> {
  /** An item's relevance (higher is better); only its ratio to the best item's counts. */
  score: (item: T) => number;
  /** An item's vector, or undefined (an item with none is never penalised nor penalises). */
  vector: (item: T) => Float32Array | undefined;
  /**
   * Weight of the redundancy penalty against relevance scaled to the best item's (1); 0 keeps the order.
   * Must be at least 0.
   */
  weight: number;
  /**
   * Cosine similarity below which two items count as distinct (no penalty); above it the penalty grows
   * linearly to `weight` at similarity 1. From 0 (any similarity counts) to below 1.
   */
  floor: number;
  /** Re-rank only the best this many items (the rest follow in order); default all. */
  pool?: number;
}

/**
 * Maximal marginal relevance (Carbonell and Goldstein, 1998): pick items greedily, each time the one whose
 * relevance, less `weight` × how far its closest already-picked item's cosine similarity lies above `floor`,
 * is highest. Several paraphrases of one topic then take one place near the top and leave the others to
 * distinct items, each kept further down rather than dropped. Returns every item, re-ordered.
 */
export function diversify<T>(items: readonly T[], o: DiversifyOptions<T>): T[] {
  if (!(o.weight >= 0)) throw new RangeError(`diversity weight is at least 0, got ${String(o.weight)}`);
  if (!(o.floor >= 0 && o.floor < 1)) throw new RangeError(`diversity floor is from 0 to below 1, got ${String(o.floor)}`);
  const size = Math.min(items.length, o.pool ?? items.length);
  if (o.weight === 0 || size < 2) return [...items];
  const head = items.slice(0, size);
  const best = Math.max(...head.map(o.score));
  const rel = head.map((item) => (best > 0 ? o.score(item) / best : 0));
  const unit = head.map((item) => normalised(o.vector(item)));
  /** Each remaining item's highest similarity to a picked one. */
  const closest = head.map(() => -1);
  const left = new Set(head.keys());
  const order: number[] = [];
  while (left.size > 0) {
    let pick = -1;
    let top = -Infinity;
    for (const i of left) {
      const value = (rel[i] as number) - o.weight * Math.max(0, ((closest[i] as number) - o.floor) / (1 - o.floor));
      if (value > top) [pick, top] = [i, value];
    }
    left.delete(pick);
    order.push(pick);
    const v = unit[pick];
    if (v === undefined) continue;
    for (const i of left) {
      const w = unit[i];
      if (w !== undefined) closest[i] = Math.max(closest[i] as number, dot(v, w));
    }
  }
  return [...order.map((i) => head[i] as T), ...items.slice(size)];
}

function normalised(v: Float32Array | undefined): Float32Array | undefined {
  if (v === undefined) return undefined;
  const norm = Math.sqrt(dot(v, v));
  return norm > 0 ? v.map((x) => x / norm) : undefined;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
