import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import { collectionFor, type IndexedLayer } from '../memory/collections.js';
import { diversify } from './diversify.js';
import type { Candidate } from './memory-candidates.js';

/** Which vector stands for an answer item when judging whether two items say the same. */
export type DiversityBy = 'source' | 'text';

/** How `diverseCandidates` re-ranks (see `MemoryLayerOptions.diversityWeight`). */
export interface DiverseCandidatesOptions {
  weight: number;
  floor: number;
  /** Items re-ranked from the top; the rest follow in order. */
  pool: number;
  /**
   * 'source': a fact is judged by its first source turn's vector (a turn by its own); 'text': by its own text's
   * vector (fact or profile collection). Persona nodes have none and are never penalised.
   */
  by: DiversityBy;
}

/**
 * Re-rank answer candidates (best first, one per source turn) by maximal marginal relevance over the stored
 * vectors (`diversify`), so paraphrases of one topic from several turns do not fill the top places. The
 * vectors are read from the store (no embedding at query time); an item whose vector is not stored keeps
 * its relevance unpenalised.
 */
export async function diverseCandidates(
  vectors: Stores['vectors'], tenant: TenantId, items: readonly Candidate[], o: DiverseCandidatesOptions,
): Promise<Candidate[]> {
  if (o.by !== 'source' && o.by !== 'text') throw new RangeError(`diversityBy is 'source' or 'text', got ${String(o.by)}`);
  if (!(Number.isInteger(o.pool) && o.pool > 0)) throw new RangeError(`diversityPool is a positive whole number, got ${String(o.pool)}`);
  if (o.weight === 0) return [...items];
  const head = items.slice(0, o.pool);
  const key = (c: Candidate): [IndexedLayer, string] | undefined => {
    if (c.kind === 'turn') return ['interaction', c.id];
    if (c.kind !== 'fact') return undefined;
    if (o.by === 'text') return [c.f.layer === 'profile' ? 'profile' : 'fact', c.id];
    const turn = c.f.referIds[0];
    return turn === undefined ? undefined : ['interaction', turn];
  };
  const wanted = new Map<IndexedLayer, Set<string>>();
  for (const c of head) {
    const k = key(c);
    if (k) wanted.set(k[0], (wanted.get(k[0]) ?? new Set()).add(k[1]));
  }
  const found = new Map<string, Float32Array>();
  await Promise.all([...wanted].map(async ([layer, ids]) => {
    for (const p of await vectors.get(tenant, collectionFor(layer), [...ids])) found.set(`${layer}:${p.id}`, p.vector);
  }));
  return diversify(items, {
    score: (c) => c.score, weight: o.weight, floor: o.floor, pool: o.pool,
    vector: (c) => {
      const k = key(c);
      return k ? found.get(`${k[0]}:${k[1]}`) : undefined;
    },
  });
}
