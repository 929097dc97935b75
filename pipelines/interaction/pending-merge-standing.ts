import type { GraphStore } from '../../graph/graph-store.js';
import type { PendingMerge } from '../../graph/pending-merges.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import { MEMORY_LAYERS, collectionFor } from '../memory/collections.js';
import { ENTITY_COLLECTION } from '../retrieval/left-brain-job.js';
import { rederiveAttributes, type DerivedSlot } from './derived-attributes.js';
import { factsMentioning } from './erase-participant.js';
import { MERGE_CLOCK, MergeLease, type MergeClock } from './merge-lease.js';

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
 * What erasing a merged-away participant's leftovers takes (`eraseLeftOfMerge`), recorded on the pending merge
 * (`PendingMerge.erasure`) before anything of it is deleted: the facts and persona nodes, the entities about them (whose
 * vectors go with any of them deleted), and other people's derived attributes to work out again once they are gone.
 */
interface LeftErasurePlan {
  factIds: string[];
  personaIds: string[];
  entityIds: string[];
  slots: DerivedSlot[];
}

/**
 * Erase what a merged-away `fromId` still owns once the participant its merge led to was erased: its facts and persona
 * (with their keyword and vector index entries, their records in the entity index, and the entities left about nothing
 * else), other people's attributes derived from those facts (worked out again from what remains), and its voiceprints,
 * as the survivor's erasure would have taken them had the merge's tail moved them first.
 *
 * Resumable: what it takes is listed and recorded on the pending merge (`GraphStore.renewMerge`, `PendingMerge.erasure`)
 * before any of it is deleted, and deleted by recorded id only (a fact stored since the listing is listed and recorded
 * on the next round), so a run cut short (a crash after the facts went, before their index entries or the attributes
 * they set) is finished by the next from the record: every later step works from the recorded ids and repeats safely,
 * and what is already gone is not found again. The merge's lease is renewed between the steps (`MergeLease`, by `clock`).
 */
export async function eraseLeftOfMerge(
  stores: Stores, tenant: TenantId, merge: Pick<PendingMerge, 'fromId' | 'intoId' | 'erasure'>, clock: MergeClock = MERGE_CLOCK,
): Promise<void> {
  const { fromId } = merge;
  const lease = new MergeLease(stores.graph, tenant, fromId, merge.intoId, clock);
  await lease.renew();
  let plan: LeftErasurePlan = merge.erasure ? JSON.parse(merge.erasure) as LeftErasurePlan : { factIds: [], personaIds: [], entityIds: [], slots: [] };
  for (;;) {
    const { ids: factIds, slots } = await factsMentioning(stores, tenant, fromId, []);
    const personaIds = (await stores.memory.listPersona(tenant, fromId)).map((p) => p.id);
    const entityIds = await stores.entities.entitiesOfMemories(tenant, [...factIds, ...personaIds]);
    const next = joinPlans(plan, { factIds, personaIds, entityIds, slots });
    if (JSON.stringify(next) !== JSON.stringify(plan)) {
      plan = next;
      // A merge with no record (an older version's marker alone) has nowhere to keep it: that run is not resumable.
      await lease.record(JSON.stringify(plan));
    }
    const { left } = await stores.memory.deleteParticipant(tenant, fromId, plan);
    await lease.renew();
    if (!left || left.factIds.length + left.personaIds.length === 0) break;
  }
  const derived = [...plan.factIds, ...plan.personaIds];
  await stores.lexical.delete(tenant, derived);
  for (const layer of MEMORY_LAYERS) await stores.vectors.delete(tenant, collectionFor(layer), derived);
  await lease.renew();
  const emptied = await stores.entities.eraseMemories(tenant, derived);
  // An entity a run cut short deleted (about nothing else) before its vector went is found by the record.
  const standing = new Set((await stores.entities.getEntities(tenant, plan.entityIds)).map((e) => e.id));
  await stores.vectors.delete(tenant, ENTITY_COLLECTION, [...new Set([...emptied, ...plan.entityIds.filter((id) => !standing.has(id))])]);
  await lease.renew();
  await rederiveAttributes(stores.graph, stores.memory, tenant, plan.slots);
  await stores.voiceprints.deleteByParticipant(tenant, fromId);
}

/** `a` with the lists of `b` added (no repeats). */
function joinPlans(a: LeftErasurePlan, b: LeftErasurePlan): LeftErasurePlan {
  const join = <T>(x: T[], y: T[], key: (v: T) => string): T[] => [...new Map([...x, ...y].map((v) => [key(v), v])).values()];
  return {
    factIds: join(a.factIds, b.factIds, String), personaIds: join(a.personaIds, b.personaIds, String),
    entityIds: join(a.entityIds, b.entityIds, String), slots: join(a.slots, b.slots, (s) => `${s.participantId}\u0000${s.slot}`),
  };
}
