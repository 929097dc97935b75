import crypto from 'node:crypto';
import type { Logger } from 'pino';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Job, JobHandler } from '../../graph/job-queue.js';
import type { KeyedLock } from '../../graph/keyed-lock.js';
import { MemoryKeyedLock } from '../../graph/memory-keyed-lock.js';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { collectionFor } from './collections.js';
import { RuleDecider, type Candidate, type Decider, type Decision } from './decide.js';
import type { ExtractedFact, ExtractionResult, Extractor } from './extractor.js';
import { MemoryIndexer } from './memory-indexer.js';
import { closeInterrupted, decideWithStays, ownEnd } from './temporary-states.js';
import { applyProfileUpdates } from './profile-updates.js';
import { derivedSlotOf, rederiveAttributes, type DerivedSlot } from '../interaction/derived-attributes.js';
import { CALLER, UNNAMED } from './extractor.js';

/** Newest current facts of a subject searched by vector for near-duplicates and changes of mind. */
const RECENT_POOL = 200;

/** A sentence that starts with a capitalised word other than "I": it may report on someone by name. */
const REPORT_START = /(?:^|[.!?]\s+)(?!I\b)[A-Z][a-z'-]+\s+[a-z]/;

/** Job name the handler is registered under. */
export const CONSOLIDATION_JOB = 'memory.consolidate';

/** Job data: consolidate one stored utterance. */
export interface ConsolidationJob {
  tenant: TenantId;
  sessionId: string;
  utteranceId: string;
}

/** One `memory.updated` op, as sent to the client. */
export interface MemoryOp {
  op: 'ADD' | 'UPDATE' | 'DELETE' | 'KEEP';
  memory_id: string;
  text: string;
}

/** Everything the consolidation handler needs. */
export interface ConsolidationDeps {
  graph: GraphStore;
  memory: MemoryStore;
  vectors: VectorStore;
  lexical: LexicalIndex;
  embedder: TextEmbedder;
  extractor: Extractor;
  /** Default: deterministic `RuleDecider`; pass an `LlmDecider` when an LLM is configured. */
  decider?: Decider;
  /** Called once per job with the ops to send as `memory.updated` (not called when empty). */
  onOps: (tenant: TenantId, sessionId: string, ops: MemoryOp[]) => void;
  logger: Logger;
  /** Previous turns given to the extractor; default 3. */
  contextTurns?: number;
  /** Nearest current facts of the same subject considered; default 8. */
  candidateK?: number;
  /**
   * Serialises the decide-and-write step per (tenant, subject). Pass the stores' lock (`Stores.locks`)
   * so every handler of the process, and every worker process of the deployment, shares it; default:
   * a lock of this handler's own.
   */
  locks?: KeyedLock;
}

/**
 * The `memory.consolidate` job handler: extract facts and profile updates from the utterance and
 * its context, decide ADD / UPDATE / DELETE / KEEP against the subject's nearest current facts,
 * write them (closing superseded facts, keeping history), apply profile updates, index the
 * utterance and every new fact for vector and lexical search, then report the ops.
 * Idempotent: a processed utterance is only re-indexed, never extracted twice. A run cut short
 * (a worker killed mid-job) and run again adds no second copy of a fact it stored: the extraction
 * is kept in the memory store before any write (`extractOnce`) and replayed by the re-run, even
 * where an LLM would word it differently the second time; each fact's id is derived from the
 * utterance and what the fact says (`extractedFactId`), the stores insert or ignore by id, and a
 * fact found under its id is finished (what it replaces closed, indexed) instead of being decided
 * again.
 * Jobs about the same subject never decide at once: deciding and writing run under the lock of
 * every subject the utterance's facts are about (`consolidationLockKeys`), and read the subject's
 * current facts inside it, so two jobs cannot both add a value for one exclusive slot, nor both
 * supersede the same fact.
 */
export function createConsolidationHandler(deps: ConsolidationDeps): JobHandler<ConsolidationJob> {
  const indexer = new MemoryIndexer(deps.vectors, deps.lexical, deps.embedder);
  const decider = deps.decider ?? new RuleDecider();
  const contextTurns = deps.contextTurns ?? 3;
  const candidateK = deps.candidateK ?? 8;
  const locks = deps.locks ?? new MemoryKeyedLock();

  return async (job: Job<ConsolidationJob>, signal: AbortSignal): Promise<void> => {
    const { tenant, sessionId, utteranceId } = job.data;
    const log = deps.logger.child({ job: job.id, tenant, utteranceId });
    const u = await deps.graph.getUtterance(tenant, utteranceId);
    if (!u) {
      log.warn({}, 'utterance gone before consolidation');
      return;
    }
    const processed = await deps.memory.processedFacts(tenant, utteranceId);
    if (processed !== null) {
      // Already consolidated: only refresh the index entries (e.g. after a speaker merge relabelled them).
      const facts = processed.length > 0 ? await deps.memory.listFacts(tenant, { ids: processed }) : [];
      const vectors = await deps.embedder.embed([u.text, ...facts.map((f) => f.content)]);
      if (await erasedMeanwhile(deps.graph, tenant, utteranceId)) return;
      await indexer.indexUtterance(tenant, u, vectors[0] as Float32Array);
      if (facts.length > 0) await indexer.indexFacts(tenant, facts.map((fact, i) => ({ fact, vector: vectors[i + 1] as Float32Array })));
      return;
    }
    const extraction = await extractOnce(deps, tenant, u, contextTurns);
    signal.throwIfAborted();

    const vectors = await deps.embedder.embed([u.text, ...extraction.facts.map((f) => f.content)]);
    const keys = consolidationLockKeys(tenant, sessionId, extraction);
    const ops = await locks.withLock(keys, async (lost) => {
      // Another delivery of this job finished while this one waited: nothing left to write.
      if ((await deps.memory.processedFacts(tenant, utteranceId)) !== null) return [];
      if (await erasedMeanwhile(deps.graph, tenant, utteranceId)) return [];
      return writeFacts({ deps, indexer, decider, candidateK }, tenant, u, extraction, vectors, AbortSignal.any([signal, lost]));
    });
    log.debug({ ops: ops.map((o) => o.op), subjects: keys.length }, 'utterance consolidated');
    if (ops.length > 0) deps.onOps(tenant, sessionId, ops);
  };
}

interface WriteContext {
  deps: ConsolidationDeps;
  indexer: MemoryIndexer;
  decider: Decider;
  candidateK: number;
}

/**
 * Decide and write each extracted fact against its subject's current facts, read now (the caller
 * holds the subjects' locks), apply the profile updates and record the utterance as processed.
 * `live` aborts when the queue closes or a lock was lost: no write starts after that.
 */
async function writeFacts(
  { deps, indexer, decider, candidateK }: WriteContext, tenant: TenantId, u: Utterance, extraction: ExtractionResult,
  vectors: Float32Array[], live: AbortSignal,
): Promise<MemoryOp[]> {
  await indexer.indexUtterance(tenant, u, vectors[0] as Float32Array);
  const ops: MemoryOp[] = [];
  const factIds: string[] = [];
  const keptBetter = new Set<string>();
  const known = new Map<string, string | null>();
  for (const [i, extracted] of extraction.facts.entries()) {
    live.throwIfAborted();
    // A fact is as sure as the words it came from: ASR confidence scales the extractor's.
    const ef = { ...extracted, confidence: extracted.confidence * (u.confidence ?? 1) };
    const vector = vectors[i + 1] as Float32Array;
    const id = extractedFactId(tenant, u.id, ef);
    const earlier = await deps.memory.getFact(tenant, id);
    if (earlier) {
      // An earlier run of this job stored it and stopped before recording the utterance as processed.
      const op = await finishStored(deps, indexer, tenant, u, earlier, vector);
      ops.push(...op.ops);
      factIds.push(...op.factIds);
      continue;
    }
    const candidates = await nearestCandidates(deps, tenant, u.sessionId, ef, vector, candidateK);
    const retractedFacts = ef.retractsUtteranceIds ? await factsFrom(deps.memory, tenant, ef.retractsUtteranceIds) : [];
    const names = await peopleNames(deps.graph, tenant, [u.speakerId, ...u.addresseeIds, ef.subjectId,
      ...candidates.flatMap((c) => [c.fact.speakerId, c.fact.subjectId])], known);
    // A stay ("in Lisbon for a month") is stored beside the home it interrupts; a lasting value outlasts a stay of it.
    const decision = decideWithStays(await decider.decide({ fact: ef, candidates, retractedFacts, time: u.time, names }), ownEnd(ef, u.time), candidates);
    const target = decision.op === 'KEEP' ? candidates.find((c) => c.fact.id === decision.targetId)?.fact : undefined;
    if (target && ef.slot !== null && target.value !== ef.value) keptBetter.add(`${ef.subjectId}\u0000${ef.slot}`);
    live.throwIfAborted();
    const op = await apply(deps, indexer, tenant, u, ef, id, vector, decision);
    ops.push(...op.ops);
    factIds.push(...op.factIds);
  }
  // A profile value kept because the stored transcript was better is not overwritten either.
  const updates = extraction.profileUpdates.filter((p) => !keptBetter.has(`${p.participantId}\u0000${p.attribute}`));
  live.throwIfAborted();
  if (updates.length > 0) await applyProfileUpdates(deps.graph, tenant, updates);
  // A state said with its end (already past when an older conversation is imported) fills its attribute only while it lasts.
  const temporary = extraction.facts.filter((ef) => ownEnd(ef, u.time) !== null).flatMap(derivedSlotOf);
  if (temporary.length > 0) await rederiveAttributes(deps.graph, deps.memory, tenant, temporary);
  await deps.memory.markProcessed(tenant, u.id, [...new Set(factIds)]);
  return ops;
}

/**
 * What the extractor finds in `u` and its context, with every participant id in fact text replaced
 * by how that participant is shown; kept in the memory store before anything is written, so a run
 * of the job again after a crash replays the very same facts (same ids, nothing twice) instead of
 * asking the extractor again, which an LLM may answer in other words.
 */
async function extractOnce(deps: ConsolidationDeps, tenant: TenantId, u: Utterance, contextTurns: number): Promise<ExtractionResult> {
  const kept = await deps.memory.keptExtraction(tenant, u.id);
  if (kept !== null) return JSON.parse(kept) as ExtractionResult;
  const previous = await previousTurns(deps.graph, tenant, u, contextTurns);
  const names = await participantNames(deps.graph, tenant, [u, ...previous]);
  if (REPORT_START.test(u.text)) {
    // "Lena moved to Boulder": the extractor needs the name of whoever a turn reports on.
    for (const p of await deps.graph.findParticipantsInText(tenant, u.text)) if (p.name && !(p.id in names)) names[p.id] = p.name;
  }
  const unnamed = await unnamedDisplay(deps.graph, tenant, u, previous, names);
  const extraction = await deps.extractor.extract({ current: u, previous, names, unnamed });
  // Memory text never shows a raw participant id, whatever the extractor wrote.
  const shown = (id: string): string => names[id] ?? unnamed[id] ?? UNNAMED;
  for (const f of extraction.facts) f.content = withoutParticipantIds(f.content, shown);
  // Two deliveries of the job at once: both go on with the extraction kept first.
  return JSON.parse(await deps.memory.keepExtraction(tenant, u.id, JSON.stringify(extraction))) as ExtractionResult;
}

/**
 * The lock keys of consolidating one extraction: one per subject its facts and profile updates are
 * about, and when a fact settles a plan, the session's (the plan may be someone else's in the
 * session) and the addressees' (it may be a plan they share with the speaker, said in another session).
 */
export function consolidationLockKeys(tenant: TenantId, sessionId: string, extraction: ExtractionResult): string[] {
  const keys = new Set<string>();
  for (const f of extraction.facts) {
    keys.add(`consolidate:${tenant}:subject:${f.subjectId}`);
    if (!f.settles) continue;
    keys.add(`consolidate:${tenant}:session:${sessionId}`);
    for (const a of f.addresseeIds) keys.add(`consolidate:${tenant}:subject:${a}`);
  }
  for (const p of extraction.profileUpdates) keys.add(`consolidate:${tenant}:subject:${p.participantId}`);
  return [...keys];
}

/** The `n` turns before `u` in its session, oldest first, from the seq index (constant cost however far behind the queue is). */
async function previousTurns(graph: GraphStore, tenant: TenantId, u: Utterance, n: number): Promise<Utterance[]> {
  if (n <= 0) return [];
  return graph.recentUtterances(tenant, u.sessionId, n, u.seq);
}

/** A participant id as `newId('p')` makes them. */
const PARTICIPANT_ID = /\bp_[0-9a-f]{32}\b/g;

/** `text` with every participant id replaced by how that participant is shown. */
export function withoutParticipantIds(text: string, shown: (id: string) => string): string {
  return text.replace(PARTICIPANT_ID, (id, offset: number) => {
    const s = shown(id);
    // At the start of a sentence, capitalised.
    const start = offset === 0 || /[.!?]\s*$/.test(text.slice(0, offset));
    return start ? s.charAt(0).toUpperCase() + s.slice(1) : s;
  });
}

/**
 * How the unnamed speakers of `u`'s session are written: in a phone session (Twilio) they are the
 * remote party, "the caller"; elsewhere the extractor's default ("an unnamed speaker").
 */
async function unnamedDisplay(
  graph: GraphStore, tenant: TenantId, u: Utterance, previous: Utterance[], names: Record<string, string | null>,
): Promise<Record<string, string>> {
  const session = await graph.getSession(tenant, u.sessionId);
  if (session?.metadata.channel !== 'twilio') return {};
  const out: Record<string, string> = {};
  for (const x of [u, ...previous]) if (!names[x.speakerId]) out[x.speakerId] = CALLER;
  return out;
}

async function participantNames(graph: GraphStore, tenant: TenantId, us: Utterance[]): Promise<Record<string, string | null>> {
  const ids = new Set(us.flatMap((u) => [u.speakerId, ...u.addresseeIds]));
  const names: Record<string, string | null> = {};
  await Promise.all([...ids].map(async (id) => {
    names[id] = (await graph.getParticipant(tenant, id))?.name ?? null;
  }));
  return names;
}

/**
 * Current facts of the same subject, scored by cosine similarity, best first. Cost is bounded, not
 * proportional to the subject's history: the vector pool is the subject's `RECENT_POOL` newest
 * current facts, and facts of the same slot (or slot family) come from an indexed lookup however old.
 */
async function nearestCandidates(
  deps: ConsolidationDeps, tenant: TenantId, sessionId: string, ef: ExtractedFact, vector: Float32Array, k: number,
): Promise<Candidate[]> {
  const recent = await deps.memory.listFacts(tenant, { subjectId: ef.subjectId, limit: RECENT_POOL });
  const slotted = ef.slot === null ? [] : await deps.memory.listFacts(tenant, { subjectId: ef.subjectId, slot: ef.slot, limit: 50 });
  // The slot of the same family the fact ends ("I left Hillcrest, I'm tutoring now" ends `works_at`) counts as its own.
  if (ef.endsSlot) slotted.push(...await deps.memory.listFacts(tenant, { subjectId: ef.subjectId, slot: ef.endsSlot, limit: 50 }));
  // An outcome may settle what someone else in the session proposed or promised ("we decided… instead").
  const session = ef.settles ? await deps.memory.listFacts(tenant, { sessionId, limit: RECENT_POOL }) : [];
  // …or a plan said to them with "we" ("Lena and Ben will have a picnic"), in any session.
  const shared = ef.settles
    ? (await deps.memory.listFacts(tenant, { participantId: ef.subjectId, role: 'addressee', limit: RECENT_POOL })).filter((f) => f.planObject?.shared === true)
    : [];
  const byId = new Map([...recent, ...slotted, ...session, ...shared].map((f) => [f.id, f]));
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

async function apply(
  deps: ConsolidationDeps, indexer: MemoryIndexer, tenant: TenantId, u: Utterance, ef: ExtractedFact, id: string,
  vector: Float32Array, decision: Decision,
): Promise<{ ops: MemoryOp[]; factIds: string[] }> {
  const base = {
    content: ef.content, speakerId: ef.speakerId, addresseeIds: ef.addresseeIds, subjectId: ef.subjectId,
    kind: ef.kind, slot: ef.slot, value: ef.value, time: u.time, eventTime: ef.eventTime ?? null, referIds: ef.referIds, validFrom: u.time,
    validUntil: ownEnd(ef, u.time), planObject: ef.planObject ?? null,
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
    await indexer.removeFacts(tenant, closed);
    // A retracted profile memory ("I don't live in Oslo any more") takes its attribute with it, or back to an older current one.
    await rederiveAttributes(deps.graph, deps.memory, tenant, closed.flatMap(derivedSlotOf));
    return { ops: closed.map((f) => ({ op: 'DELETE' as const, memory_id: f.id, text: f.content })), factIds: [] };
  }
  const supersedes = decision.op === 'UPDATE' ? decision.targetId : null;
  const [added] = await deps.memory.addFacts(tenant, [{ ...base, id, supersedes }]);
  if (!added) return { ops: [], factIds: [] };
  if (supersedes) {
    const old = await deps.memory.closeFact(tenant, supersedes, u.time, added.id);
    // A home the replaced stay had interrupted is replaced too ("I've moved to Porto" after Lisbon closes Berkeley).
    if (old) await indexer.removeFacts(tenant, [old, ...await closeInterrupted(deps.memory, tenant, old, added, u.time)]);
    // A successor of another slot ("I left Hillcrest, I'm tutoring now": `occupation` after `works_at`) ends the old slot's attribute.
    if (old) await rederiveAttributes(deps.graph, deps.memory, tenant, endedSlots(old, added));
  }
  await indexer.indexFacts(tenant, [{ fact: added, vector }]);
  return { ops: [{ op: decision.op, memory_id: added.id, text: added.content }], factIds: [added.id] };
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
 * The id of a fact extracted from `utteranceId`, the same on every run of its job: a hash of the
 * tenant, the utterance, the subject and what the fact fills (slot and normalised value) or, with
 * no slot, its normalised text. `f_` and 32 hex digits, like `newId('f')`.
 */
export function extractedFactId(tenant: TenantId, utteranceId: string, ef: Pick<ExtractedFact, 'subjectId' | 'slot' | 'value' | 'content'>): string {
  const what = ef.slot !== null ? ['slot', ef.slot, normalised(ef.value)] : ['text', normalised(ef.content)];
  const digest = crypto.createHash('sha256').update([tenant, utteranceId, ef.subjectId, ...what].join('\u0000')).digest('hex');
  return `f_${digest.slice(0, 32)}`;
}

/**
 * Finish a fact an interrupted run of the job stored: close the fact it replaces (if that run had
 * not), take closed facts out of the indexes and index it while it is current. Every step is
 * idempotent, so it does no harm where that run had got further.
 */
async function finishStored(
  deps: ConsolidationDeps, indexer: MemoryIndexer, tenant: TenantId, u: Utterance, fact: Fact, vector: Float32Array,
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

/**
 * True when the utterance was erased while the job waited on the embedder or for its lock: nothing
 * of it may be written back. (With the embedded stores the job's writes after this check run without a pause.)
 */
async function erasedMeanwhile(graph: GraphStore, tenant: TenantId, utteranceId: string): Promise<boolean> {
  return (await graph.getUtterance(tenant, utteranceId)) === null;
}
