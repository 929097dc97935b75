/**
 * An utterance given to another speaker after it was consolidated (the first-turn revision, `speaker.revised`): the
 * facts it gave its old speaker are withdrawn and what they had replaced is current again, before the consolidation
 * job extracts it again under its new speaker, as a fresh utterance (`createConsolidationHandler`).
 */
import type { GraphStore } from '../../graph/graph-store.js';
import { factWithdrawn, type Fact, type MemoryStore } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import { derivedSlotOf, rederiveAttributes } from '../interaction/derived-attributes.js';
import type { ExtractionResult } from './extractor.js';
import { extractedFactId, legacyExtractedFactId, type MemoryOp } from './fact-writes.js';
import type { MemoryIndexer } from './memory-indexer.js';
import { unlearnName } from './revised-name.js';

/** The `reason` of the `memory.updated` ops a speaker revision causes. */
export const SPEAKER_REVISED = 'speaker_revised';

/** Most facts of one subject read to find those a withdrawn fact had closed. */
const SUBJECT_HISTORY = 1000;

/** The stores withdrawing facts writes to. */
export interface RevisedSpeakerDeps {
  graph: GraphStore;
  memory: MemoryStore;
}

/**
 * The facts consolidation recorded for `u` (`processed`, from `MemoryStore.processedFacts`) that came from it and
 * name a speaker it no longer has who still exists: what it gave its old speaker before it was moved. Empty for an
 * utterance not moved since, for facts it only kept, and for a merge, whole or half done: the graph re-points the
 * utterances before the memory store relabels the facts (`applyMerge`), and a speaker merged away is no longer held.
 */
export async function movedFacts({ graph, memory }: RevisedSpeakerDeps, tenant: TenantId, u: Utterance, processed: readonly string[]): Promise<Fact[]> {
  if (processed.length === 0) return [];
  const facts = await memory.listFacts(tenant, { ids: [...processed], includeHistory: true, limit: 1000 });
  const others = facts.filter((f) => f.referIds.includes(u.id) && f.speakerId !== u.speakerId);
  if (others.length === 0) return [];
  const held = new Set((await graph.getParticipants(tenant, [...new Set(others.map((f) => f.speakerId))])).map((p) => p.id));
  return others.filter((f) => held.has(f.speakerId));
}

/**
 * True when `u` was consolidated under a speaker it no longer has (`MemoryStore.processedBy`): a revision since, even
 * where the turn gave that speaker no fact of its own (every decision a KEEP or a DELETE). A speaker no longer held
 * counts when erased since (`GraphStore.retiredParticipant`), or merged into someone other than `u`'s speaker now; a
 * merge into `u`'s speaker, whole or half done, is none. False for a record of no speaker (written before it was kept).
 */
export async function revisedSince({ graph, memory }: RevisedSpeakerDeps, tenant: TenantId, u: Utterance): Promise<boolean> {
  const before = await memory.processedBy(tenant, u.id);
  if (before === null || before.speakerId === u.speakerId) return false;
  if ((await graph.getParticipants(tenant, [before.speakerId])).length > 0) return true;
  const retired = await graph.retiredParticipant(tenant, before.speakerId);
  if (retired === null) return false;
  return 'erased' in retired || retired.mergedInto !== u.speakerId;
}

/**
 * What `u`'s consolidation under the speaker it was moved from deleted ("I don't live in Oslo any more") and is still
 * closed by that deletion (at `u`'s time, replaced by nothing): to reopen ({@link reopenDeleted}). Empty unless
 * {@link revisedSince}.
 */
export async function deletedByMoved(deps: RevisedSpeakerDeps, tenant: TenantId, u: Utterance): Promise<Fact[]> {
  const by = await deps.memory.processedBy(tenant, u.id);
  if (by === null || by.deletedIds.length === 0 || !(await revisedSince(deps, tenant, u))) return [];
  const facts = await deps.memory.listFacts(tenant, { ids: by.deletedIds, includeHistory: true, limit: 1000 });
  return facts.filter((f) => f.validTo === null || (f.validTo === u.time && f.supersededBy === null));
}

/**
 * Make current again what `u` deleted under its old speaker (`deleted`, from {@link deletedByMoved}): each indexed, then
 * reopened, its attribute worked out again; the re-extraction under the new speaker decides the retraction again. One
 * found current already (a cut run reopened it) goes through the same steps (each idempotent). One whose slot a later
 * fact took since ("I live in Madrid" after the retraction) is kept as history, closed by that fact, and sent no op.
 * Returns the ADD ops of those reopened,
 * `reason: 'speaker_revised'` (at least once: the ops of a cut run were never sent).
 */
