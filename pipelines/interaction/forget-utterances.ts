import { ALL_SESSIONS, type EventBus } from '../../graph/event-bus.js';
import type { Fact } from '../../graph/memory-store.js';
import type { PendingErasure } from '../../graph/pending-erasures.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import type { AudioSpanStore } from '../audio/audio-span-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import type { MemoryOp } from '../memory/fact-writes.js';
import type { MinAsrConfidence } from '../memory/doubtful-speech.js';
import { MemoryIndexer } from '../memory/memory-indexer.js';
import { subjectLockKey } from '../memory/subject-lock.js';
import { derivedSlotOf, rederiveAttributes, type DerivedSlot } from './derived-attributes.js';
import { eraseLeftBrainTraces } from './erase-left-brain.js';
import { eraseTraces } from './erase-traces.js';
import { ErasureClaim, type ErasureOwner } from './erasure-claim.js';
import { closedByForgotten, reopenClosed, reopenVectors, type DeletedByTurn, type Reopening } from './reopen-forgotten.js';
import { truncateWal } from '../../graph/sqlite/database.js';

/**
 * What forgetting needs: the stores, kept audio, the embedder (left-brain entities described again) and the bus (kept
 * events deleted; live sessions of the tenant told what memories went or came back, `memory.updated`).
 */
export interface ForgetDeps {
  stores: Stores;
  audioSpans: AudioSpanStore | null;
  embedder: TextEmbedder;
  /** `memory.minAsrConfidence`, the indexer's doubtful-speech gate. */
  minAsrConfidence: MinAsrConfidence;
  events?: Pick<EventBus, 'forgetTenant' | 'publish'>;
}

/** The `reason` of the `memory.updated` ops a forgetting sends. */
export const FORGOTTEN = 'forgotten';

/** What to forget: one utterance (`DELETE /v1/utterances/{id}`) or a whole session (`DELETE /v1/sessions/{id}`). */
export type ForgetTarget = { utteranceId: string } | { sessionId: string };

/**
 * What a forgetting removed: the utterances, the memories that came only from them, those that lost one source, and
 * those current again (they had been closed only by what was forgotten).
 */
export interface ForgetReport {
  utteranceIds: string[];
  deletedMemoryIds: string[];
  keptMemoryIds: string[];
  reopenedMemoryIds: string[];
  /** Who spoke the utterances (a speaker left with none may go with them: `forgetTarget`). */
  speakerIds: string[];
}

/**
 * What a run cut short needs once the utterances are gone from the graph, kept on the pending erasure (the utterance ids
 * are the record's own `utteranceIds`).
 */
interface ForgetPlan {
  sessionId: string | null;
  /** Texts of the utterances, as entity descriptions and schemas may quote them. */
  texts: string[];
  /** Memories whose only sources are the utterances (recorded before each is deleted). */
  factIds: string[];
  /** Participants' derived attributes those memories may have set. */
  slots: DerivedSlot[];
  /** Entities about the erased ids, recorded before the entity index forgets them. */
  entityIds: string[];
  /** Persona nodes whose only evidence was the utterances (deleted, then recorded: their traces go with the facts'). */
  personaIds?: string[];
  /** What the utterances' consolidation deleted (read before their records go); absent in a plan recorded before it was kept. */
  deletedBy?: DeletedByTurn[];
  /** Memories closed only by what is forgotten, to make current again (recorded before the memories closing them go). */
  reopen?: Reopening[];
  /** Who spoke the utterances (read before they go); absent in a plan recorded before it was kept. */
  speakerIds?: string[];
}

/**
 * Pending forgettings share the pending erasures of participants (`GraphStore.beginErasure`, their claim and lease,
 * the start-up finisher), under keys no participant id takes (ids are `p_` + hex; these hold spaces).
 */
const KEY_PREFIX = 'forget ';

function forgetKey(target: ForgetTarget): string {
  return 'sessionId' in target ? `${KEY_PREFIX}session ${target.sessionId}` : `${KEY_PREFIX}utterance ${target.utteranceId}`;
}

/** Whether a pending erasure's id is a forgetting of utterances, not a participant's erasure. */
export function isForgetKey(id: string): boolean {
  return id.startsWith(KEY_PREFIX);
}

