import type { TenantId } from './types.js';

/** What a fact says about its subject. `profile` facts are background attributes (job, home…). */
export type FactKind =
  | 'statement'
  | 'preference'
  | 'plan'
  | 'commitment'
  | 'request'
  | 'relation'
  | 'profile';

/** Memory layer a fact is served under: `profile` for background attributes, else `fact`. */
export type FactLayer = 'fact' | 'profile';

/**
 * A self-contained statement distilled from one or more utterances (VoxPolyMem fact memory).
 * A fact is current while `validTo` is null; UPDATE and DELETE close it and keep it as history.
 */
export interface Fact {
  id: string;
  /** Self-contained text, names resolved ("Ana will send Ben the draft on Friday 2026-12-04"). */
  content: string;
  speakerId: string;
  addresseeIds: string[];
  /** Participant id or entity key (lower-case text, e.g. `entity:acme`) the fact is about. */
  subjectId: string;
  kind: FactKind;
  layer: FactLayer;
  /**
   * What the fact fills for its subject (e.g. `lives_in`, `preference:sushi`), so a newer value
   * of the same slot supersedes an older one; null when the fact fills no exclusive slot.
   */
  slot: string | null;
  /** The slot's value in plain words (e.g. `Porto`), null when there is no slot. */
  value: string | null;
  /** ISO-8601 time of the source utterance. */
  time: string;
  /**
   * When the event the fact is about happens or happened ("flying to Lisbon next Friday" ->
   * `2026-12-04`): ISO date, `YYYY-MM` when only the month is known; null when undated.
   */
  eventTime: string | null;
  /** Utterance ids the fact came from. */
  referIds: string[];
  /** ISO-8601. */
  validFrom: string;
  /** ISO-8601 when closed by UPDATE / DELETE; null while current. */
  validTo: string | null;
  /**
   * ISO-8601 end a temporary state carries by its own words ("I can't lift heavy things for a month"
   * -> `validFrom` + 1 month; exclusive); null when open-ended. Past it the fact no longer holds and
   * retrieval serves it as past, though it stays open (`validTo` null) until something replaces it. It does not close
   * the lasting value of its slot it interrupts ("in Lisbon for a month" after "I live in Berkeley"), which holds again after it.
   */
  validUntil: string | null;
  /**
   * What a plan, commitment, request or proposal is about (or what an outcome says was done): its
   * verb and the head nouns of its object, lemmatised ("Tom will build the raised beds" -> build /
   * bed). Consolidation closes a plan only by an outcome naming its object. Null when not read: facts
   * stored before it existed, or an extractor that does not fill it (the older shared-word rule applies).
   */
  planObject: PlanObject | null;
  /** Id of the fact this one replaced, if any. */
  supersedes: string | null;
  /** Id of the fact that replaced this one, if any. */
  supersededBy: string | null;
  /** In [0, 1]. */
  confidence: number;
  sessionId: string;
  /** Which extractor and prompt version produced it, e.g. `embedded-rules/1`, `llm/facts-v1`. */
  source: string;
  /** ISO-8601 time the record was written. */
  createdAt: string;
}

