import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { TenantId } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import { collectionFor, type IndexedLayer } from '../memory/collections.js';
import type { RankedList } from './rrf.js';

/** Optional speaker / addressee / session filters, applied to every list. */
export interface SearchFilters {
  speakerId?: string;
  addresseeId?: string;
  sessionId?: string;
}

/** The candidate pool, split by where its ids are searched. */
export interface Pool {
  utteranceIds: string[];
  factIds: string[];
}

/** Layers searched; interaction, fact and profile by default. */
export type SearchLayers = readonly IndexedLayer[];

/**
 * Similarity search inside the pool (or, with `pool` null, over everything): one dense list per
 * layer (`filter.ids` = the pool's ids of that layer) and one BM25 list, each `depth` deep.
 */
export async function searchLists(
  deps: { vectors: VectorStore; lexical: LexicalIndex },
  tenant: TenantId,
  query: { text: string; vector: Float32Array | null },
  pool: Pool | null,
  depth: number,
  layers: SearchLayers,
  filters: SearchFilters,
  weight = 1,
  denseWeight = 1,
): Promise<RankedList[]> {
  const searches: Promise<RankedList>[] = [];
  const vector = query.vector;
  if (vector) {
    for (const layer of layers) {
      const ids = pool ? (layer === 'interaction' ? pool.utteranceIds : pool.factIds) : undefined;
      if (ids && ids.length === 0) continue;
      searches.push(deps.vectors
        .search(tenant, collectionFor(layer), vector, depth, { ...filters, ...(ids ? { ids } : {}) })
        .then((hits) => ({ ids: hits.map((h) => h.id), weight: weight * denseWeight })));
    }
  }
  const lexicalIds = pool ? [...pool.utteranceIds, ...pool.factIds] : undefined;
  if (!lexicalIds || lexicalIds.length > 0) {
    searches.push(deps.lexical
      .search(tenant, query.text, depth, { ...filters, layer: [...layers], ...(lexicalIds ? { ids: lexicalIds } : {}) })
      .then((hits) => ({ ids: hits.map((h) => h.id), weight })));
  }
  return Promise.all(searches);
}