function targetOf(key: string): ForgetTarget {
  const rest = key.slice(KEY_PREFIX.length);
  const space = rest.indexOf(' ');
  const [kind, id] = [rest.slice(0, space), rest.slice(space + 1)];
  return kind === 'session' ? { sessionId: id } : { utteranceId: id };
}

/**
 * Forget one utterance or a whole session: the utterances (text, kept audio, speaker and addressee edges), their turn
 * vectors and keyword entries, the memories whose only sources they are (history, vectors, entity-index entries;
 * attributes derived from them fall back or go), and the erased ids from the sources of memories that keep another;
 * persona nodes whose only evidence they are, and the erased ids (and session) from the evidence of the others;
 * for a session, its record too (stream state). What the memories removed had closed, and what the utterances deleted,
 * is current again where only forgotten memories closed it (`closedByForgotten`); live sessions of the tenant are told
 * (`memory.updated`, `reason: forgotten`). Null when there is nothing of it and no forgetting of it is pending.
 *
 * Made resumable by the machinery of participant erasure: before the first destructive step the forgetting is
 * recorded as a pending erasure (`GraphStore.beginErasure`, under its own key) with the utterance ids and a plan, and
 * claimed for `lease.owner`; every step repeats safely; the record goes last. A run cut short is finished by the same
 * request or at start (`finishPendingErasures`). A claim held by another server is a `PARLEY_ERR_CONFLICT`.
 */
export async function forgetUtterances(deps: ForgetDeps, tenant: TenantId, target: ForgetTarget, lease: ErasureOwner): Promise<ForgetReport | null> {
  const { graph } = deps.stores;
  const key = forgetKey(target);
  const pending = (await graph.pendingErasures(tenant)).find((e) => e.participantId === key);
  const session = 'sessionId' in target ? await graph.getSession(tenant, target.sessionId) : null;
  const stored = 'sessionId' in target
    ? await sessionUtteranceIds(deps.stores, tenant, target.sessionId)
    : (await graph.getUtterance(tenant, target.utteranceId)) ? [target.utteranceId] : [];
  if (!pending && !session && stored.length === 0) return null;
  const held = new ErasureClaim(deps.stores, tenant, key, lease);
  try {
    if (pending) await held.claim();
    const ids = [...new Set([...(pending?.utteranceIds ?? []), ...stored])];
    const read = await readPlan(deps.stores, tenant, ids, 'sessionId' in target ? target.sessionId : null);
    const plan = pending ? mergePlans(JSON.parse(pending.plan) as ForgetPlan, read) : read;
    await graph.beginErasure(tenant, key, JSON.stringify(plan), ids);
    if (!pending) await held.claim();
    return await forgetRecorded(deps, tenant, key, ids, plan);
  } catch (err) {
    await held.release();
    throw err;
  } finally {
    held.stop();
  }
}

/** Finish a forgetting found pending at start (`finishPendingErasures`, which claimed it): false when nothing was left. */
export async function finishForgetting(deps: ForgetDeps, tenant: TenantId, pending: PendingErasure, lease: ErasureOwner): Promise<boolean> {
  return (await forgetUtterances(deps, tenant, targetOf(pending.participantId), lease)) !== null;
}

/** The ids of every utterance of the session, a page at a time. */
async function sessionUtteranceIds(stores: Stores, tenant: TenantId, sessionId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let after: { time: string; seq: number } | undefined; ;) {
    const page = await stores.graph.getTranscript(tenant, sessionId, { ...(after ? { after } : {}), limit: 1000 });
    ids.push(...page.map((u) => u.id));
    const last = page[page.length - 1];
    if (page.length < 1000 || !last) return ids;
    after = { time: last.time, seq: last.seq };
  }
}

/** What the utterances are read for before anything goes: their texts, and the memories that came only from them. */
async function readPlan(stores: Stores, tenant: TenantId, ids: string[], sessionId: string | null): Promise<ForgetPlan> {
  const utterances = await stores.graph.getUtterances(tenant, ids);
  const only = onlyFrom(await stores.memory.factsFromUtterances(tenant, ids), ids);
  const deletedBy: DeletedByTurn[] = [];
  for (const u of utterances) {
    for (const id of (await stores.memory.processedBy(tenant, u.id))?.deletedIds ?? []) deletedBy.push({ id, at: u.time });
  }
  return { sessionId, texts: utterances.map((u) => u.text), factIds: only.map((f) => f.id), slots: only.flatMap(derivedSlotOf), entityIds: [], deletedBy,
    speakerIds: [...new Set(utterances.map((u) => u.speakerId))] };
}

