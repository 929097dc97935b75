import type { Logger } from 'pino';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Job, JobHandler } from '../../graph/job-queue.js';
import type { KeyedLock } from '../../graph/keyed-lock.js';
import { MemoryKeyedLock } from '../../graph/memory-keyed-lock.js';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { MemoryStore } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { RuleDecider, type Decider } from './decide.js';
import { extractOnce, type KeptExtraction } from './extraction-context.js';
import type { ExtractedFact, ExtractionResult, Extractor } from './extractor.js';
import { writeFacts, type MemoryOp } from './fact-writes.js';
import { teamSubjects } from './team-candidates.js';
import { MemoryIndexer } from './memory-indexer.js';
import { finishPendingRenames } from '../interaction/finish-rename.js';
import { nameUnnamed, renameInText, UNNAMED_WORDS } from '../interaction/rename-facts.js';
import { speakerLockKey, subjectLockKey } from './subject-lock.js';
import { changedValue } from './value-change.js';
import { DEFAULT_MIN_ASR_CONFIDENCE, doubtfulSpeech, type MinAsrConfidence } from './doubtful-speech.js';
import { deletedByMoved, movedFacts, reopenDeleted, revisedSince, staleExtractionFacts, withdrawMoved, withdrawnSubjects } from './revised-speaker.js';

export { extractedFactId, type MemoryOp } from './fact-writes.js';
export { withoutParticipantIds } from './extraction-context.js';

/** Job name the handler is registered under. */
export const CONSOLIDATION_JOB = 'memory.consolidate';

