import { ALL_SESSIONS, type EventBus } from '../../graph/event-bus.js';
import { erasedIdKey } from '../../graph/retired-ids.js';
import type { Stores } from '../../graph/stores.js';
import type { InteractionFilter } from '../../graph/graph-store.js';
import type { PendingErasure } from '../../graph/pending-erasures.js';
import { ErasureClaim, leaseFrom, type ErasureOwner } from './erasure-claim.js';
import type { TenantId } from '../../graph/types.js';
import type { AudioSpanStore } from '../audio/audio-span-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import type { MinAsrConfidence } from '../memory/doubtful-speech.js';
import { MemoryIndexer } from '../memory/memory-indexer.js';
import { speakerLockKey } from '../memory/subject-lock.js';
import { eraseTraces } from './erase-traces.js';
import { finishForgetting, isForgetKey } from './forget-utterances.js';
import { eraseLeftBrainTraces, livingNamesLike } from './erase-left-brain.js';
import { addresseesWithout, erasesFact } from '../../graph/erased-facts.js';
import { derivedSlotOf, rederiveAttributes, type DerivedSlot } from './derived-attributes.js';
import { isFunctionWord } from '../speaker/name-words.js';
import { isCalendarWord } from '../speaker/calendar-words.js';
import { eraseValueEntities, factsHoldingValues, redactMentions, reindexWithout, statedValues } from './erase-mentions.js';
import { truncateWal } from '../../graph/sqlite/database.js';
import { scrubSessionMetadata } from './erase-session-metadata.js';