function onlyFrom<T extends { referIds: string[] }>(facts: T[], ids: string[]): T[] {
  const erased = new Set(ids);
  return facts.filter((f) => f.referIds.every((r) => erased.has(r)));
}

function mergePlans(a: ForgetPlan, b: Partial<ForgetPlan>): ForgetPlan {
  const join = <T>(x: T[], y: T[] | undefined, key: (v: T) => string = String): T[] =>
    [...new Map([...x, ...(y ?? [])].map((v) => [key(v), v] as const)).values()];
  return {
    sessionId: a.sessionId ?? b.sessionId ?? null, texts: join(a.texts, b.texts), factIds: join(a.factIds, b.factIds),
    slots: join(a.slots, b.slots, (s) => `${s.participantId}\u0000${s.slot}`), entityIds: join(a.entityIds ?? [], b.entityIds),
    personaIds: join(a.personaIds ?? [], b.personaIds), deletedBy: join(a.deletedBy ?? [], b.deletedBy, (d) => d.id),
    reopen: join(a.reopen ?? [], b.reopen, (r) => r.id), speakerIds: join(a.speakerIds ?? [], b.speakerIds),
  };
}

/** The destructive steps, once recorded and claimed; each repeats safely. */
async function forgetRecorded(deps: ForgetDeps, tenant: TenantId, key: string, ids: string[], recorded: ForgetPlan): Promise<ForgetReport> {
  const { stores } = deps;
  let plan = recorded;
  const record = async (more: Partial<ForgetPlan>): Promise<ForgetPlan> => {
    const next = mergePlans(plan, more);
    if (JSON.stringify(next) !== JSON.stringify(plan)) await stores.graph.beginErasure(tenant, key, JSON.stringify(next), []);
    plan = next;
    return plan;
  };
  const kept = new Set<string>();
  const sweep = async (): Promise<void> => {
    for (const id of await forgetMemories(deps, tenant, ids, plan.deletedBy ?? [], record)) kept.add(id);
    // What the persona learned from the utterances goes too; a node with other evidence stays without them.
    const persona = await stores.memory.forgetPersonaEvidence(tenant, ids, plan.sessionId !== null ? [plan.sessionId] : []);
    await record({ personaIds: persona.deletedIds });
    const memoryIds = [...plan.factIds, ...plan.personaIds ?? []];
    await eraseLeftBrainTraces({ entities: stores.entities, vectors: stores.vectors, embedder: deps.embedder }, tenant,
      { names: [], texts: plan.texts, memoryIds: [...ids, ...memoryIds] });
    await eraseTraces(deps, tenant, ids, memoryIds, async (entityIds) => (await record({ entityIds })).entityIds);
  };
  await sweep();
  await rederiveAttributes(stores.graph, stores.memory, tenant, plan.slots);
  await stores.graph.deleteUtterances(tenant, ids);
  // Once more: a consolidation job that read one of the turns before it left the graph may have stored a memory since.
  await sweep();
  await rederiveAttributes(stores.graph, stores.memory, tenant, plan.slots);
  if (plan.sessionId !== null) await stores.graph.deleteSession(tenant, plan.sessionId);
  // Kept live notifications may quote the words (`transcript.final`, `memory.updated`): the tenant's go, as on erasure.
  await deps.events?.forgetTenant?.(tenant);
  const reopened = await currentAgain(stores, tenant, plan.reopen ?? []);
  await tellLiveSessions(deps, tenant, plan.factIds, reopened);
  await stores.graph.endErasure(tenant, key);
  await truncateWal(stores.sqlite);
  return { utteranceIds: ids, deletedMemoryIds: plan.factIds, keptMemoryIds: [...kept], reopenedMemoryIds: reopened.map((f) => f.id),
    speakerIds: plan.speakerIds ?? [] };
}

/** The memories of `reopen` current now (a later memory may have closed one again since). */
async function currentAgain(stores: Stores, tenant: TenantId, reopen: readonly Reopening[]): Promise<Fact[]> {
  if (reopen.length === 0) return [];
  return stores.memory.listFacts(tenant, { ids: reopen.map((r) => r.id), limit: 1000 });
}