/** Job data: consolidate one stored utterance. */
export interface ConsolidationJob {
  tenant: TenantId;
  sessionId: string;
  utteranceId: string;
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
  /**
   * Called with the ops to send as `memory.updated` (never with none): once per job, and once more before it when a
   * turn moved after a cut first run had what that run stored withdrawn (sent even if the job then fails).
   */
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
  /**
   * A recognised turn below this ASR confidence gives memory nothing (`doubtfulSpeech`), and is no context of the turns
   * after it (nor is what came before it); `auto` sets each turn's by what heard it (`minAsrConfidenceFor`); default
   * `DEFAULT_MIN_ASR_CONFIDENCE`.
   */
  minAsrConfidence?: MinAsrConfidence;
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
 * An utterance given to another speaker after it was consolidated (`speaker.revised`) is not only re-indexed: the
 * facts it gave its old speaker are withdrawn, what they replaced is current again (`withdrawMoved`), and it is
 * extracted again under its new speaker, in the same run and under the locks of both speakers' subjects.
 * Jobs about the same subject never decide at once: deciding and writing run under the lock of
 * every subject the utterance's facts are about (`consolidationLockKeys`), and read the subject's
 * current facts inside it, so two jobs cannot both add a value for one exclusive slot, nor both
 * supersede the same fact. The speaker's lock, which an erasure takes, is held only around each write (`turnCommit`),
 * after checking there that the turn is still stored as read: never across a decision, so an erasure never waits for an
 * LLM; a job whose turn was erased meanwhile writes nothing more. Every lock is taken with the try's signal: a try aborted
 * for running past `PARLEY_JOB_MAX_RUN_MS` gives them up at once (its retry takes them, not waiting on a call that never
 * answers) and writes nothing after (each write checks the signal under the speaker's lock, `turnCommit`).
 */
export function createConsolidationHandler(deps: ConsolidationDeps): JobHandler<ConsolidationJob> {
  const minAsrConfidence = deps.minAsrConfidence ?? DEFAULT_MIN_ASR_CONFIDENCE;
  const indexer = new MemoryIndexer(deps.vectors, deps.lexical, deps.embedder, minAsrConfidence);
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
    // Heard too doubtfully to remember: kept in the transcript only, recorded as processed with no facts, never indexed
    // (a run again finds it so). One consolidated with facts before the gate existed goes on as any other, but its own
    // keyword entry and vector go (`MemoryIndexer.indexUtterance` writes none for doubtful speech).
    if (doubtfulSpeech(u, minAsrConfidence) && (processed === null || processed.length === 0)) {
      log.debug({ confidence: u.confidence }, 'doubtful speech: nothing remembered');
      // A keyword entry an ingest gave it (one from before ingest left doubtful turns out, or under another setting) goes.
      await deps.lexical.delete(tenant, [u.id]);
      if (processed === null) await deps.memory.markProcessed(tenant, utteranceId, [], { speakerId: u.speakerId, deletedIds: [] });
      return;
    }
    // Given to another speaker since it was consolidated: what it gave the old one is withdrawn, then it is extracted again.
    const moved = processed === null ? [] : await movedFacts(deps, tenant, u, processed);
    if (processed !== null && moved.length === 0 && !(await revisedSince(deps, tenant, u))) {
      // Already consolidated: only refresh the index entries (e.g. after a speaker merge relabelled them), embedding
      // only the texts that changed since they were indexed (a merge names an unnamed speaker's facts).
      const facts = processed.length > 0 ? await deps.memory.listFacts(tenant, { ids: processed }) : [];
      const vectors = await indexer.vectorsFor(tenant, [
        { id: u.id, layer: 'interaction', text: u.text },
        ...facts.map((f) => ({ id: f.id, layer: f.layer, text: f.content })),
      ]);
      // Checked and written under the speaker's lock, which an erasure takes to remove them (`speakerLockKey`): written
      // before they leave the graph (and erased with them), or not at all.
      const indexed = await locks.withLock([speakerLockKey(tenant, u.speakerId)], async () => {
        // Erased, given to another speaker, or rewritten (an erasure redacted a name in it) since this job read it: the
        // text read then is never indexed again; whatever changed it indexes it as it reads now.
        if (!(await unchangedSince(deps.graph, tenant, u))) return false;
        await indexer.indexUtterance(tenant, u, vectors[0] as Float32Array);
        if (facts.length > 0) await indexer.indexFacts(tenant, facts.map((fact, i) => ({ fact, vector: vectors[i + 1] as Float32Array })));
        return true;
      }, signal);
      if (!indexed) return;
      // A rerun after a rewrite owed (below) failed finishes it.
      await finishPendingRenames({ graph: deps.graph, memory: deps.memory, indexer, locks, signal }, tenant, [u.speakerId, ...u.addresseeIds]);
      return;
    }
    const extractFresh = async (): Promise<KeptExtraction> => {
      // Moved after a first run was cut short: that run's extraction (and what it stored) is the old speaker's.
      const early = processed === null ? await withdrawStaleExtraction(deps, indexer, locks, tenant, u, signal) : [];
      // Sent now: what was withdrawn stays withdrawn even if extracting or writing fails below.
      if (early.length > 0) deps.onOps(tenant, sessionId, early);
      return extractOnce(deps, tenant, u, contextTurns, minAsrConfidence);
    };
    let extraction = await extractFresh();
    // A job that read the turn before it was moved kept its extraction, of the old speaker, while this one extracted
    // (it keeps only once): set that aside as well and extract again.
    if (processed === null && (await staleExtractionFacts(deps, tenant, u)) !== null) extraction = await extractFresh();
    signal.throwIfAborted();

    const vectors = await deps.embedder.embed([u.text, ...extraction.facts.map((f) => f.content)]);
    const deleted = processed === null ? [] : await deletedByMoved(deps, tenant, u);
    const withdrawing = (await withdrawnSubjects(deps.memory, tenant, [...moved, ...deleted])).map((id) => subjectLockKey(tenant, id));
    // A team change may replace another person's fact: their lock too, taken with the rest (review12 F2).
    const team = await teamSubjects(deps, tenant, u, extraction, vectors, candidateK);
    const keys = [...new Set([...consolidationLockKeys(tenant, sessionId, extraction), ...withdrawing, ...team.subjects.map((id) => subjectLockKey(tenant, id))])];
    const lockedSubjects = new Set([...extraction.facts.map((f) => f.subjectId), ...team.subjects]);
    // Each write under the speaker's lock, which an erasure takes to remove them (`speakerLockKey`), after checking the
    // turn is as read; never a decision (an LLM call): an erasure waits for one write at most, never for a model.
    const commit = turnCommit(locks, deps.graph, tenant, u, signal);
    const ops = await locks.withLock(keys, async (lost) => {
      const live = AbortSignal.any([signal, lost]);
      let withdrawn: MemoryOp[] = [];
      try {
        const first = await commit(async () => {
          // Another delivery of this job finished while this one waited: nothing left to write.
          const now = await deps.memory.processedFacts(tenant, utteranceId);
          const stillMoved = now === null ? [] : await movedFacts(deps, tenant, u, now);
          if (now !== null && stillMoved.length === 0 && !(await revisedSince(deps, tenant, u))) return null;
          const undone = await withdrawMoved(deps, indexer, tenant, u, stillMoved, live);
          // What it deleted is read again under the lock: found by the same record, so a cut between the two reads finds it too.
          undone.push(...await reopenDeleted(deps, indexer, tenant, u, now === null ? [] : await deletedByMoved(deps, tenant, u), live));
          return undone;
        });
        if (first === null) return [];
        withdrawn = first;
        // Named or renamed since the extraction read the names (a rename finished meanwhile): its facts say the name held now.
        const named = await withCurrentNames(deps, tenant, extraction, vectors);
        return [...withdrawn, ...await writeFacts({ deps, indexer, decider, candidateK, logger: log, commit, lockedSubjects, team: team.candidates }, tenant, u, named.extraction, named.vectors, live)];
      } catch (err) {
        // Erased, or given to another speaker since this job read it: that move's own job consolidates it for the new one.
        // Rewritten since (an erasure redacted someone's name or number in it): nothing more of the text read then is
        // written (what was, before the erasure, its second pass removes).
        if (err instanceof TurnChanged) return withdrawn;
        throw err;
      }
    }, signal);
    log.debug({ ops: ops.map((o) => o.op), subjects: keys.length }, 'utterance consolidated');
    if (ops.length > 0) deps.onOps(tenant, sessionId, ops);
    // A name learned from this turn (said, by naming at ingest; or by its profile updates) owes the rewrite of the
    // memories that called them "an unnamed speaker": done here, after this turn's own facts, and again by a rerun.
    const people = [u.speakerId, ...u.addresseeIds, ...extraction.profileUpdates.map((p) => p.participantId)];
    await finishPendingRenames({ graph: deps.graph, memory: deps.memory, indexer, locks, signal }, tenant, people);
  };
}

/**
 * `extraction` with each fact naming the participant it is about by a name they no longer hold written with the one
 * they hold now, as a rename's rewrite would have done had the fact been stored already: read under the subjects' lock,
 * just before the write, since a rename that committed after the extraction read the names has rewritten only the facts
 * stored then. A fact that calls them "an unnamed speaker" (or "the caller") and they have a name now (`nameUnnamed`); one
 * that names them by the name the extractor was given (`shownNames`) when that changed (`renameInText`), unless another
 * participant of the fact answers to that name. The vectors of the texts it changes are embedded again; the same arrays
 * when none changes.
 */
async function withCurrentNames(
  deps: ConsolidationDeps, tenant: TenantId, extraction: KeptExtraction, vectors: Float32Array[],
): Promise<{ extraction: ExtractionResult; vectors: Float32Array[] }> {
  const shown = extraction.shownNames ?? {};
  const unnamedWords = new RegExp(UNNAMED_WORDS.source, 'i');
  const named = (f: ExtractedFact): boolean => typeof shown[factSubject(f)] === 'string';
  const checked = extraction.facts.filter((f) => unnamedWords.test(f.content) || named(f));
  if (checked.length === 0) return { extraction, vectors };
  const names = new Map((await deps.graph.getParticipants(tenant, [...new Set(checked.map(factSubject))])).map((p) => [p.id, p.name]));
  const changed: number[] = [];
  const facts: ExtractedFact[] = [];
  for (const [i, f] of extraction.facts.entries()) {
    const content = checked.includes(f) ? await currentNameIn(deps.graph, tenant, f, shown[factSubject(f)] ?? null, names.get(factSubject(f)) ?? null) : null;
    if (content !== null) changed.push(i);
    facts.push(content === null ? f : { ...f, content });
  }
  if (changed.length === 0) return { extraction, vectors };
  const fresh = await deps.embedder.embed(changed.map((i) => facts[i]!.content));
  const next = [...vectors];
  changed.forEach((i, k) => { next[i + 1] = fresh[k] as Float32Array; });
  return { extraction: { ...extraction, facts }, vectors: next };
}

/** Whom a fact's words are about (`factIsAbout`): its subject, or its speaker when the subject is an entity. */
function factSubject(f: Pick<ExtractedFact, 'speakerId' | 'subjectId'>): string {
  return f.subjectId.startsWith('entity:') ? f.speakerId : f.subjectId;
}

/** `f`'s text naming its subject by `name` (held now) where it says `was` (the name the extractor was given) or "an unnamed speaker"; null when unchanged. */
async function currentNameIn(graph: GraphStore, tenant: TenantId, f: ExtractedFact, was: string | null, name: string | null): Promise<string | null> {
  if (!name) return null;
  if (!was || was === name) return nameUnnamed(f.content, name);
  // Another participant of the fact who answers to the old name may be the one it means.
  const others = new Set([f.speakerId, f.subjectId, ...f.addresseeIds].filter((id) => id !== factSubject(f)));
  if ((await graph.findParticipantsByName(tenant, was)).some((p) => others.has(p.id))) return null;
  return renameInText(f.content, was, name);
}

/**
 * When the extraction kept for `u` names a speaker it no longer has (a first run cut short, then `u` was moved): withdraw
 * what that run stored, under its subjects' locks, then drop the extraction (`forgetUtterances`; `u` is not processed),
 * so it is extracted afresh. A cut before the drop finds the extraction again and withdraws again (idempotent).
 */
async function withdrawStaleExtraction(
  deps: ConsolidationDeps, indexer: MemoryIndexer, locks: KeyedLock, tenant: TenantId, u: Utterance, signal: AbortSignal,
): Promise<MemoryOp[]> {
  const stale = await staleExtractionFacts(deps, tenant, u);
  if (stale === null) return [];
  const keys = (await withdrawnSubjects(deps.memory, tenant, stale)).map((id) => subjectLockKey(tenant, id));
  const withdraw = async (live: AbortSignal): Promise<MemoryOp[]> => {
    const ops = await withdrawMoved(deps, indexer, tenant, u, stale, live);
    await deps.memory.forgetUtterances(tenant, [u.id]);
    return ops;
  };
  return keys.length === 0 ? withdraw(signal) : locks.withLock(keys, (lost) => withdraw(AbortSignal.any([signal, lost])), signal);
}

/**
 * The lock keys of consolidating one extraction: one per subject its facts and profile updates are
 * about, and when a fact settles a plan, the session's (the plan may be someone else's in the
 * session) and the addressees' (it may be a plan they share with the speaker, said in another session); so too for a
 * change of a value, which may replace an addressee's fact.
 */
export function consolidationLockKeys(tenant: TenantId, sessionId: string, extraction: ExtractionResult): string[] {
  const keys = new Set<string>();
  for (const f of extraction.facts) {
    keys.add(subjectLockKey(tenant, f.subjectId));
    // A fact about an entity is its speaker's words (`factIsAbout`): a rename of the speaker rewrites it under their lock.
    keys.add(subjectLockKey(tenant, factSubject(f)));
    // A change of a value told to someone may replace their fact ("I changed your order to size 56"; value-change.ts).
    if (!f.settles && changedValue(f.content) === null) continue;
    keys.add(`consolidate:${tenant}:session:${sessionId}`);
    for (const a of f.addresseeIds) keys.add(subjectLockKey(tenant, a));
  }
  for (const p of extraction.profileUpdates) keys.add(subjectLockKey(tenant, p.participantId));
  return [...keys];
}


/** Thrown by a job's `commit` when its turn changed since the job read it (`unchangedSince`): nothing more is written. */
class TurnChanged extends Error {}

/**
 * How a consolidation job writes what it read of `u`: each write under the speaker's lock (`speakerLockKey`), once the
 * turn is found unchanged there (else `TurnChanged`). Held for the write alone: the decisions before it (an LLM call)
 * run outside it, so an erasure of the speaker, which takes it, never waits for one.
 */
function turnCommit(
  locks: KeyedLock, graph: GraphStore, tenant: TenantId, u: Utterance, signal: AbortSignal,
): <T>(write: () => Promise<T>) => Promise<T> {
  return (write) => locks.withLock([speakerLockKey(tenant, u.speakerId)], async (held) => {
    if (!(await unchangedSince(graph, tenant, u))) throw new TurnChanged('turn changed since it was read');
    // The try overran while this waited or read (its locks given up: `KeyedLock.withLock`'s holder): nothing is written.
    held.throwIfAborted();
    return write();
  }, signal);
}

/**
 * False when the utterance was erased, given to another speaker, or its text or addressees rewritten (an erasure's
 * redaction) while the job waited on the embedder or for its lock: nothing of `u` as read may be written back. (With
 * the embedded stores the job's writes after this check run without a pause.)
 */
async function unchangedSince(graph: GraphStore, tenant: TenantId, u: Utterance): Promise<boolean> {
  const current = await graph.getUtterance(tenant, u.id);
  return current !== null && current.speakerId === u.speakerId && current.text === u.text
    && JSON.stringify([...current.addresseeIds].sort()) === JSON.stringify([...u.addresseeIds].sort());
}
