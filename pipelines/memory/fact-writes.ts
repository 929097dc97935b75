/**
 * Writing one utterance's extracted facts: each decided ADD / UPDATE / DELETE / KEEP / NOOP against its subject's nearest
 * current facts, written with history kept (superseded facts closed), indexed, under an id the same on every run.
 */
import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { GraphStore } from '../../graph/graph-store.js';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import { factWithdrawn, type Fact, type MemoryStore, type NewFact } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import { derivedSlotOf, rederiveAttributes, type DerivedSlot } from '../interaction/derived-attributes.js';
import { collectionFor } from './collections.js';
import type { Candidate, Decider, Decision, DecisionInput } from './decide.js';
import type { ExtractedFact, ExtractionResult, Extractor } from './extractor.js';
import type { MemoryIndexer } from './memory-indexer.js';
import { dependentsOf } from './cancelled-plans.js';
import { applyProfileUpdates } from './profile-updates.js';
import { inSaidOrder } from './said-order.js';
import { closeInterrupted, decideWithStays, ownEnd } from './temporary-states.js';
import { changesDecision } from './team-decisions.js';
import { changedValue } from './value-change.js';
import { stillCurrent, teamCandidates } from './team-candidates.js';

/** Newest current facts of a subject searched by vector for near-duplicates and changes of mind. */
const RECENT_POOL = 200;

/** One `memory.updated` op, as sent to the client. */
export interface MemoryOp {
  op: 'ADD' | 'UPDATE' | 'DELETE' | 'KEEP';
  memory_id: string;
  text: string;
  /**
   * Why, when not an ordinary decision on a new utterance: `speaker_revised`, its utterance was given to another
   * speaker; `forgotten`, utterances were forgotten (`DELETE /v1/utterances/{id}`, `DELETE /v1/sessions/{id}`).
   */
  reason?: 'speaker_revised' | 'forgotten';
}

/** The stores and extractor source writing facts uses (a `ConsolidationDeps` has them). */
export interface FactWriteDeps {
  graph: GraphStore;
  memory: MemoryStore;
  vectors: VectorStore;
  extractor: Pick<Extractor, 'source'>;
  /** The keyword index a team change's topic nouns are searched in (`teamCandidates`); absent: the newest facts only. */
  lexical?: LexicalIndex;
}

/**
 * What {@link writeFacts} works with: the stores, the indexer, the decider, how many candidates it weighs and, where
 * given, where a decision that stores nothing (`NOOP`) is logged.
 */
export interface WriteContext {
  deps: FactWriteDeps;
  indexer: MemoryIndexer;
  decider: Decider;
  candidateK: number;
  logger?: Pick<Logger, 'debug' | 'warn'>;
  /**
   * Runs each write (never a decision): consolidation's takes the speaker's lock and checks the turn is unchanged there
   * (`turnCommit`), so an erasure waits for no LLM call; default: runs it as is.
   */
  commit?: <T>(write: () => Promise<T>) => Promise<T>;
  /**
   * The subjects whose locks the caller holds: a team change (`DecisionInput.team`) weighs another person's fact only
   * when its subject is one, so it never closes a fact whose subject's lock it lacks (review12 F2; `teamSubjects`).
   * Absent: every subject's (a caller that holds no locks).
   */
  lockedSubjects?: ReadonlySet<string>;
  /**
   * What a team change among the facts may replace, by the fact's index, as `teamSubjects` read it before the locks
   * were taken: read again here by id only (a fact closed meanwhile is dropped), never searched twice. Absent for a
   * fact: searched here (`teamCandidates`).
   */
  team?: ReadonlyArray<readonly Candidate[] | undefined>;
}

/**
 * Decide and write each extracted fact against its subject's current facts, read now (the caller
 * holds the subjects' locks), apply the profile updates and record the utterance as processed; every write through
 * `commit`, every decision outside it.
 * `live` aborts when the queue closes or a lock was lost: no write starts after that.
 */
