import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId } from '../../graph/types.js';
import type { VectorFilter, VectorHit, VectorStore } from '../../graph/vector-store.js';
import { cosine } from '../embeddings/text-embedder.js';
import { collectionFor } from '../memory/collections.js';
import { doubtfulSpeech, type MinAsrConfidence } from '../memory/doubtful-speech.js';

/** Options for {@link withFreshTurns}. */
export interface FreshTurnsOptions {
  /** The tenant's newest turns (matching the search's filters) looked at for a missing vector; default 32. */
  recent?: number;
  /** Lowest ASR confidence of a turn that feeds memory (`PARLEY_MEMORY_MIN_ASR_CONFIDENCE`): doubtful turns never get a vector, and are not scored. Default 0, none. */
  minAsrConfidence?: MinAsrConfidence;
}

/**
 * The vector store as retrieval reads it, turns whose consolidation job has not run yet included: a search of the
 * interaction collection also scores the tenant's newest turns (those matching its filters) that have no vector yet,
 * embedding their text with `embed` (the retriever's question embedder: one space, its cache) and ranking them by the
 * same cosine as the stored points. A question about the last minute of a conversation (its jobs still queued on a busy
 * machine) then finds those turns by meaning as well as by keyword. Nothing is written: the job indexes them as before,
 * and an erased turn is gone from the graph it is read from. A search restricted to `ids` (a pool, a time range) scores
 * only those of them.
 */
export function withFreshTurns(
  vectors: VectorStore,
  graph: Pick<GraphStore, 'queryInteractions'>,
  embed: (text: string) => Promise<Float32Array>,
  options: FreshTurnsOptions = {},
): VectorStore {
  const recent = options.recent ?? 32;
  const minAsr = options.minAsrConfidence ?? 0;
  const interaction = collectionFor('interaction');
  const fresh = async (tenant: TenantId, vector: Float32Array, filter: VectorFilter): Promise<VectorHit[]> => {
    const newest = await graph.queryInteractions(tenant, {
      limit: recent,
      ...(filter.sessionId ? { sessionId: filter.sessionId } : {}),
      ...(filter.speakerId ? { speakerId: filter.speakerId } : {}),
      ...(filter.addresseeId ? { addresseeId: filter.addresseeId } : {}),
    });
    const allowed = filter.ids ? new Set(filter.ids) : null;
    const candidates = newest.filter((u) => (!allowed || allowed.has(u.id)) && !doubtfulSpeech(u, minAsr));
    if (candidates.length === 0) return [];
    const indexed = new Set((await vectors.get(tenant, interaction, candidates.map((u) => u.id))).map((p) => p.id));
    const pending = candidates.filter((u) => !indexed.has(u.id));
    return Promise.all(pending.map(async (u) => ({
      id: u.id,
      score: cosine(vector, await embed(u.text)),
      payload: { layer: 'interaction', sessionId: u.sessionId, speakerId: u.speakerId, addresseeIds: u.addresseeIds, time: u.time },
    })));
  };
  const search = async (tenant: TenantId, collection: string, vector: Float32Array, k: number, filter: VectorFilter = {}): Promise<VectorHit[]> => {
    const stored = await vectors.search(tenant, collection, vector, k, filter);
    if (collection !== interaction) return stored;
    const extra = await fresh(tenant, vector, filter);
    if (extra.length === 0) return stored;
    const seen = new Set(stored.map((h) => h.id));
    return [...stored, ...extra.filter((h) => !seen.has(h.id))].sort((a, b) => b.score - a.score).slice(0, k);
  };
  // Every other method is the store's own, called on it (implementations keep private state).
  return new Proxy(vectors, {
    get(target, prop) {
      if (prop === 'search') return search;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