export async function reopenDeleted(
  deps: RevisedSpeakerDeps, indexer: MemoryIndexer, tenant: TenantId, u: Utterance, deleted: readonly Fact[], live: AbortSignal,
): Promise<MemoryOp[]> {
  if (deleted.length === 0) return [];
  const reopen: Fact[] = [];
  for (const f of deleted) {
    const newer = await newerInSlot(deps.memory, tenant, u, f);
    if (newer) await keepReplaced(deps.memory, indexer, tenant, u, f, newer);
    else reopen.push(f);
  }
  if (reopen.length > 0) {
    const vectors = await indexer.vectorsFor(tenant, reopen.map((x) => ({ id: x.id, layer: x.layer, text: x.content })));
    live.throwIfAborted();
    // Indexed while still closed: a cut here leaves them closed, and found again by the re-run.
    await indexer.indexFacts(tenant, reopen.map((fact, i) => ({ fact, vector: vectors[i] as Float32Array })));
    for (const f of reopen) if (f.validTo !== null) await deps.memory.reopenDeleted(tenant, f.id, u.time);
  }
  // All of them, not only those reopened now: a cut run may have reopened one and stopped before this, or before its ops were sent.
  await rederiveAttributes(deps.graph, deps.memory, tenant, deleted.flatMap(derivedSlotOf));
  return reopen.map((f) => ({ op: 'ADD', memory_id: f.id, text: f.content, reason: SPEAKER_REVISED }));
}

/**
 * The current fact of `f`'s subject and slot that began after `u` (the retraction) and so took the slot `f` left
 * ("I live in Madrid" after "I don't live in Lisbon any more"), the first such; null when none. A stay (an own end)
 * does not replace a home, and is passed over.
 */
async function newerInSlot(memory: MemoryStore, tenant: TenantId, u: Utterance, f: Fact): Promise<Fact | null> {
  if (f.slot === null) return null;
  const same = await memory.listFacts(tenant, { subjectId: f.subjectId, slot: f.slot, limit: 50 });
  const newer = same.filter((x) => x.id !== f.id && x.validFrom > u.time && x.validUntil === null);
  return newer.sort((a, b) => a.validFrom.localeCompare(b.validFrom))[0] ?? null;
}

/**
 * Keep `f`, deleted by `u` and replaced since by `newer`, as history: closed where `newer` began and superseded by it,
 * as if `newer` had replaced it. Two writes when still closed by `u` (reopened, then closed by `newer`); a cut between
 * them leaves it current, and the re-run finds it so and closes it (and takes it out of search).
 */
async function keepReplaced(memory: MemoryStore, indexer: MemoryIndexer, tenant: TenantId, u: Utterance, f: Fact, newer: Fact): Promise<void> {
  if (f.validTo !== null) await memory.reopenDeleted(tenant, f.id, u.time);
  const closed = await memory.closeFact(tenant, f.id, newer.validFrom, newer.id);
  if (closed) await indexer.removeFacts(tenant, [closed]);
}

/**
 * The facts a consolidation of `u` cut short before `u` was moved stored for its old speaker: those of the extraction kept
 * for it (`MemoryStore.keptExtraction`) when that extraction names a speaker `u` no longer has who still exists, found
 * by their ids. Null when none is kept, or it is `u`'s own speaker's or a speaker's merged into it since (the job replays
 * it); else the facts (maybe none), to withdraw before the kept extraction is dropped.
 */
export async function staleExtractionFacts({ graph, memory }: RevisedSpeakerDeps, tenant: TenantId, u: Utterance): Promise<Fact[] | null> {
  const kept = await memory.keptExtraction(tenant, u.id);
  if (kept === null) return null;
  const extraction = JSON.parse(kept) as ExtractionResult;
  const others = [...new Set(extraction.facts.map((f) => f.speakerId).filter((id) => id !== u.speakerId))];
  // A speaker merged away since (no longer held) is not a revision: the replay keeps what the merge relabelled.
  if (others.length === 0 || (await graph.getParticipants(tenant, others)).length === 0) return null;
  // A run cut short before fact ids hashed the speaker stored them under the legacy id.
  const ids = extraction.facts.flatMap((ef) => [extractedFactId(tenant, u.id, ef), legacyExtractedFactId(tenant, u.id, ef)]);
  const stored = ids.length > 0 ? await memory.listFacts(tenant, { ids, includeHistory: true, limit: 1000 }) : [];
  return stored.filter((f) => f.speakerId !== u.speakerId);
}