export async function writeFacts(
  { deps, indexer, decider, candidateK, logger, commit = (write) => write(), lockedSubjects, team: read }: WriteContext, tenant: TenantId, u: Utterance,
  extraction: ExtractionResult, vectors: Float32Array[], live: AbortSignal,
): Promise<MemoryOp[]> {
  await commit(() => indexer.indexUtterance(tenant, u, vectors[0] as Float32Array));
  const ops: MemoryOp[] = [];
  const factIds: string[] = [];
  const deletedIds: string[] = [];
  const keptBetter = new Set<string>();
  const known = new Map<string, string | null>();
  // Each fact's own end ("in Lisbon for a month"), worked out once: the decision, the write and the re-derivation use it.
  const ends = extraction.facts.map((ef) => ownEnd(ef, u.time));
  // A fact is as sure as the words it came from: ASR confidence scales the extractor's.
  const sure = (extracted: ExtractedFact): ExtractedFact => ({ ...extracted, confidence: extracted.confidence * (u.confidence ?? 1) });
  /** What the decider sees for fact `i`, read from the stores as they are now. */
  const inputFor = async (i: number, ef: ExtractedFact): Promise<DecisionInput> => {
    const vector = vectors[i + 1] as Float32Array;
    const candidates = await nearestCandidates(deps, tenant, u.sessionId, ef, vector, candidateK);
    const team = changesDecision(ef)
      ? (read?.[i] ? await stillCurrent(deps.memory, tenant, read[i]) : await teamCandidates(deps, tenant, u, ef, vector, candidateK))
        .filter((c) => !lockedSubjects || lockedSubjects.has(c.fact.subjectId))
      : undefined;
    const retractedFacts = ef.retractsUtteranceIds ? await factsFrom(deps.memory, tenant, ef.retractsUtteranceIds) : [];
    const names = await peopleNames(deps.graph, tenant, [u.speakerId, ...u.addresseeIds, ef.subjectId,
      ...candidates.flatMap((c) => [c.fact.speakerId, c.fact.subjectId])], known);
    return { fact: ef, candidates, retractedFacts, time: u.time, names, sessionId: u.sessionId, said: u.text, ownEnd: ends[i] ?? null,
      ...(team ? { team } : {}) };
  };
  // A decider that weighs what the rules do with the other facts of the same words (`LearnedChangeDecider`) is told which
  // facts they close or keep, each read against its own candidates before anything of this turn is written.
  // In turn, not at once (they share the names cache); a fact an earlier run of this job already stored is not decided again.
  let ruled: string[][] | null = null;
  if (decider.ruledTargets && extraction.facts.length > 1) {
    ruled = [];
    for (const [i, extracted] of extraction.facts.entries()) {
      const stored = await deps.memory.getFact(tenant, extractedFactId(tenant, u.id, extracted));
      ruled.push(stored ? [] : await decider.ruledTargets(await inputFor(i, sure(extracted))));
    }
  }
  for (const [i, extracted] of extraction.facts.entries()) {
    live.throwIfAborted();
    const ef = sure(extracted);
    const end = ends[i] ?? null;
    const vector = vectors[i + 1] as Float32Array;
    const id = extractedFactId(tenant, u.id, ef);
    const earlier = await deps.memory.getFact(tenant, id) ?? await legacyStored(deps.memory, tenant, u.id, ef);
    // Withdrawn when the utterance was given to another speaker, and now given back: decided afresh, restored under its id.
    const withdrawn = earlier && factWithdrawn(earlier) ? earlier : null;
    if (earlier && !withdrawn) {
      // An earlier run of this job stored it and stopped before recording the utterance as processed.
      const op = await commit(() => finishStored(deps, indexer, tenant, u, earlier, vector));
      ops.push(...op.ops);
      factIds.push(...op.factIds);
      continue;
    }
    const input = await inputFor(i, ef);
    const { candidates, retractedFacts } = input;
    if (ruled) input.siblingTargets = ruled.flatMap((targets, j) => (j === i ? [] : targets));
    // A stay ("in Lisbon for a month") is stored beside the home it interrupts; a lasting value outlasts a stay of it.
    const decision = decideWithStays(await decider.decide(input), end, candidates, ef.validFrom !== undefined && ef.validFrom > u.time);
    // Nothing to store and nothing to end ("I'm not a photographer anymore", none held): no op for the client (rules 43).
    if (decision.op === 'NOOP') {
      logger?.debug({ slot: ef.slot, value: ef.value, reason: decision.reason }, 'fact decided NOOP: nothing stored or ended');
      continue;
    }
    const target = decision.op === 'KEEP' ? candidates.find((c) => c.fact.id === decision.targetId)?.fact : undefined;
    if (target && ef.slot !== null && target.value !== ef.value) keptBetter.add(`${ef.subjectId}\u0000${ef.slot}`);
    live.throwIfAborted();
    // Said before a fact it would replace or end (an older conversation imported later): history, never its end.
    const ordered = inSaidOrder(decision, [...candidates.map((c) => c.fact), ...retractedFacts], u.time);
    // A plan moved by its new time alone is written again with it (`retold`, fix9), embedded as it now reads.
    const retold = ordered.decision.op === 'UPDATE' ? ordered.decision.retold : undefined;
    const written = retold ? { ...ef, ...retold } : ef;
    const writtenVector = retold ? (await indexer.vectorsFor(tenant, [{ id, layer: 'fact', text: retold.content }]))[0]! : vector;
    const op = await commit(() => apply(deps, indexer, tenant, u, written, end, { id, withdrawn, closedBy: ordered.closedBy }, writtenVector, ordered.decision));
    // Restored as history (a newer fact holds the slot): its value does not overwrite the profile either.
    if (op.history && ef.slot !== null) keptBetter.add(`${ef.subjectId}\u0000${ef.slot}`);
    ops.push(...op.ops);
    factIds.push(...op.factIds);
    deletedIds.push(...op.deletedIds ?? []);
  }
  // A profile value kept because the stored transcript was better is not overwritten either.
  const updates = extraction.profileUpdates.filter((p) => !keptBetter.has(`${p.participantId}\u0000${p.attribute}`));
  live.throwIfAborted();
  // A state said with its end (already past when an older conversation is imported) fills its attribute only while it lasts.
  const temporary = extraction.facts.filter((_, i) => (ends[i] ?? null) !== null).flatMap(derivedSlotOf);
  await commit(async () => {
    if (updates.length > 0) await applyProfileUpdates(deps.graph, tenant, updates, { text: u.text, ...(logger ? { logger } : {}) });
    if (temporary.length > 0) await rederiveAttributes(deps.graph, deps.memory, tenant, temporary);
    await deps.memory.markProcessed(tenant, u.id, [...new Set(factIds)], { speakerId: u.speakerId, deletedIds: [...new Set(deletedIds)] });
  });
  return ops;
}