/** What erasure needs besides the stores. */
export interface ErasureDeps {
  stores: Stores;
  /** Kept audio, when the deployment keeps it. */
  audioSpans: AudioSpanStore | null;
  /** Re-embeds other people's utterances that addressed the person, to re-index them without them. */
  embedder: TextEmbedder;
  /** `memory.minAsrConfidence`: a turn heard doubtfully (`doubtfulSpeech`) is never indexed again for search. */
  minAsrConfidence: MinAsrConfidence;
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
 * What the second pass of an erasure needs once the graph no longer holds the participant, kept with the pending
 * erasure (`GraphStore.beginErasure`) so a run cut short after the participant's removal is finished from it.
 */
interface ErasurePlan {
  /** Their name and aliases, and those of living namesakes (left-brain traces). */
  names: string[];
  living: string[];
  /** Texts of their utterances, as entity descriptions and schemas may quote them. */
  texts: string[];
  factIds: string[];
  personaIds: string[];
  /** Other people's turns erased facts came from (their consolidation records are unlinked). */
  sources: string[];
  /** Other people's derived attributes erased facts may have set. */
  slots: DerivedSlot[];
  /**
   * Entities holding one of the erased memories, recorded before `eraseMemories` deletes those it leaves about nothing
   * (whose vectors go after it): a run cut short between the two finds them here. Absent in records of older versions.
   */
  entityIds?: string[];
  /**
   * Their identifying values (`statedValues`: addresses, phone numbers, emails… they gave), redacted with their names
   * in other people's turns. Absent in records of older versions.
   */
  values?: string[];
  /** Other people's turns redacted (`redactMentions`), to index again; their texts as they read before are in `texts`. */
  redacted?: string[];
}

/**
 * Erase a participant from every store: the interaction graph (utterances, edges, profile),
 * memories with their history, persona, consolidation bookkeeping, keyword and vector indexes,
 * the entity index (entities named after them or quoting them, emergent schemas about them), queued jobs, voiceprints, kept audio and the tenant's kept bus events;
 * in other people's utterances their names and identifying values are replaced by `[erased]` (`redactMentions`). Then the embedded database's file is
 * checkpointed so deleted rows do not linger in its write-ahead log (pages are zeroed on delete).
 * Returns null when the participant does not exist and no erasure of that id is pending.
 *
 * Before the first destructive step the erasure is recorded as pending in the graph store, with what the second pass
 * needs (`ErasurePlan`); the graph's participant goes last. A run cut short before that (a failing store) leaves the
 * participant in place and the same request, repeated, does it all again; one cut short after (a crash between the
 * passes) is finished from the record, by {@link finishPendingErasures} at start or by the same id erased again. The
 * record goes when both passes are done. Every step is idempotent.
 *
 * The pending record is claimed for `lease.owner` (`GraphStore.claimErasure`) before anything of a pending erasure is
 * done, and right after a new one is recorded, then renewed every third of the lease while the erasure runs: a
 * repeated request never runs beside another server's start-up finisher (or another server's request). A claim held by
 * another owner is a `PARLEY_ERR_CONFLICT` naming when its lease ends; a run that fails gives its claim up at once
 * (the same request sent to any server may then finish it).
 */
export async function eraseParticipant(deps: ErasureDeps, tenant: TenantId, participantId: string, lease: ErasureOwner): Promise<ErasureReport | null> {
  const { stores } = deps;
  // A pending forgetting of utterances is no participant (`isForgetKey`): finished by its own request, or at start.
  if (isForgetKey(participantId)) return null;
  const person = await stores.graph.getParticipant(tenant, participantId);
  const pending = (await stores.graph.pendingErasures(tenant)).find((e) => e.participantId === participantId);
  if (!person && !pending) return null;
  const held = new ErasureClaim(stores, tenant, participantId, lease);
  try {
    if (pending) await held.claim();
    if (!person) return await finishErasure(deps, tenant, pending!);
    return await eraseInFull(deps, tenant, participantId, [person.name ?? '', ...person.aliases], pending, held);
  } catch (err) {
    await held.release();
    throw err;
  } finally {
    held.stop();
  }
}

/**
 * Erase a participant still in the graph (`eraseParticipant`), a new erasure recorded already claimed; null when another
 * server erased them in full meanwhile.
 */
async function eraseInFull(
  deps: ErasureDeps, tenant: TenantId, participantId: string, names: string[], pending: PendingErasure | undefined, held: ErasureClaim,
): Promise<ErasureReport | null> {
  const { stores } = deps;
  const addressedThem = await pagedUtterances(stores, tenant, { addresseeId: participantId });
  // Every memory is read before any is removed (a crash part-way then leaves nothing unfound for a repeated request).
  const read = await readPerson(stores, tenant, participantId, names);
  // A run cut short before recorded ids of memories it already deleted: they stay in the plan.
  let plan = pending ? mergePlans(JSON.parse(pending.plan) as ErasurePlan, read.plan) : read.plan;
  // A pending one is claimed already; a new one is recorded claimed, in one step, before any destructive step.
  if (pending) await stores.graph.beginErasure(tenant, participantId, JSON.stringify(plan), read.spoken);
  else if (!await held.begin(JSON.stringify(plan), read.spoken)) return null;
  const { spoken } = read;
  const leftBrain = { entities: stores.entities, vectors: stores.vectors, embedder: deps.embedder };
  await eraseLeftBrainTraces(leftBrain, tenant, { ...plan, memoryIds: [...spoken, ...plan.factIds, ...plan.personaIds] });
  const first = await eraseDerived(deps, tenant, participantId, spoken, plan, async (entityIds) => {
    plan = await recordPlan(stores, tenant, participantId, plan, { entityIds });
    return plan;
  });
  await reindexWithout(deps, tenant, participantId, addressedThem.filter((id) => !spoken.includes(id)));
  await reindexFactsWithout(deps, tenant, participantId, namesInFacts(plan));
  plan = await redactOthers(deps, tenant, participantId, spoken, plan);
  // Read again what jobs may have written meanwhile, and record it, before the memories and the participant go.
  const again = await readPerson(stores, tenant, participantId, plan.names);
  const merged = mergePlans(plan, again.plan);
  await stores.graph.beginErasure(tenant, participantId, JSON.stringify(merged), again.spoken);
  const before = await deleteMemoriesRecorded(stores, tenant, participantId, merged);
  // While their turns still name their sessions: what they gave about themselves in those sessions' metadata goes.
  await scrubSessionMetadata(stores, tenant, [...new Set([...spoken, ...again.spoken])], participantId);
  // Null when a concurrent erasure of the same person removed them first: this one still finishes its second pass.
  // Under the speaker's lock (`speakerLockKey`): a consolidation job that read one of their turns writes before this, or
  // finds the turn gone; what it wrote is listed again and erased below.
  const deleted = await stores.locks.withLock([speakerLockKey(tenant, participantId)], () => stores.graph.deleteParticipant(tenant, participantId)) ?? [];
  // Listed once more: a job that read their turn before it left the graph may have stored a fact since.
  const recorded = await deleteMemoriesRecorded(stores, tenant, participantId, before);
  const second = await secondPass(deps, tenant, participantId, recorded, [...new Set([...spoken, ...again.spoken, ...deleted])]);
  return { ...second, voiceprints: first.voiceprints + second.voiceprints, audioFiles: first.audioFiles + second.audioFiles };
}

export type { ErasureOwner } from './erasure-claim.js';

/** What {@link finishPendingErasures} did: erasures finished, and those left to another owner whose lease holds (with its end). */
export interface FinishedErasures {
  done: string[];
  held: { participantId: string; leaseUntil: string }[];
}

/**
 * Finish every erasure of the tenant recorded as pending (cut short by a crash, or by a store failing after the
 * participant left the graph): run at start. Each is claimed first (`lease`): several servers starting on one store
 * finish each erasure once (the claim is renewed while it runs), and one whose owner crashed is taken over when its
 * lease has ended. One that fails stays pending (its claim given up) for a later pass, the next start or a repeated
 * request.
 */
export async function finishPendingErasures(deps: ErasureDeps, tenant: TenantId, lease: ErasureOwner): Promise<FinishedErasures> {
  const result: FinishedErasures = { done: [], held: [] };
  for (const pending of await deps.stores.graph.pendingErasures(tenant)) {
    if (!await deps.stores.graph.claimErasure(tenant, pending.participantId, leaseFrom(lease, new Date()))) {
      const current = (await deps.stores.graph.pendingErasures(tenant)).find((e) => e.participantId === pending.participantId);
      if (current?.leaseUntil) result.held.push({ participantId: pending.participantId, leaseUntil: current.leaseUntil });
      continue;
    }
    // A forgetting of utterances or a session shares the record and its claim (`forgetUtterances`).
    if (isForgetKey(pending.participantId)) {
      if (await finishForgetting(deps, tenant, pending, lease)) result.done.push(pending.participantId);
      continue;
    }
    // Claimed: the erasure renews the claim while it runs (same owner), and gives it up if it fails.
    // A participant still in the graph: the erasure stopped before its removal, and runs again in full.
    if (await eraseParticipant(deps, tenant, pending.participantId, lease)) result.done.push(pending.participantId);
  }
  return result;
}

/** Finish an erasure whose participant the graph no longer holds, from its record. */
async function finishErasure(deps: ErasureDeps, tenant: TenantId, pending: PendingErasure): Promise<ErasureReport> {
  const plan = JSON.parse(pending.plan) as ErasurePlan;
  // Facts a job stored under the id after the participant's removal are found by id, and recorded before they go.
  const recorded = await deleteMemoriesRecorded(deps.stores, tenant, pending.participantId, plan);
  return secondPass(deps, tenant, pending.participantId, recorded, pending.utteranceIds);
}

/**
 * Delete the person's facts and persona, never one whose id the pending record does not hold yet: a crash after a
 * delete would leave that fact's keyword, vector and entity entries with nothing left to find them by. Their facts are
 * listed, recorded, and deleted by id, until a listing finds none (a job may store one meanwhile); persona nodes and kept
 * extractions go with `deleteParticipant`, which deletes recorded ids only and reports any other it finds (stored since
 * the last listing): then it all runs again. Returns the plan as recorded last.
 */
async function deleteMemoriesRecorded(stores: Stores, tenant: TenantId, participantId: string, plan: ErasurePlan): Promise<ErasurePlan> {
  let recorded = plan;
  const record = async (more: Partial<ErasurePlan>): Promise<void> => {
    recorded = await recordPlan(stores, tenant, participantId, recorded, more);
  };
  for (;;) {
    for (;;) {
      const named = await factsMentioning(stores, tenant, participantId, namesInFacts(plan));
      const holding = await factsHoldingValues(stores, tenant, participantId, { redacted: recorded.redacted ?? [], names: namesInFacts(plan), values: recorded.values ?? [] });
      const ids = [...new Set([...named.ids, ...holding.ids])];
      const [sources, slots] = [[...named.sources, ...holding.sources], [...named.slots, ...holding.slots]];
      if (ids.length === 0) break;
      await record({ factIds: ids, sources, slots });
      for (const id of ids) await stores.memory.deleteFact(tenant, id);
    }
    await record({ personaIds: await stores.memory.erasedPersonaIds(tenant, participantId, namesInFacts(plan)) });
    // Only recorded ids go: a fact or persona node stored in the instant since the last listing is left in place, and
    // listed and recorded on the next round, so a crash right after this delete never loses an id.
    const { left } = await stores.memory.deleteParticipant(tenant, participantId, recorded, namesInFacts(plan));
    if (!left || left.factIds.length + left.personaIds.length === 0) return recorded;
  }
}

/**
 * The second pass, once the graph no longer holds the participant: everything again, then what only the end does
 * (other people's records and attributes, the bus), then the pending record goes. A consolidation job that ran during
 * the erasure may have indexed an utterance or stored a fact after the first pass (jobs stop writing once the
 * utterance is gone from the graph).
 */
async function secondPass(deps: ErasureDeps, tenant: TenantId, participantId: string, recorded: ErasurePlan, utteranceIds: string[]): Promise<ErasureReport> {
  const { stores } = deps;
  // First: the texts of the turns it redacts are recorded for the left brain, which rewrites what quotes them.
  let plan = await redactOthers(deps, tenant, participantId, utteranceIds, recorded);
  const { factIds, personaIds } = plan;
  const leftBrain = { entities: stores.entities, vectors: stores.vectors, embedder: deps.embedder };
  await eraseLeftBrainTraces(leftBrain, tenant, { ...plan, memoryIds: [...utteranceIds, ...factIds, ...personaIds] });
  await eraseValueEntities(stores, tenant, plan.values ?? [], plan.redacted ?? []);
  const second = await eraseDerived(deps, tenant, participantId, utteranceIds, plan, async (entityIds) => {
    plan = await recordPlan(stores, tenant, participantId, plan, { entityIds });
    return plan;
  });
  await unlinkErasedFacts(stores, tenant, plan.sources.filter((id) => !utteranceIds.includes(id)), factIds);
  // Someone else's attribute derived from an erased memory ("Ana lives in Oslo", said by the erased person)
  // falls back to what their remaining memories say, or goes.
  await rederiveAttributes(stores.graph, stores.memory, tenant, plan.slots);
  // Live notifications kept for other processes may quote the person (a `memory.updated` text): the tenant's go.
  await deps.events?.forgetTenant?.(tenant);
  // Live speaker trackers still map a voice to the id: they drop it (the notice carries its hash, not the id); processes
  // drop what their caches hold of the tenant. Best effort, as the bus is: a session that misses it has its turns under
  // the id refused (the graph keeps the erasure).
  await deps.events?.publish(tenant, ALL_SESSIONS, { type: 'participant.erased', payload: { erased_key: erasedIdKey(participantId) } }).catch(() => undefined);
  await stores.graph.endErasure(tenant, participantId);
  await truncateWal(stores.sqlite);
  return second;
}

/** What an erasure reads of the person before removing anything: their utterances, and the plan of the second pass. */
async function readPerson(stores: Stores, tenant: TenantId, participantId: string, names: string[]): Promise<{ spoken: string[]; plan: ErasurePlan }> {
  const spoken = await pagedUtterances(stores, tenant, { speakerId: participantId });
  const living = await livingNamesLike(stores.graph, tenant, participantId, names);
  const { ids: factIds, sources, slots } = await factsMentioning(stores, tenant, participantId, namesInFacts({ names, living }));
  // Theirs, and other people's whose target names them ("daughter maya" of Sarah, when Maya is erased).
  const personaIds = await stores.memory.erasedPersonaIds(tenant, participantId, namesInFacts({ names, living }));
  const texts = (await Promise.all(spoken.map((id) => stores.graph.getUtterance(tenant, id)))).flatMap((u) => (u ? [u.text] : []));
  const values = await statedValues(stores, tenant, participantId, factIds, texts);
  return { spoken, plan: { names, living, texts, factIds, personaIds, sources, slots, values } };
}

/**
 * Redact their names and identifying values in other people's turns (`redactMentions`), the turns and their old texts
 * recorded on the pending erasure before any is rewritten; returns the plan as recorded.
 */
async function redactOthers(deps: ErasureDeps, tenant: TenantId, participantId: string, spoken: string[], plan: ErasurePlan): Promise<ErasurePlan> {
  let recorded = plan;
  await redactMentions(deps, tenant, {
    participantId, names: namesInFacts(plan), values: plan.values ?? [], redacted: plan.redacted ?? [], spoken,
  }, async (redacted, texts) => {
    recorded = await recordPlan(deps.stores, tenant, participantId, recorded, { redacted, texts });
  });
  return recorded;
}

/** `plan` with the lists of `more` added, recorded on the pending erasure when that adds anything; returns it. */
async function recordPlan(stores: Stores, tenant: TenantId, participantId: string, plan: ErasurePlan, more: Partial<ErasurePlan>): Promise<ErasurePlan> {
  const next = mergePlans(plan, more);
  if (JSON.stringify(next) === JSON.stringify(plan)) return plan;
  await stores.graph.beginErasure(tenant, participantId, JSON.stringify(next), []);
  return next;
}

/** `a` with the lists of `b` added (no repeats). */
function mergePlans(a: ErasurePlan, b: Partial<ErasurePlan>): ErasurePlan {
  const join = <T>(x: T[], y: T[] | undefined, key: (v: T) => string = String): T[] => {
    const seen = new Map(x.map((v) => [key(v), v]));
    for (const v of y ?? []) if (!seen.has(key(v))) seen.set(key(v), v);
    return [...seen.values()];
  };
  return {
    names: join(a.names, b.names), living: join(a.living, b.living), texts: join(a.texts, b.texts),
    factIds: join(a.factIds, b.factIds), personaIds: join(a.personaIds, b.personaIds), sources: join(a.sources, b.sources),
    slots: join(a.slots, b.slots, (s) => `${s.participantId}\u0000${s.slot}`),
    ...(a.entityIds || b.entityIds ? { entityIds: join(a.entityIds ?? [], b.entityIds) } : {}),
    ...(a.values || b.values ? { values: join(a.values ?? [], b.values) } : {}),
    ...(a.redacted || b.redacted ? { redacted: join(a.redacted ?? [], b.redacted) } : {}),
  };
}

/**
 * Remove everything derived from the person's utterances, facts and persona: each step may run again. The entities
 * about them are recorded (`record`, which returns the plan as recorded) before `eraseMemories` deletes those it leaves
 * about nothing: a run cut short before their vectors went finds them in the record, as no longer standing.
 */
async function eraseDerived(
  deps: ErasureDeps, tenant: TenantId, participantId: string, utteranceIds: string[], plan: ErasurePlan,
  record: (entityIds: string[]) => Promise<ErasurePlan>,
): Promise<ErasureReport> {
  const { factIds, personaIds } = plan;
  const voiceprints = await deps.stores.voiceprints.deleteByParticipant(tenant, participantId);
  const audioFiles = await eraseTraces(deps, tenant, utteranceIds, [...factIds, ...personaIds], async (ids) => (await record(ids)).entityIds ?? []);
  return { utteranceIds, factIds, personaIds, voiceprints, audioFiles };
}

/**
 * The names by which a fact's text names the erased person (`erasesFact`), as a user means them: their full display
 * name; each alias that is distinctive; and the first word of a display name of several words (their given name:
 * "Quillon, that is a rare trade" names Quillon Varbeck) when it is distinctive, a leading title set aside ("Dr Alan
 * Grant" is also "Alan Grant" and "Alan"; "Aunt Rose" is "Rose"; "Dr Park" only in full). Never any other word of their name:
 * erasing "Rose Park" leaves "Cara walks in Central Park". Distinctive: not a function word, a month or weekday ("May"
 * of "May Chen" is also the month) or a title ("Dr", "Aunt"). Less any a living participant also goes by or holds as a
 * word of their names (a fact about the living "Ben Jones" is no trace of an erased "Ben Smith").
 */
export function namesInFacts(plan: { names: readonly string[]; living: readonly string[] }): string[] {
  const living = new Set([...plan.living, ...plan.living.flatMap((n) => n.split(/\s+/))]);
  // `names` begins with the display name ('' when they had none), then their aliases.
  const [name = '', ...aliases] = plan.names;
  const words = name.trim().split(/\s+/);
  // A title is not the person's own name: what follows it is ("Dr Alan Grant" is also "Alan Grant"). After a title of
  // kin ("Aunt Rose") the next word is a given name; after a formal one ("Dr Park") a lone word is a surname.
  const titled = words.length > 1 && isTitle(words[0]!);
  const own = titled ? words.slice(1) : words;
  const given = (own.length > 1 || (titled && KIN_TITLES.has(titleKey(words[0]!)))) && distinctiveName(own[0]!) ? [own[0]!] : [];
  const untitled = titled && own.length > 1 ? [own.join(' ')] : [];
  const named = [name.trim(), ...untitled, ...aliases.map((a) => a.trim()).filter(distinctiveName), ...given];
  return [...new Set(named)].filter((n) => n.length >= 2 && !living.has(n));
}

/** Titles of kin, followed by a given name ("Aunt Rose"). */
const KIN_TITLES: ReadonlySet<string> = new Set('aunt auntie uncle grandma grandpa granny nana sister brother'.split(' '));

/** Titles that begin a name without being the person's own ("Dr Park", "Aunt Rose"). */
const TITLES: ReadonlySet<string> = new Set([...KIN_TITLES, ...('mr mrs ms miss mx dr doctor prof professor sir dame lady '
  + 'lord madam madame father mother captain capt officer rev reverend judge coach').split(' ')]);

function titleKey(word: string): string {
  return word.trim().toLowerCase().replace(/\.$/, '');
}

function isTitle(word: string): boolean {
  return TITLES.has(titleKey(word));
}

/** Whether an alias or given name is distinctive enough that a text naming it names the person (`namesInFacts`). */
function distinctiveName(label: string): boolean {
  if (/\s/.test(label.trim())) return true;
  const lower = titleKey(label);
  return !isFunctionWord(lower) && !isCalendarWord(lower) && !TITLES.has(lower);
}

/**
 * Ids of every fact the erasure takes (`erasesFact`: theirs, as speaker or subject, or naming them by one of `names`,
 * another person's fact that only names them included), history included, the ids of the turns they came from, and the
 * derived attributes of other participants those facts may have set. Another person's fact on which they were only an
 * addressee is not one: it stays, without them. The same facts `MemoryStore.deleteParticipant` finds, so every one it
 * deletes has been recorded first.
 */
export async function factsMentioning(
  stores: Stores, tenant: TenantId, participantId: string, names: readonly string[],
): Promise<{ ids: string[]; sources: string[]; slots: DerivedSlot[] }> {
  const ids = [...new Set(await stores.memory.erasedFactIds(tenant, participantId, names))];
  const sources: string[] = [];
  const slots: DerivedSlot[] = [];
  for (let i = 0; i < ids.length; i += 1000) {
    const page = await stores.memory.listFacts(tenant, { ids: ids.slice(i, i + 1000), includeHistory: true, limit: 1000 });
    sources.push(...page.flatMap((f) => f.referIds));
    slots.push(...page.flatMap(derivedSlotOf).filter((s) => s.participantId !== participantId));
  }
  return { ids, sources: [...new Set(sources)], slots };
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

/**
 * Ids of every utterance matching the filter (spoken by or addressed to someone), newest first, page by page (erasure,
 * manual merge): pages of times before the oldest seen, and each oldest time read in full on its own (by offset among
 * the turns of that one time), so a history whose turns share one time (an import) is read whole, not cut at one page.
 */
export async function pagedUtterances(stores: Stores, tenant: TenantId, filter: Pick<InteractionFilter, 'speakerId' | 'addresseeId'>): Promise<string[]> {
  const ids = new Set<string>();
  let until: string | undefined;
  for (;;) {
    const page = await stores.graph.queryInteractions(tenant, { ...filter, limit: 1000, ...(until ? { until } : {}) });
    for (const u of page) ids.add(u.id);
    if (page.length < 1000) return [...ids];
    const oldest = page.reduce((min, u) => (u.time < min ? u.time : min), page[0]!.time);
    // Every turn of that exact time: `since` is inclusive, `until` exclusive, and no string lies between a time and it + "\0".
    for (let offset = 0; ; offset += 1000) {
      const same = await stores.graph.queryInteractions(tenant, { ...filter, since: oldest, until: `${oldest}\u0000`, limit: 1000, offset });
      for (const u of same) ids.add(u.id);
      if (same.length < 1000) break;
    }
    until = oldest;
  }
}

/**
 * Index other people's current facts on which the erased person was only an addressee again without them (their
 * stored vectors reused): the facts stay, and `deleteParticipant` removes them from their addressees.
 */
async function reindexFactsWithout(deps: ErasureDeps, tenant: TenantId, participantId: string, names: readonly string[]): Promise<void> {
  const indexer = new MemoryIndexer(deps.stores.vectors, deps.stores.lexical, deps.embedder, deps.minAsrConfidence);
  for (let offset = 0; ; offset += 1000) {
    const listed = await deps.stores.memory.listFacts(tenant, { participantId, role: 'addressee', limit: 1000, offset });
    const kept = listed.filter((f) => !erasesFact(f, participantId, names))
      .map((f) => ({ ...f, addresseeIds: addresseesWithout(f.addresseeIds, participantId) }));
    const vectors = await indexer.vectorsFor(tenant, kept.map((f) => ({ id: f.id, layer: f.layer, text: f.content })));
    await indexer.indexFacts(tenant, kept.map((fact, i) => ({ fact, vector: vectors[i]! })));
    if (listed.length < 1000) return;
  }
}
