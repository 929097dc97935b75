import { ALL_SESSIONS, type EventBus } from '../../graph/event-bus.js';
import { erasedIdKey } from '../../graph/retired-ids.js';
import type { Stores } from '../../graph/stores.js';
import type { InteractionFilter } from '../../graph/graph-store.js';
import type { TenantId } from '../../graph/types.js';
import type { AudioSpanStore } from '../audio/audio-span-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { MEMORY_LAYERS, collectionFor } from '../memory/collections.js';
import { MemoryIndexer } from '../memory/memory-indexer.js';
import { ENTITY_COLLECTION } from '../retrieval/left-brain-job.js';
import { eraseLeftBrainTraces, livingNamesLike } from './erase-left-brain.js';
import { derivedSlotOf, rederiveAttributes, type DerivedSlot } from './derived-attributes.js';

/** What erasure needs besides the stores. */
export interface ErasureDeps {
  stores: Stores;
  /** Kept audio, when the deployment keeps it. */
  audioSpans: AudioSpanStore | null;
  /** Re-embeds other people's utterances that addressed the person, to re-index them without them. */
  embedder: TextEmbedder;
  /**
   * The session event bus: the tenant's kept events are deleted (where it keeps them, embedded across processes),
   * then every live session of the tenant, on any process, is told to forget the person (`participant.erased`).
   */
  events?: Pick<EventBus, 'forgetTenant' | 'publish'>;
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
 * the entity index (entities named after them or quoting them, emergent schemas about them), queued jobs, voiceprints, kept audio and the tenant's kept bus events. Then the embedded database's file is
 * checkpointed so deleted rows do not linger in its write-ahead log (pages are zeroed on delete).
 * Returns null when the participant does not exist.
 *
 * The graph's participant goes last: every earlier step is idempotent and finds its targets
 * through the graph and the memory store, so an erasure cut short by a failing store (a network
 * error, a crash) leaves the participant in place and the same request, repeated, finishes it.
 */
export async function eraseParticipant(deps: ErasureDeps, tenant: TenantId, participantId: string): Promise<ErasureReport | null> {
  const { stores } = deps;
  const person = await stores.graph.getParticipant(tenant, participantId);
  if (!person) return null;
  const addressedThem = await pagedUtterances(stores, tenant, { addresseeId: participantId });
  const spoken = await pagedUtterances(stores, tenant, { speakerId: participantId });
  const { ids: facts, sources, slots } = await factsMentioning(stores, tenant, participantId);
  const persona = (await stores.memory.listPersona(tenant, participantId)).map((p) => p.id);
  // Their name and words as the left brain may quote them (entity names and descriptions, emergent schemas).
  const names = [person.name ?? '', ...person.aliases];
  const traces = {
    names,
    living: await livingNamesLike(stores.graph, tenant, participantId, names),
    texts: (await Promise.all(spoken.map((id) => stores.graph.getUtterance(tenant, id)))).flatMap((u) => (u ? [u.text] : [])),
  };
  const leftBrain = { entities: stores.entities, vectors: stores.vectors, embedder: deps.embedder };
  await eraseLeftBrainTraces(leftBrain, tenant, { ...traces, memoryIds: [...spoken, ...facts, ...persona] });
  const first = await eraseDerived(deps, tenant, participantId, spoken, facts, persona);
  await reindexWithout(deps, tenant, participantId, addressedThem.filter((id) => !spoken.includes(id)));
  const memory = await stores.memory.deleteParticipant(tenant, participantId);
  const deleted = await stores.graph.deleteParticipant(tenant, participantId);
  if (!deleted) return null;
  // Once more for everything, now that the graph no longer holds them: a consolidation job that ran
  // during the erasure may have indexed an utterance or stored a fact after the first pass (jobs stop
  // writing once the utterance is gone from the graph). Every step is idempotent.
  const utteranceIds = [...new Set([...spoken, ...deleted])];
  const factIds = [...new Set([...facts, ...memory.factIds])];
  const personaIds = [...new Set([...persona, ...memory.personaIds])];
  await eraseLeftBrainTraces(leftBrain, tenant, { ...traces, memoryIds: [...utteranceIds, ...factIds, ...personaIds] });
  const second = await eraseDerived(deps, tenant, participantId, utteranceIds, factIds, personaIds);
  await unlinkErasedFacts(stores, tenant, sources.filter((id) => !utteranceIds.includes(id)), factIds);
  // Someone else's attribute derived from an erased memory ("Ana lives in Oslo", said by the erased person)
  // falls back to what their remaining memories say, or goes.
  await rederiveAttributes(stores.graph, stores.memory, tenant, slots);
  const report = {
    utteranceIds, factIds, personaIds,
    voiceprints: first.voiceprints + second.voiceprints, audioFiles: first.audioFiles + second.audioFiles,
  };
  // Live notifications kept for other processes may quote the person (a `memory.updated` text): the tenant's go.
  await deps.events?.forgetTenant?.(tenant);
  // Live speaker trackers still map a voice to the id: they drop it (the notice carries its hash, not the id).
  // Best effort, as the bus is: a session that misses it has its turns under the id refused (the graph keeps the erasure).
  await deps.events?.publish(tenant, ALL_SESSIONS, { type: 'participant.erased', payload: { erased_key: erasedIdKey(participantId) } }).catch(() => undefined);
  stores.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  return report;
}

/** Remove everything derived from the person's utterances, facts and persona: each step may run again. */
async function eraseDerived(
  deps: ErasureDeps, tenant: TenantId, participantId: string, utteranceIds: string[], factIds: string[], personaIds: string[],
): Promise<ErasureReport> {
  const { stores, audioSpans } = deps;
  const derived = [...utteranceIds, ...factIds, ...personaIds];
  await stores.queue.forget(utteranceIds);
  const voiceprints = await stores.voiceprints.deleteByParticipant(tenant, participantId);
  await stores.lexical.delete(tenant, derived);
  for (const layer of MEMORY_LAYERS) await stores.vectors.delete(tenant, collectionFor(layer), derived);
  const entities = await stores.entities.eraseMemories(tenant, derived);
  await stores.vectors.delete(tenant, ENTITY_COLLECTION, entities);
  const audioFiles = audioSpans ? await audioSpans.removeUtterances(tenant, utteranceIds) : 0;
  await stores.memory.forgetUtterances(tenant, utteranceIds);
  return { utteranceIds, factIds, personaIds, voiceprints, audioFiles };
}

/**
 * Ids of every fact that mentions the participant (speaker, subject or addressee), history included, the
 * ids of the turns they came from, and the derived attributes of other participants those facts may have set.
 */
async function factsMentioning(
  stores: Stores, tenant: TenantId, participantId: string,
): Promise<{ ids: string[]; sources: string[]; slots: DerivedSlot[] }> {
  const ids: string[] = [];
  const sources: string[] = [];
  const slots: DerivedSlot[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await stores.memory.listFacts(tenant, { participantId, role: 'any', includeHistory: true, limit: 1000, offset });
    ids.push(...page.map((f) => f.id));
    sources.push(...page.flatMap((f) => f.referIds));
    slots.push(...page.flatMap(derivedSlotOf).filter((s) => s.participantId !== participantId));
    if (page.length < 1000) return { ids: [...new Set(ids)], sources: [...new Set(sources)], slots };
  }
}

/**
 * Drop the erased facts from the consolidation records of other people's turns they came from: a turn that
 * keeps a record of an erased fact counts as no longer current (`turnsClosedAt`, meant for a memory the user
 * deleted), while a turn that only mentioned the erased person stays what it was, a turn.
 */
async function unlinkErasedFacts(stores: Stores, tenant: TenantId, turnIds: string[], erased: string[]): Promise<void> {
  const gone = new Set(erased);
  for (const [id, facts] of await stores.memory.processedFactsOf(tenant, turnIds)) {
    if (facts.some((f) => gone.has(f))) await stores.memory.markProcessed(tenant, id, facts.filter((f) => !gone.has(f)));
  }
}

/** Ids of every utterance matching the filter (spoken by or addressed to someone), newest first, page by page (erasure, manual merge). */
export async function pagedUtterances(stores: Stores, tenant: TenantId, filter: Pick<InteractionFilter, 'speakerId' | 'addresseeId'>): Promise<string[]> {
  const ids: string[] = [];
  let until: string | undefined;
  for (;;) {
    const page = await stores.graph.queryInteractions(tenant, { ...filter, limit: 1000, ...(until ? { until } : {}) });
    const fresh = page.filter((u) => !ids.includes(u.id));
    ids.push(...fresh.map((u) => u.id));
    if (page.length < 1000 || fresh.length === 0) return ids;
    until = page.reduce((min, u) => (u.time < min ? u.time : min), page[0]!.time);
  }
}

/** Index other people's utterances again without the erased person among their addressees (their stored vectors reused). */
async function reindexWithout(deps: ErasureDeps, tenant: TenantId, participantId: string, utteranceIds: string[]): Promise<void> {
  const indexer = new MemoryIndexer(deps.stores.vectors, deps.stores.lexical, deps.embedder);
  for (const id of utteranceIds) {
    const u = await deps.stores.graph.getUtterance(tenant, id);
    if (!u) continue;
    const [vector] = await indexer.vectorsFor(tenant, [{ id: u.id, layer: 'interaction', text: u.text }]);
    if (vector) await indexer.indexUtterance(tenant, { ...u, addresseeIds: u.addresseeIds.filter((a) => a !== participantId) }, vector);
  }
}