/**
 * Current facts of the same subject, scored by cosine similarity, best first. Cost is bounded, not
 * proportional to the subject's history: the vector pool is the subject's `RECENT_POOL` newest
 * current facts, and facts of the same slot (or slot family) come from an indexed lookup however old.
 */
async function nearestCandidates(
  deps: FactWriteDeps, tenant: TenantId, sessionId: string, ef: ExtractedFact, vector: Float32Array, k: number,
): Promise<Candidate[]> {
  const recent = await deps.memory.listFacts(tenant, { subjectId: ef.subjectId, limit: RECENT_POOL });
  const slotted = ef.slot === null ? [] : await deps.memory.listFacts(tenant, { subjectId: ef.subjectId, slot: ef.slot, limit: 50 });
  // The slot of the same family the fact ends ("I left Hillcrest, I'm tutoring now" ends `works_at`) counts as its own;
  // a number said to replace those of its kind ("my new order number is…", slot `order_number:88812`) sees every one held,
  // each keyed under the kind (`order_number:45721`), however many facts came after it.
  if (ef.endsSlot) {
    const slots = ef.slot?.startsWith(`${ef.endsSlot}:`) ? { slotFamily: ef.endsSlot } : { slot: ef.endsSlot };
    slotted.push(...await deps.memory.listFacts(tenant, { subjectId: ef.subjectId, ...slots, limit: 50 }));
  }
  // An outcome may settle what someone else in the session proposed or promised ("we decided… instead").
  const session = ef.settles ? await deps.memory.listFacts(tenant, { sessionId, limit: RECENT_POOL }) : [];
  // …or a plan said to them with "we" ("Lena and Ben will have a picnic"), or what they were asked to do (a request is the
  // asker's), in any session.
  const shared = ef.settles
    ? (await deps.memory.listFacts(tenant, { participantId: ef.subjectId, role: 'addressee', limit: RECENT_POOL }))
      .filter((f) => f.planObject?.shared === true || f.kind === 'request')
    : [];
  // A cancellation told to someone may close what they ordered ("I have cancelled order 5520", the agent to the caller), and
  // a change of its value told to them replace it ("I changed your order to size 56"; trial11 F1).
  const theirs = ef.settles === 'cancelled' || changedValue(ef.content) !== null
    ? (await Promise.all(ef.addresseeIds.filter((a) => a !== ef.subjectId).map((a) => deps.memory.listFacts(tenant, { subjectId: a, limit: RECENT_POOL })))).flat()
    : [];
  const byId = new Map([...recent, ...slotted, ...session, ...shared, ...theirs].map((f) => [f.id, f]));
  if (byId.size === 0) return [];
  const hits = (await Promise.all((['fact', 'profile'] as const).map((layer) => {
    const ids = [...byId.values()].filter((f) => f.layer === layer).map((f) => f.id);
    return ids.length === 0 ? [] : deps.vectors.search(tenant, collectionFor(layer), vector, k, { ids });
  }))).flat().sort((a, b) => b.score - a.score);
  const scored: Candidate[] = hits.flatMap((h) => {
    const fact = byId.get(h.id);
    return fact ? [{ fact, score: h.score }] : [];
  });
  // Same-slot facts always count, even when not among the nearest vectors.
  for (const f of slotted) if (!scored.some((c) => c.fact.id === f.id)) scored.push({ fact: f, score: 0 });
  return scored.slice(0, k + 4);
}