/** What a plan or an outcome is about: lemmas, lower-case (see `Fact.planObject`). */
export interface PlanObject {
  /** The action's verb ("build", "spend"); null when the text names none ("a rain barrel system would be cheaper"). */
  verb: string | null;
  /** Head nouns of the action's object ("the raised beds" -> bed; "milk and eggs" -> milk, egg). */
  objects: string[];
  /** Head nouns after a preposition of the action ("to the airport" -> airport); dates and times left out. */
  complements: string[];
  /** Outcomes: true when the outcome names which action was done ("finished writing the book"). */
  actionNamed?: boolean;
  /** Outcomes: heads (or the verb) after "instead of" / "rather than": what the alternative replaces. */
  replaces?: string[];
  /**
   * Nouns before a head that names an action by a noun derived from a verb ("passport" in "my passport
   * renewal"): what that action is about. Absent when there are none.
   */
  modifiers?: string[];
  /**
   * A statement of an event on a day, not a plan ("my dentist appointment is on Tuesday"): settled only by a reschedule
   * or a cancellation of it, never by an outcome told as done.
   */
  event?: boolean;
  /** The action is told as done: a past tense or a passive participle, not negated, asked or hedged ("Lena picked up the cake"). */
  past?: boolean;
  /**
   * Plans said with "we" or "let's": the speaker's and the addressees' together, so an outcome or a
   * cancellation by any of them settles it, in any session.
   */
  shared?: boolean;
  /**
   * Who the text tells about when it is theirs alone, not the speaker's: a plan ("my sister is going to
   * move" -> `sister`), a choice ("our neighbours decided on a dog" -> `neighbor`), an act on a thing of
   * their own ("my dad fixed his gate" -> `dad`); lower-case, singular. Such a plan or outcome settles, and
   * is settled by, only what is told about the same person. Absent: the speaker's own, or an act that may
   * be for the speaker ("our landlord fixed the heating").
   */
  reportedBy?: string;
  /**
   * Outcomes told about someone else that may be for the speaker ("our landlord fixed the heating", "my
   * parents painted the fence"): who did it, lower-case, singular. Such an outcome settles a plan told
   * about the same person (`reportedBy`) or one of the speaker's own.
   */
  doneBy?: string;
  /**
   * The people the action is for or whose the thing is: owners ("my sister's drill" -> sister),
   * receivers ("to my sister", "write my grandmother a letter") and objects that are people ("pick
   * up my brother"), lower-case, singular. A plan and an outcome that both name people settle each
   * other only when they share one. Absent: none named.
   */
  people?: string[];
  /** The verb with its particle ("gave the drill back" -> `give_back`), for WordNet's phrasal verbs. Absent: none. */
  phrasal?: string;
  /**
   * Which of its kind the object is, as a noun compound or an "in / on / of" phrase after it says ("the kitchen tap",
   * "the tap in the kitchen" -> kitchen), lower-case lemmas. Two that both say and share none name different things.
   * Absent: not said.
   */
  which?: string[];
}

/** A fact to store; the store assigns `id` (unless given), `layer`, `createdAt`. */
export interface NewFact
  extends Omit<Fact, 'id' | 'layer' | 'createdAt' | 'validTo' | 'supersededBy' | 'eventTime' | 'validUntil' | 'planObject'> {
  id?: string;
  /** Default null (undated). */
  eventTime?: string | null;
  /** Default null (no end of its own). */
  validUntil?: string | null;
  /** Default null (not read). */
  planObject?: PlanObject | null;
}

/** True when `f` has ended by its own words (`validUntil`) at `nowIso`. */
export function factEnded(f: Pick<Fact, 'validUntil'>, nowIso: string): boolean {
  return f.validUntil !== null && f.validUntil !== undefined && Date.parse(f.validUntil) <= Date.parse(nowIso);
}

/**
 * True when `f` was withdrawn (the utterance it came from was given to another speaker): closed where it began and
 * replaced by nothing. A fact closed by a later one, or deleted by a later utterance, never is (a deletion timed exactly
 * at the fact's start would read as a withdrawal). Inferred rather than stored: a stored flag would need a backfill
 * that could only apply this same rule to the facts already stored (docs/BENCHMARKS.md, revfacts3).
 */
export function factWithdrawn(f: Pick<Fact, 'validFrom' | 'validTo' | 'supersededBy'>): boolean {
  return f.validTo !== null && f.validTo === f.validFrom && f.supersededBy === null;
}

/** What a withdrawn fact is restored with (`MemoryStore.restoreWithdrawn`). */
export interface RestoreHow {
  /** The fresh extraction's fields, set on the restored fact. */
  fresh?: Pick<Fact, 'content' | 'confidence' | 'validUntil' | 'eventTime' | 'planObject' | 'source'>;
  /** A newer fact that replaces it: restored closed at `at`, superseded by `id`. */
  closedBy?: { id: string; at: string };
}

/** Whom an utterance was consolidated under, and what that consolidation deleted (`MemoryStore.markProcessed`). */
export interface ProcessedBy {
  speakerId: string;
  /** Facts its DELETE decisions closed (a retraction, "I don't live in Oslo any more"): a revision reopens them. */
  deletedIds: string[];
}

/** Filters for listing facts; all optional, combined with AND. */
export interface FactFilter {
  /** Facts where this participant is the speaker, the subject or an addressee (see `role`). */
  participantId?: string;
  /** Which relation to `participantId` counts; default `any`. */
  role?: 'speaker' | 'subject' | 'addressee' | 'any';
  sessionId?: string;
  layer?: FactLayer;
  kind?: FactKind;
  slot?: string;
  /**
   * Facts whose slot is of this kind: the slot itself or one keyed under it (`order_number` matches `order_number` and
   * `order_number:45721`, never `order_numbers`). Answered through the stores' slot index, however many facts precede.
   */
  slotFamily?: string;
  subjectId?: string;
  ids?: string[];
  /** Also return closed facts (history); default false. */
  includeHistory?: boolean;
  /** Only facts whose own end (`validUntil`) is at or before this ISO-8601 time: temporary states ended by then. */
  endedBy?: string;
  /** With `endedBy`: only those whose own end is after this ISO-8601 time (the states that ended in between). */
  endedAfter?: string;
  /** Default 100, at most 1000. Newest first. */
  limit?: number;
  /** Skip this many matches first (paging); default 0. */
  offset?: number;
}

