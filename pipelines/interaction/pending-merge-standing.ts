import type { GraphStore } from '../../graph/graph-store.js';
import type { PendingMerge } from '../../graph/pending-merges.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import { MEMORY_LAYERS, collectionFor } from '../memory/collections.js';
import { ENTITY_COLLECTION } from '../retrieval/left-brain-job.js';
import { rederiveAttributes } from './derived-attributes.js';
import { factsMentioning } from './erase-participant.js';

/**
 * Where a pending merge of `fromId` into `intoId` stands now, read from the graph:
 * - `graph`: `fromId` is still a participant and `intoId` too: the whole merge goes on (its graph part was cut short);
 * - `tail`: the graph retired `fromId`; `survivor` is the participant it leads to now (`intoId`, or whoever `intoId`
 *   was merged into since): the memory tail is owed to them;
 * - `erased`: the graph retired `fromId` and the participant it leads to was erased since: what `fromId` still owns in
 *   the memory store and voiceprints must go;
 * - `gone`: checked explicitly, the pair no longer exists as a merge can go on with (`fromId` never retired and
 *   absent, or `intoId` absent while `fromId` stays): only then is a merge rolled back.
 */
export type MergeStanding = { step: 'graph' } | { step: 'tail'; survivor: string } | { step: 'erased' } | { step: 'gone' };

/** How many merges a chain of retired ids may pass through (a cycle, which no merge writes, stops there). */
const MAX_HOPS = 64;

export async function mergeStanding(graph: GraphStore, tenant: TenantId, merge: Pick<PendingMerge, 'fromId' | 'intoId'>): Promise<MergeStanding> {
  if (await graph.getParticipant(tenant, merge.fromId)) {
    return await graph.getParticipant(tenant, merge.intoId) ? { step: 'graph' } : { step: 'gone' };
  }
  let retired = await graph.retiredParticipant(tenant, merge.fromId);
  for (let hops = 0; retired && 'mergedInto' in retired && hops < MAX_HOPS; hops++) {
    if (await graph.getParticipant(tenant, retired.mergedInto)) return { step: 'tail', survivor: retired.mergedInto };
    retired = await graph.retiredParticipant(tenant, retired.mergedInto);
  }
  return retired && 'erased' in retired ? { step: 'erased' } : { step: 'gone' };
}

/**
 * Erase what a merged-away `fromId` still owns once the participant its merge led to was erased: its facts and persona
 * (with their keyword and vector index entries, their records in the entity index, and the entities left about nothing
 * else), other people's attributes derived from those facts (worked out again from what remains), and its voiceprints,
 * as the survivor's erasure would have taken them had the merge's tail moved them first. The attributes to work out
 * again are read before the facts go.
 */
export async function eraseLeftOfMerge(stores: Stores, tenant: TenantId, fromId: string): Promise<void> {
  const { slots } = await factsMentioning(stores, tenant, fromId, []);
  const { factIds, personaIds } = await stores.memory.deleteParticipant(tenant, fromId);
  const derived = [...factIds, ...personaIds];
  await stores.lexical.delete(tenant, derived);
  for (const layer of MEMORY_LAYERS) await stores.vectors.delete(tenant, collectionFor(layer), derived);
  await stores.vectors.delete(tenant, ENTITY_COLLECTION, await stores.entities.eraseMemories(tenant, derived));
  await rederiveAttributes(stores.graph, stores.memory, tenant, slots);
  await stores.voiceprints.deleteByParticipant(tenant, fromId);
}