/**
 * Tell every live session of the tenant, on any process, what forgetting changed, as consolidation does
 * (`memory.updated`, `reason: forgotten`): a DELETE for each memory removed (without its words: they were forgotten),
 * an ADD for each current again. After the kept events were deleted (`forgetTenant`), so this one is not. Best effort,
 * as the bus is (a run cut short after this sends it again).
 */
async function tellLiveSessions(deps: ForgetDeps, tenant: TenantId, deletedIds: readonly string[], reopened: readonly Fact[]): Promise<void> {
  const ops: MemoryOp[] = [
    ...deletedIds.map((id): MemoryOp => ({ op: 'DELETE', memory_id: id, text: '', reason: FORGOTTEN })),
    ...reopened.map((f): MemoryOp => ({ op: 'ADD', memory_id: f.id, text: f.content, reason: FORGOTTEN })),
  ];
  if (ops.length === 0 || !deps.events) return;
  await deps.events.publish(tenant, ALL_SESSIONS, { type: 'memory.updated', payload: { ops } }).catch(() => undefined);
}

/**
 * Delete the memories that came only from `ids` (each recorded on the pending erasure before it goes, with its index
 * entries), and take `ids` out of the sources of those that keep another (they stay). Until a listing finds none.
 * Returns the ids of those kept.
 */
async function forgetMemories(
  deps: ForgetDeps, tenant: TenantId, ids: string[], deletedBy: readonly DeletedByTurn[], record: (more: Partial<ForgetPlan>) => Promise<ForgetPlan>,
): Promise<string[]> {
  const { memory } = deps.stores;
  const indexer = new MemoryIndexer(deps.stores.vectors, deps.stores.lexical, deps.embedder, deps.minAsrConfidence);
  const erased = new Set(ids);
  const kept: string[] = [];
  // The first round runs even when no memory came from the utterances: one of them may have deleted some.
  for (let round = 0; ; round++) {
    const facts = await memory.factsFromUtterances(tenant, ids);
    if (facts.length === 0 && round > 0) return kept;
    const only = onlyFrom(facts, ids);
    // Found before any goes (a deletion clears the links to it), recorded before any is reopened.
    const reopen = await closedByForgotten(memory, tenant, only, deletedBy);
    const closed = reopen.length > 0 ? await memory.listFacts(tenant, { ids: reopen.map((r) => r.id), includeHistory: true, limit: 1000 }) : [];
    const plan = await record({ factIds: only.map((f) => f.id), slots: [...only, ...closed].flatMap(derivedSlotOf), reopen });
    const due = plan.reopen ?? [];
    const reopening = due.length > 0 ? await memory.listFacts(tenant, { ids: due.map((r) => r.id), includeHistory: true, limit: 1000 }) : [];
    // Under the locks of the subjects whose memories go and come back, which consolidation writes under
    // (`subjectLockKey`): a job never writes a new value of the slot between the check that it is free and the reopening,
    // nor decides against the memory that goes while it goes. The check is made again under them (`reopenClosed`). What
    // comes back is embedded before (`reopenVectors`): no lock is held across an embedder call; one rewritten meanwhile
    // (it reads otherwise under the locks) is embedded again outside them, and the locks taken again.
    const keys = [...new Set([...only, ...reopening].map((f) => subjectLockKey(tenant, f.subjectId)))];
    const forgotten = new Set(plan.factIds);
    let prepared = await reopenVectors(indexer, tenant, reopening);
    for (;;) {
      const stale = await deps.stores.locks.withLock(keys, async () => {
        const reopened = await reopenClosed(memory, indexer, tenant, due, forgotten, prepared);
        if (reopened.stale.length > 0) return reopened.stale;
        await indexer.removeFacts(tenant, only);
        for (const f of only) await memory.deleteFact(tenant, f.id);
        return [];
      });
      if (stale.length === 0) break;
      prepared = await reopenVectors(indexer, tenant, stale, prepared);
    }
    for (const f of facts.filter((x) => !only.includes(x))) {
      await memory.patchFact(tenant, f.id, { referIds: f.referIds.filter((r) => !erased.has(r)) });
      kept.push(f.id);
    }
    if (facts.length === 0) return kept;
  }
}