/** The names of `ids` (those not in `known` read in one call and kept there). */
async function peopleNames(graph: GraphStore, tenant: TenantId, ids: string[], known: Map<string, string | null>): Promise<string[]> {
  const missing = [...new Set(ids)].filter((id) => !known.has(id));
  if (missing.length > 0) {
    for (const id of missing) known.set(id, null);
    for (const p of await graph.getParticipants(tenant, missing)) known.set(p.id, p.name);
  }
  return [...new Set(ids.flatMap((id) => known.get(id) ?? []))];
}

async function factsFrom(memory: MemoryStore, tenant: TenantId, utteranceIds: string[]): Promise<Fact[]> {
  const out: Fact[] = [];
  for (const id of utteranceIds) {
    const ids = await memory.processedFacts(tenant, id);
    if (ids && ids.length > 0) out.push(...await memory.listFacts(tenant, { ids }));
  }
  return out;
}

/**
 * Write `ef` as `decision` says, under `at.id`; `validUntil` is its own end (`ownEnd`), null when it lasts. `at.withdrawn`:
 * the fact stored under that id, withdrawn when its utterance was given to another speaker and now given back: an ADD
 * or UPDATE makes it current again (same id, so a client that saw it withdrawn sees it come back), a KEEP or DELETE
 * leaves it withdrawn.
 */