/** Fields a PATCH may change on a fact. */
export interface FactPatch {
  content?: string;
  confidence?: number;
  kind?: FactKind;
  slot?: string | null;
  value?: string | null;
  /**
   * The utterances the fact came from, in place of those it has (non-empty): a fact of several utterances keeps its
   * id and loses one of them whose speaker was revised (`pipelines/memory/revised-speaker.ts`).
   */
  referIds?: string[];
}

/**
 * A background or preference attribute update for a participant's profile, as data: the caller
 * applies it with `GraphStore.updateParticipant` (name and aliases live on the graph store).
 */
export interface ProfileUpdate {
  participantId: string;
  /** `name` sets the display name; anything else is an attribute key (e.g. `works_at`). */
  attribute: string;
  value: string;
  /** Utterance ids the update came from. */
  referIds: string[];
  confidence: number;
}

/** Right-brain persona node kinds. */
export type PersonaKind = 'trait' | 'preference' | 'affect';

/** A persona node: a trait, preference or affect of a participant towards a target. */
export interface PersonaNode {
  id: string;
  participantId: string;
  kind: PersonaKind;
  /** Entity or noun-phrase text, lower-case; `self` for traits without a target. */
  target: string;
  /** Mean valence of the evidence in [-1, 1] (negative: dislike / negative emotion). */
  valence: number;
  /** Dominant emotion label for `affect` nodes (e.g. `joy`), else null. */
  label: string | null;
  /** Mean strength of the evidence in [0, 1]. */
  strength: number;
  evidenceCount: number;
  /** Utterance ids, oldest first (capped by the store at 50). */
  evidenceIds: string[];
  /** Distinct sessions the evidence came from. */
  sessionIds: string[];
  /** ISO-8601. */
  firstSeen: string;
  lastSeen: string;
  /** True once long-horizon consolidation judged the evidence repeated enough. */
  stable: boolean;
}

/** One observation feeding a persona node (short-horizon attribution of one turn). */
export interface PersonaEvidence {
  participantId: string;
  kind: PersonaKind;
  target: string;
  valence: number;
  label: string | null;
  strength: number;
  utteranceId: string;
  sessionId: string;
  /** ISO-8601. */
  time: string;
}

/** What `forgetPersonaEvidence` changed: the nodes it deleted and those that keep other evidence. */
export interface ForgottenPersona {
  deletedIds: string[];
  keptIds: string[];
}

/** What `deleteParticipant` removed, so the caller can also remove vectors and index entries. */
export interface ErasedMemory {
  factIds: string[];
  personaIds: string[];
  /**
   * Given `recorded`: what it found of the participant and left in place, its id not among those (stored since the
   * caller's last listing). Empty without `recorded`.
   */
  left?: { factIds: string[]; personaIds: string[] };
}

/**
 * Fact memory, profile facts, persona nodes and the consolidation bookkeeping.
 * Implementations: SQLite (embedded default), Neo4j (networked). Every call is tenant-scoped.
 */
