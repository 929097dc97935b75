import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import type { AudioSpanStore } from '../audio/audio-span-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { MEMORY_LAYERS, collectionFor } from '../memory/collections.js';
import { MemoryIndexer } from '../memory/memory-indexer.js';
import { ENTITY_COLLECTION } from '../retrieval/left-brain-job.js';

/** What erasure needs besides the stores. */
export interface ErasureDeps {
  stores: Stores;
  /** Kept audio, when the deployment keeps it. */
  audioSpans: AudioSpanStore | null;
  /** Re-embeds other people's utterances that addressed the person, to re-index them without them. */
  embedder: TextEmbedder;
}

/** What an erasure removed, as `DELETE /v1/participants/{id}` reports it. */
export interface ErasureReport {
  utteranceIds: string[];
  factIds: string[];
  personaIds: string[];
  voiceprints: number;
  audioFiles: number;
}

/**
 * Erase a participant from every store: the interaction graph (utterances, edges, profile),
 * memories with their history, persona, consolidation bookkeeping, keyword and vector indexes,
 * the entity index, queued jobs, voiceprints and kept audio. Then the embedded database's file is
 * checkpointed so deleted rows do not linger in its write-ahead log (pages are zeroed on delete).
 * Returns null when the participant does not exist.
 */
export async function eraseParticipant(deps: ErasureDeps, tenant: TenantId, participantId: string): Promise<ErasureReport | null> {
  const { stores, audioSpans } = deps;
  const addressedThem = await utterancesAddressing(stores, tenant, participantId);
  const utteranceIds = await stores.graph.deleteParticipant(tenant, participantId);
  if (!utteranceIds) return null;
  const memory = await stores.memory.deleteParticipant(tenant, participantId);
  await stores.memory.forgetUtterances(tenant, utteranceIds);
  const voiceprints = await stores.voiceprints.deleteByParticipant(tenant, participantId);
  const derived = [...utteranceIds, ...memory.factIds, ...memory.personaIds];
  await stores.lexical.delete(tenant, derived);
  for (const layer of MEMORY_LAYERS) await stores.vectors.delete(tenant, collectionFor(layer), derived);
  const entities = await stores.entities.eraseMemories(tenant, derived);
  await stores.vectors.delete(tenant, ENTITY_COLLECTION, entities);
  await reindexWithout(deps, tenant, addressedThem.filter((id) => !utteranceIds.includes(id)));
  await stores.queue.forget(utteranceIds);
  const audioFiles = audioSpans ? await audioSpans.removeUtterances(tenant, utteranceIds) : 0;
  stores.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return { utteranceIds, factIds: memory.factIds, personaIds: memory.personaIds, voiceprints, audioFiles };
}

/** Ids of every utterance addressed to the participant, newest first, page by page. */
async function utterancesAddressing(stores: Stores, tenant: TenantId, participantId: string): Promise<string[]> {
  const ids: string[] = [];
  let until: string | undefined;
  for (;;) {
    const page = await stores.graph.queryInteractions(tenant, { addresseeId: participantId, limit: 1000, ...(until ? { until } : {}) });
    const fresh = page.filter((u) => !ids.includes(u.id));
    ids.push(...fresh.map((u) => u.id));
    if (page.length < 1000 || fresh.length === 0) return ids;
    until = page.reduce((min, u) => (u.time < min ? u.time : min), page[0]!.time);
  }
}

/** Index other people's utterances again, now that the erased person is gone from their addressees. */
async function reindexWithout(deps: ErasureDeps, tenant: TenantId, utteranceIds: string[]): Promise<void> {
  const indexer = new MemoryIndexer(deps.stores.vectors, deps.stores.lexical, deps.embedder);
  for (const id of utteranceIds) {
    const u = await deps.stores.graph.getUtterance(tenant, id);
    if (!u) continue;
    const [vector] = await deps.embedder.embed([u.text]);
    if (vector) await indexer.indexUtterance(tenant, u, vector);
  }
}
