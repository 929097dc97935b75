import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import type { AudioSpanStore } from '../audio/audio-span-store.js';
import { MEMORY_LAYERS, collectionFor } from '../memory/collections.js';
import { ENTITY_COLLECTION } from '../retrieval/left-brain-job.js';

/**
 * Remove what the indexes and bookkeeping hold of erased utterances and memories (participant erasure, forgetting
 * utterances or a session): their queued jobs, keyword and vector entries, their place in the entity index (the entities
 * about them are handed to `record` first, which returns those recorded so far: a run cut short before their vectors went
 * finds them there, as no longer standing), kept audio, and the consolidation records of the utterances. Each step may
 * run again. Returns how many audio files went.
 */
export async function eraseTraces(
  deps: { stores: Stores; audioSpans: AudioSpanStore | null }, tenant: TenantId, utteranceIds: string[], memoryIds: string[],
  record: (entityIds: string[]) => Promise<string[]>,
): Promise<number> {
  const { stores, audioSpans } = deps;
  const derived = [...utteranceIds, ...memoryIds];
  await stores.queue.forget(utteranceIds);
  await stores.lexical.delete(tenant, derived);
  for (const layer of MEMORY_LAYERS) await stores.vectors.delete(tenant, collectionFor(layer), derived);
  const recorded = await record(await stores.entities.entitiesOfMemories(tenant, derived));
  const emptied = await stores.entities.eraseMemories(tenant, derived);
  const standing = new Set((await stores.entities.getEntities(tenant, recorded)).map((e) => e.id));
  await stores.vectors.delete(tenant, ENTITY_COLLECTION, [...new Set([...emptied, ...recorded.filter((id) => !standing.has(id))])]);
  const audioFiles = audioSpans ? await audioSpans.removeUtterances(tenant, utteranceIds) : 0;
  await stores.memory.forgetUtterances(tenant, utteranceIds);
  return audioFiles;
}