export interface MemoryStore {
  /**
   * Store facts atomically; returns them as stored. A fact whose given `id` the tenant already holds
   * is not written again (insert-or-ignore: the stored one is returned unchanged), so a consolidation
   * job re-run with deterministic ids adds nothing twice.
   */
  addFacts(tenant: TenantId, facts: NewFact[]): Promise<Fact[]>;
  getFact(tenant: TenantId, id: string): Promise<Fact | null>;
  /** Current facts (and with `includeHistory` closed ones), newest first. */
  listFacts(tenant: TenantId, filter?: FactFilter): Promise<Fact[]>;
  /**
   * Close a current fact's validity at `validTo` (UPDATE / DELETE keep it as history), linking the
   * replacement if any. Returns the closed fact, or null if absent or already closed. A fact replaced before it began
   * (`validTo` earlier than its `validFrom`, a replacement given `supersededBy`) is closed where it began instead: never
   * before it. A deletion (no replacement) before its start keeps `validTo`: a plan cancelled before it held.
   */
  closeFact(
    tenant: TenantId,
    id: string,
    validTo: string,
    supersededBy: string | null,
  ): Promise<Fact | null>;
  /**
   * Make a fact `replacedBy` closed current again (`validTo` and `supersededBy` null): its replacement was withdrawn
   * (the utterance it came from now belongs to another speaker). Returns the reopened fact; null, changing nothing, when
   * the fact is absent, current, or closed by anything but `replacedBy` (so a second call is harmless).
   */
  reopenFact(tenant: TenantId, id: string, replacedBy: string): Promise<Fact | null>;
  /**
   * Make a withdrawn fact (`factWithdrawn`) current again, replacing `supersedes` (what it replaces now, or null): its
   * utterance was given back to the speaker it was withdrawn from, and the fact, extracted again under its old id, was
   * decided ADD or UPDATE afresh. `how.fresh`: what that extraction says now (its text, confidence, own end, event time,
   * plan, source), set on the fact; `how.closedBy`: a fact that began after it (`at`, its `validFrom`) and replaces it,
   * so the fact comes back as history closed there instead (an older statement never replaces a newer one).
   * Returns the fact; null, changing nothing, when absent or not withdrawn.
   */
  restoreWithdrawn(tenant: TenantId, id: string, supersedes: string | null, how?: RestoreHow): Promise<Fact | null>;
  /**
   * Make a fact deleted at `closedAt` (closed then, replaced by nothing) current again: the utterance that deleted it
   * was given to another speaker. Returns the fact; null, changing nothing, when absent, current, or closed otherwise.
   */
  reopenDeleted(tenant: TenantId, id: string, closedAt: string): Promise<Fact | null>;
  patchFact(tenant: TenantId, id: string, patch: FactPatch): Promise<Fact | null>;
  /**
   * Every fact, history included, whose `referIds` hold one of `utteranceIds` (the memories derived from utterances a
   * user asked to forget), in no particular order.
   */
  factsFromUtterances(tenant: TenantId, utteranceIds: string[]): Promise<Fact[]>;
  /** Erase a fact for good (user DELETE). Returns false if absent. */
  deleteFact(tenant: TenantId, id: string): Promise<boolean>;
  /**
   * Relabel every reference to `fromId` (speaker, subject, addressee, persona) as `intoId`. A backend may do it in
   * several transactions (Neo4j: batches, so a long history never outlasts `NEO4J_QUERY_TIMEOUT_MS`); calling it again
   * after one cut short finishes it (a merge sent again after the graph retired `fromId` into `intoId` does:
   * `finishMergeTail`). `onBatch` runs after each transaction (the merge renews its lease there: `MergeLease`).
   */
  relabelParticipant(tenant: TenantId, fromId: string, intoId: string, onBatch?: () => Promise<void>): Promise<void>;
  /**
   * Erase the participant's facts (history included): those they said or that are about them, and those whose text
   * names them by one of `names` (their name and aliases, as whole words; see `erasesFact` in `erased-facts.ts`); and
   * their persona nodes and any other person's whose target names them (`erasesPersona`); and kept extractions that
   * quote them. Another person's fact on which they were only an
   * addressee stays, with them removed from its addressees. With `recorded` (ids an erasure has recorded), only those
   * of the facts and persona nodes to erase go: any other is left and reported (`left`), so a fact stored after the
   * caller's last listing is never deleted before the caller has recorded its id.
   */
  deleteParticipant(tenant: TenantId, participantId: string, recorded?: { factIds: string[]; personaIds: string[] }, names?: readonly string[]): Promise<ErasedMemory>;
  /**
   * Ids of the facts (history included) erasing the participant takes, as `deleteParticipant` would find them: theirs (as
   * speaker or subject) and any whose text names them by one of `names`, another person's included, oldest first.
   */
  erasedFactIds(tenant: TenantId, participantId: string, names: readonly string[]): Promise<string[]>;
  /**
   * Ids of the persona nodes erasing the participant takes, as `deleteParticipant` would find them (`erasesPersona`):
   * theirs, and any other person's whose target names them by one of `names` ("daughter maya").
   */
  erasedPersonaIds(tenant: TenantId, participantId: string, names: readonly string[]): Promise<string[]>;