async function apply(
  deps: FactWriteDeps, indexer: MemoryIndexer, tenant: TenantId, u: Utterance, ef: ExtractedFact, validUntil: string | null,
  at: { id: string; withdrawn: Fact | null; closedBy?: Fact | null }, vector: Float32Array, decision: Exclude<Decision, { op: 'NOOP' }>,
): Promise<{ ops: MemoryOp[]; factIds: string[]; deletedIds?: string[]; history?: true }> {
  const { id } = at;
  const base = {
    content: ef.content, speakerId: ef.speakerId, addresseeIds: ef.addresseeIds, subjectId: ef.subjectId,
    kind: ef.kind, slot: ef.slot, value: ef.value, time: u.time, eventTime: ef.eventTime ?? null, referIds: ef.referIds,
    // A state said ahead holds from its start (rules 30).
    validFrom: ef.validFrom !== undefined && ef.validFrom > u.time ? ef.validFrom : u.time,
    validUntil, planObject: ef.planObject ?? null,
    confidence: ef.confidence, sessionId: u.sessionId, source: deps.extractor.source,
  };
  if (decision.op === 'KEEP') {
    const kept = await deps.memory.getFact(tenant, decision.targetId);
    return { ops: [{ op: 'KEEP', memory_id: decision.targetId, text: kept?.content ?? ef.content }], factIds: [decision.targetId] };
  }
  if (decision.op === 'DELETE') {
    const closed: Fact[] = [];
    for (const id of decision.targetIds) {
      const f = await deps.memory.closeFact(tenant, id, u.time, null);
      if (f) closed.push(f);
    }
    // A plan called off takes with it what hangs on it: the stay told with the trip (life5).
    const hanging = ef.settles === 'cancelled' ? await dependentsOf(deps.memory, tenant, closed, u.time) : [];
    for (const dependent of hanging) {
      const f = await deps.memory.closeFact(tenant, dependent.id, u.time, null);
      if (f) closed.push(f);
    }
    await indexer.removeFacts(tenant, closed);
    // A retracted profile memory ("I don't live in Oslo any more") takes its attribute with it, or back to an older current one.
    await rederiveAttributes(deps.graph, deps.memory, tenant, closed.flatMap(derivedSlotOf));
    // Recorded (`markProcessed`): a revision of the utterance's speaker reopens what it deleted.
    return { ops: closed.map((f) => ({ op: 'DELETE' as const, memory_id: f.id, text: f.content })), factIds: [], deletedIds: closed.map((f) => f.id) };
  }
  const supersedes = decision.op === 'UPDATE' ? decision.targetId : null;
  const [added] = at.withdrawn
    ? [await restoreWithdrawn(deps, tenant, u, at.withdrawn, base, decision, at.closedBy ?? null)].flatMap((f) => (f ? [f] : []))
    : await deps.memory.addFacts(tenant, [{ ...base, id, supersedes }]);
  if (!added) return { ops: [], factIds: [] };
  // Said before the fact it would have replaced or ended (`inSaidOrder`): history, closed where that fact began.
  if (at.closedBy && added.validTo === null) {
    await deps.memory.closeFact(tenant, added.id, at.closedBy.validFrom, at.closedBy.id);
    return { ops: [], factIds: [added.id], history: true };
  }
  // Restored as history: a newer fact (said after the turn, while it was another speaker's) holds the slot.
  if (added.validTo !== null) return { ops: [], factIds: [added.id], history: true };
  if (supersedes) {
    const old = await deps.memory.closeFact(tenant, supersedes, u.time, added.id);
    // A home the replaced stay had interrupted is replaced too ("I've moved to Porto" after Lisbon closes Berkeley).
    if (old) await indexer.removeFacts(tenant, [old, ...await closeInterrupted(deps.memory, tenant, old, added, u.time)]);
    // A successor of another slot ("I left Hillcrest, I'm tutoring now": `occupation` after `works_at`) ends the old slot's attribute.
    if (old) await rederiveAttributes(deps.graph, deps.memory, tenant, endedSlots(old, added));
  }
  // Facts replaced with the target ("I'm back on coffee": the stored "I love coffee" besides the value held for now).
  const replaced: Fact[] = [];
  for (const other of decision.op === 'UPDATE' ? decision.alsoReplaces ?? [] : []) {
    const old = other === supersedes ? null : await deps.memory.closeFact(tenant, other, u.time, added.id);
    if (old) replaced.push(old);
    if (old) await indexer.removeFacts(tenant, [old]);
    if (old) await rederiveAttributes(deps.graph, deps.memory, tenant, endedSlots(old, added));
  }
  // A plan called off with its reason kept (rules 90) takes with it what hangs on it, as a plain cancellation does.
  if (ef.settles === 'cancelled' && supersedes) await closeHanging(deps, indexer, tenant, u.time, added.id, replaced, supersedes);
  await indexer.indexFacts(tenant, [{ fact: added, vector }]);
  return { ops: [{ op: decision.op, memory_id: added.id, text: added.content }], factIds: [added.id] };
}

/** Close what hangs on the plans `closed` and `supersededId` (`dependentsOf`), replaced by the cancellation `byId`. */
async function closeHanging(deps: FactWriteDeps, indexer: MemoryIndexer, tenant: TenantId, at: string, byId: string, closed: Fact[], supersededId: string): Promise<void> {
  const plan = await deps.memory.getFact(tenant, supersededId);
  const hanging = await dependentsOf(deps.memory, tenant, [...(plan ? [plan] : []), ...closed], at);
  for (const dependent of hanging.filter((f) => f.id !== byId)) {
    const f = await deps.memory.closeFact(tenant, dependent.id, at, null);
    if (f) await indexer.removeFacts(tenant, [f]);
  }
}

/**
 * Restore `withdrawn` (its turn given back to its speaker) as `decision` (an ADD or UPDATE) says, with the fresh
 * extraction's fields (`base`). An UPDATE of a fact that began after the turn (said while the turn was another
 * speaker's, "I live in Madrid" after the Lisbon turn) does not replace it, nor does a fact said after the turn
 * (`closedBy`, `inSaidOrder`): the withdrawn fact comes back as history, closed where that newer fact began and superseded by it. Null when nothing was restored (not withdrawn any more).
 */
