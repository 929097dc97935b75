import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import type { MemoryItem } from '../../server/protocol/server-events.js';
import { utterancesToItems } from './memory-items.js';

/** Keyword (BM25) search over the interaction layer: the single-round fallback retrieval. */
export async function searchInteractions(
  stores: Pick<Stores, 'graph' | 'lexical'>,
  tenant: TenantId,
  question: string,
  k: number,
  filter: { speakerId?: string; addresseeId?: string; sessionId?: string } = {},
): Promise<MemoryItem[]> {
  const hits = await stores.lexical.search(tenant, question, k, { layer: 'interaction', ...filter });
  const utterances = await stores.graph.getUtterances(tenant, hits.map((h) => h.id));
  const score = new Map(hits.map((h) => [h.id, h.score]));
  return utterancesToItems(stores.graph, tenant, utterances.map((u) => ({ utterance: u, score: score.get(u.id) ?? 0 })));
}