  /**
   * Record that consolidation of `utteranceId` finished, with the fact ids it produced and, when given, `by`: whom it was
   * consolidated under and what it deleted (omitted: what was recorded before, if anything, stays); drops the
   * extraction kept for it (`keepExtraction`).
   */
  markProcessed(tenant: TenantId, utteranceId: string, factIds: string[], by?: ProcessedBy): Promise<void>;
  /**
   * What `markProcessed` recorded as `by` for `utteranceId`, or null: never processed, or processed before it was kept.
   * A speaker revision since is seen by its speaker differing from the utterance's.
   */
  processedBy(tenant: TenantId, utteranceId: string): Promise<ProcessedBy | null>;
  /**
   * Keep what consolidation extracted from an utterance (opaque JSON) before it writes any of it,
   * so a run again after a crash replays the same facts, and so the same fact ids, where an LLM
   * asked again may word them differently. The first extraction kept for the utterance stays;
   * returns it (a second delivery of the job running meanwhile replays the first one's).
   * `markProcessed` and `forgetUtterances` drop it, `deleteParticipant` drops every one that
   * names the participant, and `dropKeptExtractions` every one older than the jobs' bound.
   */
  keepExtraction(tenant: TenantId, utteranceId: string, extraction: string): Promise<string>;
  /** The extraction kept for an utterance whose consolidation has not finished, or null. */
  keptExtraction(tenant: TenantId, utteranceId: string): Promise<string | null>;
  /**
   * Drop every extraction (of any tenant) kept before `keptBefore` (ISO time): one whose job crashed
   * and never ran again, or was failed for good and never replayed, is not kept for ever. Returns how
   * many were dropped.
   */
  dropKeptExtractions(keptBefore: string): Promise<number>;
  /** The fact ids recorded for an utterance, or null if it was never processed. */
  processedFacts(tenant: TenantId, utteranceId: string): Promise<string[] | null>;
  /**
   * `processedFacts` of many utterances in one call: the fact ids recorded for each processed one;
   * utterances never processed are absent from the map.
   */
  processedFactsOf(tenant: TenantId, utteranceIds: string[]): Promise<Map<string, string[]>>;
  /** Drop the consolidation bookkeeping (processed records, kept extractions) of these utterances (their speaker was erased). */
  forgetUtterances(tenant: TenantId, utteranceIds: string[]): Promise<void>;

  /** Merge one observation into the (participant, kind, target) node, creating it if needed. */
  addPersonaEvidence(tenant: TenantId, evidence: PersonaEvidence): Promise<PersonaNode>;
  listPersona(
    tenant: TenantId,
    participantId: string,
    options?: { stableOnly?: boolean },
  ): Promise<PersonaNode[]>;
  setPersonaStable(tenant: TenantId, id: string, stable: boolean): Promise<void>;
  /**
   * Forget the evidence of utterances (and of whole sessions) that were forgotten (`DELETE /v1/utterances/{id}`, `DELETE
   * /v1/sessions/{id}`): a persona node whose evidence was only those goes; any other loses the ids from `evidenceIds`
   * and `sessionIds` and counts that much less evidence (`withoutForgotten`). Repeats safely (a repeat finds nothing).
   */
  forgetPersonaEvidence(tenant: TenantId, utteranceIds: string[], sessionIds: string[]): Promise<ForgottenPersona>;

  /**
   * Whether the data migration `name` of `tenant` (work the pipelines do once on data an older build wrote, e.g.
   * `recordStateSteps`) is recorded as done on this store (`recordMigration`). The store's own schema migrations
   * are the store's business and not listed here.
   */
  migrationDone(tenant: TenantId, name: string): Promise<boolean>;
  /** Record that the data migration `name` of `tenant` ran on this store; idempotent. */
  recordMigration(tenant: TenantId, name: string): Promise<void>;

  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** The layer a fact of `kind` is served under. */
export function layerOfKind(kind: FactKind): FactLayer {
  return kind === 'profile' ? 'profile' : 'fact';
}

/**
 * The ids `deleteParticipant` found, split into those it deletes and those it leaves (`left`): with `recorded`, only
 * ids it holds are deleted; without, all are.
 */
export function splitRecorded(factIds: string[], personaIds: string[], recorded?: { factIds: string[]; personaIds: string[] }): ErasedMemory {
  if (!recorded) return { factIds, personaIds, left: { factIds: [], personaIds: [] } };
  const facts = new Set(recorded.factIds);
  const persona = new Set(recorded.personaIds);
  return {
    factIds: factIds.filter((id) => facts.has(id)), personaIds: personaIds.filter((id) => persona.has(id)),
    left: { factIds: factIds.filter((id) => !facts.has(id)), personaIds: personaIds.filter((id) => !persona.has(id)) },
  };
}