async function restoreWithdrawn(
  deps: FactWriteDeps, tenant: TenantId, u: Utterance, withdrawn: Fact, base: Omit<NewFact, 'supersedes'>, decision: Exclude<Decision, { op: 'NOOP' }>,
  closedBy: Fact | null,
): Promise<Fact | null> {
  const fresh = { content: base.content, confidence: base.confidence, validUntil: base.validUntil ?? null, eventTime: base.eventTime ?? null,
    planObject: base.planObject ?? null, source: base.source };
  const target = closedBy ?? (decision.op === 'UPDATE' ? await deps.memory.getFact(tenant, decision.targetId) : null);
  if (target && (closedBy !== null || target.validFrom > u.time)) {
    return deps.memory.restoreWithdrawn(tenant, withdrawn.id, null, { fresh, closedBy: { id: target.id, at: target.validFrom } });
  }
  return deps.memory.restoreWithdrawn(tenant, withdrawn.id, decision.op === 'UPDATE' ? decision.targetId : null, { fresh });
}

/** The derived slots `old` filled that its successor `next` does not fill: those its attribute must be worked out again for. */
function endedSlots(old: Fact, next: Fact): DerivedSlot[] {
  const kept = new Set(derivedSlotOf(next).map((s) => `${s.participantId}\u0000${s.slot}`));
  return derivedSlotOf(old).filter((s) => !kept.has(`${s.participantId}\u0000${s.slot}`));
}

/** Lower-case letter and digit runs, single-spaced: what a re-extraction must reproduce for the same id. */
function normalised(text: string | null): string {
  return (text ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The id of a fact extracted from `utteranceId`, the same on every run of its job: a hash of the tenant, the
 * utterance, its speaker (so the utterance given to another speaker gives facts of other ids), the subject and what
 * the fact fills (slot and normalised value) or, with no slot, its normalised text. `f_` and 32 hex digits, like
 * `newId('f')`.
 */
export function extractedFactId(
  tenant: TenantId, utteranceId: string, ef: Pick<ExtractedFact, 'speakerId' | 'subjectId' | 'slot' | 'value' | 'content'>,
): string {
  return factIdOf([tenant, utteranceId, ef.speakerId, ef.subjectId, ...whatItFills(ef)]);
}

/**
 * The id the fact had before ids hashed the speaker (`extractedFactId` without it): a run cut short before the upgrade
 * stored its facts under it. Such a fact of the same speaker is the run's own, finished instead of decided again.
 */
export function legacyExtractedFactId(tenant: TenantId, utteranceId: string, ef: Pick<ExtractedFact, 'subjectId' | 'slot' | 'value' | 'content'>): string {
  return factIdOf([tenant, utteranceId, ef.subjectId, ...whatItFills(ef)]);
}

/** The fact a run cut short before the upgrade stored for `ef` (its legacy id, the same speaker), or null. */
async function legacyStored(memory: MemoryStore, tenant: TenantId, utteranceId: string, ef: ExtractedFact): Promise<Fact | null> {
  const fact = await memory.getFact(tenant, legacyExtractedFactId(tenant, utteranceId, ef));
  return fact && fact.speakerId === ef.speakerId ? fact : null;
}

function whatItFills(ef: Pick<ExtractedFact, 'slot' | 'value' | 'content'>): string[] {
  return ef.slot !== null ? ['slot', ef.slot, normalised(ef.value)] : ['text', normalised(ef.content)];
}

function factIdOf(parts: string[]): string {
  return `f_${crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)}`;
}

/**
 * Finish a fact an interrupted run of the job stored: close the fact it replaces (if that run had
 * not), take closed facts out of the indexes and index it while it is current. Every step is
 * idempotent, so it does no harm where that run had got further.
 */
async function finishStored(
  deps: FactWriteDeps, indexer: MemoryIndexer, tenant: TenantId, u: Utterance, fact: Fact, vector: Float32Array,
): Promise<{ ops: MemoryOp[]; factIds: string[] }> {
  if (fact.supersedes) {
    const old = await deps.memory.closeFact(tenant, fact.supersedes, u.time, fact.id) ?? await deps.memory.getFact(tenant, fact.supersedes);
    if (old && old.validTo !== null) {
      await indexer.removeFacts(tenant, [old, ...await closeInterrupted(deps.memory, tenant, old, fact, u.time)]);
      await rederiveAttributes(deps.graph, deps.memory, tenant, endedSlots(old, fact));
    }
  }
  if (fact.validTo !== null) return { ops: [], factIds: [fact.id] };
  await indexer.indexFacts(tenant, [{ fact, vector }]);
  return { ops: [{ op: fact.supersedes ? 'UPDATE' : 'ADD', memory_id: fact.id, text: fact.content }], factIds: [fact.id] };
}