/**
 * Withdraw what `u` gave its old speaker (`facts`, from {@link movedFacts}): a fact of other utterances too only loses
 * `u` from its sources; a fact of `u` alone that is current is closed where it began (`factWithdrawn`), taken out of
 * search, and every fact it had closed (what it superseded, a home its stay's successor closed) is indexed and
 * reopened, and a name it taught is taken away (`unlearnName`); a fact a later one already replaced stays as history.
 * Returns the ops to send, each with `reason: 'speaker_revised'`.
 * Re-runnable after a crash before any write: a withdrawn fact is found again (it stays among `u`'s processed facts
 * until the re-extraction records new ones) and its steps, each idempotent, are done again; a fact is indexed
 * before it is reopened, since once reopened nothing marks it as this fact's to reopen.
 */
export async function withdrawMoved(
  deps: RevisedSpeakerDeps, indexer: MemoryIndexer, tenant: TenantId, u: Utterance, facts: readonly Fact[], live: AbortSignal,
): Promise<MemoryOp[]> {
  const ops: MemoryOp[] = [];
  for (const f of facts) {
    live.throwIfAborted();
    const others = f.referIds.filter((id) => id !== u.id);
    if (others.length > 0) {
      await deps.memory.patchFact(tenant, f.id, { referIds: others });
      continue;
    }
    const closed = f.validTo === null ? await deps.memory.closeFact(tenant, f.id, f.validFrom, null) : null;
    const gone = closed ?? (factWithdrawn(f) ? f : null);
    if (!gone) continue;
    await indexer.removeFacts(tenant, [gone]);
    ops.push({ op: 'DELETE', memory_id: gone.id, text: gone.content, reason: SPEAKER_REVISED });
    const reopened = await reopenReplaced(deps.memory, indexer, tenant, gone, live);
    ops.push(...reopened.map((r): MemoryOp => ({ op: 'ADD', memory_id: r.id, text: r.content, reason: SPEAKER_REVISED })));
    await rederiveAttributes(deps.graph, deps.memory, tenant, [gone, ...reopened].flatMap(derivedSlotOf));
    await unlearnName(deps, tenant, gone);
  }
  return ops;
}

/**
 * The subjects withdrawing `facts` may write: each fact's own, and that of the fact it superseded, which may be another
 * participant's (a settling fact closes a plan of someone in the session or of an addressee). Its callers lock them all.
 */
export async function withdrawnSubjects(memory: MemoryStore, tenant: TenantId, facts: readonly Fact[]): Promise<string[]> {
  const subjects = new Set(facts.map((f) => f.subjectId));
  const priorIds = [...new Set(facts.flatMap((f) => (f.supersedes ? [f.supersedes] : [])))];
  if (priorIds.length > 0) {
    for (const p of await memory.listFacts(tenant, { ids: priorIds, includeHistory: true, limit: priorIds.length })) subjects.add(p.subjectId);
  }
  return [...subjects];
}

/**
 * Make current again every fact `gone` had closed, each indexed first; returns them. What `gone` superseded is also
 * returned (and indexed again) when a cut run had reopened it already: it is current while `gone` is withdrawn.
 * What `gone` closed is looked for in its subject's history, and what it superseded by id: a fact that settles a plan
 * may have closed another participant's (someone in the session, or an addressee), whose subject the caller locked
 * too ({@link withdrawnSubjects}).
 */
async function reopenReplaced(memory: MemoryStore, indexer: MemoryIndexer, tenant: TenantId, gone: Fact, live: AbortSignal): Promise<Fact[]> {
  const history = await memory.listFacts(tenant, { subjectId: gone.subjectId, includeHistory: true, limit: SUBJECT_HISTORY });
  const closedByIt = history.filter((x) => x.supersededBy === gone.id);
  const prior = gone.supersedes ? await memory.getFact(tenant, gone.supersedes) : null;
  if (prior && prior.supersededBy === gone.id && !closedByIt.some((x) => x.id === prior.id)) closedByIt.push(prior);
  const again = prior && prior.validTo === null && !closedByIt.some((x) => x.id === prior.id) ? [prior] : [];
  const toIndex = [...closedByIt, ...again];
  if (toIndex.length === 0) return [];
  const vectors = await indexer.vectorsFor(tenant, toIndex.map((x) => ({ id: x.id, layer: x.layer, text: x.content })));
  live.throwIfAborted();
  // Indexed while still closed: a cut here leaves them closed and found again by the re-run.
  await indexer.indexFacts(tenant, toIndex.map((fact, i) => ({ fact, vector: vectors[i] as Float32Array })));
  const reopened: Fact[] = [...again];
  for (const x of closedByIt) {
    const r = await memory.reopenFact(tenant, x.id, gone.id);
    if (r) reopened.push(r);
  }
  return reopened;
}
