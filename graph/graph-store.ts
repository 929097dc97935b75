import type { RetiredParticipant } from './retired-ids.js';
import type { ErasureLease, PendingErasure } from './pending-erasures.js';
import type { PendingMerge } from './pending-merges.js';
import type { Participant, SessionRecord, StreamClock, TenantId, Utterance } from './types.js';

/** A new utterance to store; the store assigns `id` (unless given) and `seq`. */
export interface NewUtterance extends Omit<Utterance, 'id' | 'seq'> {
  id?: string;
}

/** How `GraphStore.addUtterances` stores. */
export interface AddUtterancesOptions {
  /** Store only while this live session holds the sessions' audio streams (`GraphStore.takeAudioStream`). */
  streamOwner?: string;
}

/** Filters for "who said what to whom". All optional; combined with AND. */
export interface InteractionFilter {
  speakerId?: string;
  addresseeId?: string;
  sessionId?: string;
  /** Only utterances at or after / before this ISO-8601 time. */
  since?: string;
  until?: string;
  /** Default 100, at most 1000. */
  limit?: number;
  /** Skip this many matches first (paging; newest first, ties by id); default 0. */
  offset?: number;
}

/** Fields a PATCH may change on a participant. */
export interface ParticipantPatch {
  name?: string | null;
  /** The application's own id; null clears it. Unique per tenant: a taken one is `PARLEY_ERR_CONFLICT`. */
  externalId?: string | null;
  aliases?: string[];
  attributes?: Record<string, unknown>;
}

/** A participant's names and attributes as `GraphStore.updateParticipantNames` reads and writes them. */
export interface ParticipantNames {
  name: string | null;
  aliases: string[];
  attributes: Record<string, unknown>;
}

/** One page of the participant list: those after `after` in (createdAt, id) order, at most `limit` (default: all). */
export interface ParticipantPage {
  after?: { createdAt: string; id: string };
  limit?: number;
}

/** A place in a transcript's order: the utterance said at `time` (ISO-8601) and numbered `seq`. */
export interface TranscriptPosition {
  time: string;
  seq: number;
}

/**
 * One page of a transcript: the utterances after `after` in the transcript's order (`time`, then `seq`; default: from
 * the start), at most `limit` (default: all).
 */
export interface TranscriptPage {
  after?: TranscriptPosition;
  limit?: number;
}

/**
 * The attribute in which a rename records the memory rewrite it still owes (see `pipelines/interaction/pending-rename.ts`):
 * the stores index the participants holding it (`participantsOwingRename`).
 */
export const PENDING_RENAME_KEY = '$pending_rename';

/**
 * The interaction graph: participants, utterances, and the `SPEAKS` / `ADDRESSES` edges between them.
 * Implementations: SQLite (embedded default), Neo4j (networked).
 */
export interface GraphStore {
  /** Create the session if it does not exist; returns the stored record either way. */
  openSession(tenant: TenantId, sessionId: string, startedAt: string): Promise<SessionRecord>;
  getSession(tenant: TenantId, sessionId: string): Promise<SessionRecord | null>;
  updateSession(
    tenant: TenantId,
    sessionId: string,
    patch: Partial<Pick<SessionRecord, 'endedAt' | 'metadata' | 'lastEventSeq' | 'audioStreamMs' | 'activeAt'>>,
  ): Promise<void>;
  /**
   * Give the session's audio stream to `owner` (a live session that takes the session over on this or another
   * server), atomically: from then on a turn of any earlier holder is refused (`addUtterances` with its
   * `streamOwner`), and it records no stream start (`startAudioStream`). Call before reading what the store
   * holds of the previous stream (`unstoredStreamFromMs`): a turn stored before this call is read, one after
   * it is refused, so none is both named for a resend and stored.
   */
  takeAudioStream(tenant: TenantId, sessionId: string, owner: string): Promise<void>;
  /**
   * Record where `owner`'s audio stream begins on the session's transcript clock (`audioStreamMs`), and its
   * conversation clock (`SessionRecord.streamClock`; null: none), if `owner` still holds the session's stream (or
   * nobody does); false, nothing written, when another took it over.
   */
  startAudioStream(tenant: TenantId, sessionId: string, owner: string, audioStreamMs: number, clock?: StreamClock | null): Promise<boolean>;
  /**
   * Give back event numbers reserved but not sent: `lastEventSeq` becomes `last` if it still is
   * `reserved` (the holder's own reservation); a number anyone reserved since is never taken back.
   * The only write that lowers `lastEventSeq` (`updateSession` never does).
   */
  releaseEventSeq(tenant: TenantId, sessionId: string, reserved: number, last: number): Promise<void>;
  /**
   * End the session at `endedAt` unless it has ended already, atomically (two ends at once make one
   * end). Returns the end that holds and whether this call made it; null when there is no such session.
   */
  endSession(tenant: TenantId, sessionId: string, endedAt: string): Promise<{ endedAt: string; ended: boolean } | null>;
  /**
   * Sessions of every tenant not ended whose stream client was last seen (`activeAt`) before `activeBefore`,
   * longest idle first, at most `limit`; never one without `activeAt` (never streamed).
   */
  idleSessions(activeBefore: string, limit: number): Promise<Array<{ tenant: TenantId; id: string }>>;

  /**
   * Create a participant with a fresh id, or with `id` if given and unused.
   * @throws ParleyError `PARLEY_ERR_CONFLICT` when `externalId` is already held by another participant.
   */
  createParticipant(tenant: TenantId, init: ParticipantPatch & { id?: string }): Promise<Participant>;
  /**
   * A new participant named `name`, unless participants already hold `name` as name or alias
   * (case-insensitive): then those, oldest first, and nothing is created. Atomic against every other
   * call for the same name, in this process or any other on the same store: of concurrent first posts
   * by one new name, one creates the participant and the others get it (never one participant each).
   */
  createNamedParticipant(tenant: TenantId, name: string): Promise<{ participants: Participant[]; created: boolean }>;
  getParticipant(tenant: TenantId, id: string): Promise<Participant | null>;
  /** The participants of these ids that exist, in no particular order (one round trip for many). */
  getParticipants(tenant: TenantId, ids: string[]): Promise<Participant[]>;
  /** The participant holding this external id (exact match), if any. */
  getParticipantByExternalId(tenant: TenantId, externalId: string): Promise<Participant | null>;
  /** Case-insensitive match on name or any alias, oldest first. */
  findParticipantsByName(tenant: TenantId, name: string): Promise<Participant[]>;
  /**
   * Participants whose name or an alias (of two characters or more) occurs in `text` as whole words
   * (not inside a longer word: "Ben" in "Ben's" but not in "Benefits"), ignoring case, oldest first.
   * Answered from the index of name words (`findParticipantsByWords` on the words of `text`), so the
   * cost follows the participants the text names, not the size of the tenant.
   */
  findParticipantsInText(tenant: TenantId, text: string): Promise<Participant[]>;
  /**
   * Participants whose name or an alias holds one of `words` as a whole word, oldest first (the order
   * of `listParticipants`). Words are compared as `nameWords` splits and folds them: case-insensitive,
   * multi-word names word by word, "Ana's" as "ana". Answered from an index of name words, so the cost
   * follows the matches, not the size of the tenant.
   */
  findParticipantsByWords(tenant: TenantId, words: readonly string[]): Promise<Participant[]>;
  /**
   * The `limit` most recently updated participants that hold a name or an alias, newest first (ties
   * oldest created first), after skipping `offset` of them: the names a recogniser should expect,
   * read through an index however many participants the tenant has.
   */
  recentNamedParticipants(tenant: TenantId, limit: number, offset?: number): Promise<Participant[]>;
  /**
   * The tenant's participants, oldest first (by `createdAt`, then id); with `page`, at most `page.limit`
   * of them after the participant created at `page.after.createdAt` with id `page.after.id` (keyset
   * paging: a page is read through an index, and stays right while participants come and go).
   */
  listParticipants(tenant: TenantId, page?: ParticipantPage): Promise<Participant[]>;
  /**
   * The tenant's participants whose attributes hold a rename's memory rewrite still owed (`PENDING_RENAME_KEY`), oldest
   * first and keyset-paged as {@link listParticipants}: read through an index of those alone (SQLite a partial index,
   * Neo4j a `pendingRename` flag each attribute write keeps), however many participants the tenant has.
   */
  participantsOwingRename(tenant: TenantId, page?: ParticipantPage): Promise<Participant[]>;
  /** @throws ParleyError `PARLEY_ERR_CONFLICT` when `patch.externalId` is held by another participant. */
  updateParticipant(tenant: TenantId, id: string, patch: ParticipantPatch): Promise<Participant | null>;
  /**
   * Set one attribute `key` to what `update` makes of its stored value (`undefined` in and out: the key absent),
   * read and written in one transaction, so a change to other keys made meanwhile (a PATCH, profile updates) is never
   * reverted. `update` must be pure (a retried transaction calls it again). Returns the participant as stored after,
   * null when there is none.
   */
  updateParticipantAttribute(tenant: TenantId, id: string, key: string, update: (current: unknown) => unknown): Promise<Participant | null>;
  /**
   * Set the attributes to what `update` makes of those stored, read and written in one transaction: for a change whose
   * keys depend on each other (a derived value and its recorded steps, unless the client set the key), which
   * {@link updateParticipantAttribute} cannot make one key at a time. `update` must be pure (a retried transaction calls
   * it again) and may throw (nothing is written then); when it returns the very object it was given, nothing is written.
   * Returns the participant as stored after, null when there is none.
   */
  updateParticipantAttributes(tenant: TenantId, id: string, update: (attributes: Record<string, unknown>) => Record<string, unknown>): Promise<Participant | null>;
  /**
   * Set the name, aliases and attributes to what `update` makes of those stored, read and written in one transaction:
   * a name learned by a job is added to the names as they are at the write (a PATCH rename meanwhile stays), with the
   * bookkeeping that goes with it (the rewrite of memories it owes) in the same write. Same terms as
   * {@link updateParticipantAttributes}: `update` pure, may throw, the very object given back writes nothing.
   */
  updateParticipantNames(tenant: TenantId, id: string, update: (stored: ParticipantNames) => ParticipantNames): Promise<Participant | null>;
  /** Sets the voiceprint count shown on the profile (speaker identity owns the prints). */
  setVoiceprintCount(tenant: TenantId, id: string, count: number): Promise<void>;
  /**
   * Remove the participant, their utterances and every edge to them, and record the id as erased by its
   * SHA-256 only (`retiredParticipant`); ids merged into it earlier count as erased too. Returns the ids of
   * the erased utterances (so other stores can erase what derives from them), or null if the participant is absent.
   * When an erasure of the participant is pending (`beginErasure`), the ids deleted are added to it in the same
   * transaction as the participant's removal (its last, where the store erases in batches).
   */
  deleteParticipant(tenant: TenantId, id: string): Promise<string[] | null>;
  /**
   * Remove these utterances and every edge to them (speaker, addressees, session), as `DELETE /v1/utterances/{id}` and
   * `DELETE /v1/sessions/{id}` erase them; the session's `seq` counter stays (a later turn never takes an erased number).
   * Ids the tenant does not hold are ignored. Returns the ids removed. A backend may work in batches (Neo4j); each is
   * idempotent, so a run cut short is finished by the same call.
   */
  deleteUtterances(tenant: TenantId, ids: string[]): Promise<string[]>;
  /**
   * One page of the tenant's utterances whose text holds one of `fragments` (ASCII letters compared case-insensitively),
   * by id after `afterId`: the candidates an erasure redacts the erased person's details in (`redactMentions`).
   */
  utterancesContaining(tenant: TenantId, fragments: readonly string[], page: { afterId?: string; limit: number }): Promise<Utterance[]>;
  /** Replace the text of these utterances (an erasure's redaction); ids the tenant does not hold are ignored. */
  setUtteranceTexts(tenant: TenantId, texts: ReadonlyArray<{ id: string; text: string }>): Promise<void>;
  /**
   * Remove the session's record: its stream state (owner, clock, event numbering, activity, metadata). Its utterances
   * are removed first with {@link deleteUtterances}. False when there was none.
   */
  deleteSession(tenant: TenantId, sessionId: string): Promise<boolean>;
  /**
   * Record that the erasure of participant `id` has begun (`PendingErasure`), before its first destructive step: a
   * record already there keeps its start time, takes `plan` and adds `utteranceIds` to its own.
   */
  beginErasure(tenant: TenantId, id: string, plan: string, utteranceIds: string[]): Promise<void>;
  /**
   * Record a new erasure of participant `id` already claimed by `lease.owner` until `lease.until`, in one atomic step
   * (as `beginErasure` then `claimErasure`, with nothing between them: a crash never leaves it recorded and unclaimed,
   * and another server never claims it first). Only while the participant is in the graph and no erasure of them is
   * recorded: false, and nothing written, when one is (another server began it meanwhile) or they are gone (erased).
   */
  beginClaimedErasure(tenant: TenantId, id: string, plan: string, utteranceIds: string[], lease: ErasureLease): Promise<boolean>;
  /** The tenant's erasures begun and not ended (`endErasure`), oldest first: cut short by a crash, or running now. */
  pendingErasures(tenant: TenantId): Promise<PendingErasure[]>;
  /**
   * Take the lease on the pending erasure of `id` for `lease.owner` until `lease.until`, atomically: true when it had no
   * owner, was this owner's (renewed), or its lease had ended by `lease.now`; false when another owner holds it, or no
   * erasure of `id` is pending.
   */
  claimErasure(tenant: TenantId, id: string, lease: ErasureLease): Promise<boolean>;
  /** Forget the pending erasure of `id`: every pass is done (an id with none is ignored). */
  endErasure(tenant: TenantId, id: string): Promise<void>;
  /**
   * Relabel everything `fromId` touched as `intoId`, then remove `fromId`, recording it as merged into
   * `intoId` (`retiredParticipant`; ids merged into `fromId` before now lead to `intoId`). `intoId` keeps
   * its external id, or takes `fromId`'s when it has none. A backend may move the history in several transactions
   * (Neo4j: batches, so a long history never outlasts `NEO4J_QUERY_TIMEOUT_MS`): one cut short leaves `fromId` in place,
   * part of its turns already `intoId`'s, and merging again finishes it. The merge is recorded as pending
   * (`PendingMerge`, owing the re-indexing of `reindex`) in the transaction that claims the pair, before any turn moves
   * (nothing is recorded when the merge is refused or either is missing); it stays until {@link endMerge}.
   * @throws ParleyError `PARLEY_ERR_CONFLICT` when both hold different external ids (two known people).
   */
  mergeParticipants(tenant: TenantId, fromId: string, intoId: string, reindex?: string[]): Promise<void>;
  /** The tenant's merges begun and not ended (`endMerge`), oldest first: cut short by a crash, or running now. */
  pendingMerges(tenant: TenantId): Promise<PendingMerge[]>;
  /**
   * The pending merges (`pendingMerges`) from or into participant `id`, or into a participant merged into `id` since
   * (whose memory tail `id` is owed), oldest first; read by index, not the tenant's whole list.
   */
  pendingMergesOf(tenant: TenantId, id: string): Promise<PendingMerge[]>;
  /**
   * Forget the pending merge of `fromId` into `intoId` (its re-indexing is queued), and take back the hold it still has
   * on either participant where the backend holds them while it runs (Neo4j's `merging` marker: a merge that cannot
   * go on is rolled back so). A merge of `fromId` into someone else, or none, is left as it is.
   */
  endMerge(tenant: TenantId, fromId: string, intoId: string): Promise<void>;
  /**
   * Renew the lease of the pending merge of `fromId` into `intoId`: its `touchedAt` becomes `at` (a batch of its work, so
   * a pass finishing abandoned merges leaves one making progress alone); with `erasure`, also record that plan of
   * erasing what `fromId` still owns (`PendingMerge.erasure`; absent, the one recorded stays). False, changing nothing,
   * when no merge of that pair is pending.
   */
  renewMerge(tenant: TenantId, fromId: string, intoId: string, at: string, erasure?: string): Promise<boolean>;
  /**
   * Give ONE utterance to another speaker (the live session's first-turn revision): its speaker becomes
   * `speakerId`, which leaves its addressees (nobody addresses themself); nothing else of it changes.
   * Atomic, with the move recorded as pending until `clearPendingMoves` (its re-indexing queued): a crash between
   * the two is found at start by `pendingMoves`. Returns the utterance as now stored, or null when the tenant holds no
   * such utterance.
   * @throws ParleyError `PARLEY_ERR_NOT_FOUND` when `speakerId` names no participant (nothing changes).
   */
  setUtteranceSpeaker(tenant: TenantId, utteranceId: string, speakerId: string): Promise<Utterance | null>;
  /** Utterances `setUtteranceSpeaker` moved whose re-indexing was not yet confirmed queued (`clearPendingMoves`), oldest first. */
  pendingMoves(tenant: TenantId): Promise<string[]>;
  /** Forget these pending moves: their re-indexing is queued (unknown ids are ignored). */
  clearPendingMoves(tenant: TenantId, utteranceIds: string[]): Promise<void>;
  /**
   * What became of a participant id the store no longer holds: the survivor it was merged into, or that it
   * was erased (matched by SHA-256); null for an id never merged away or erased (or one that exists).
   */
  retiredParticipant(tenant: TenantId, id: string): Promise<RetiredParticipant | null>;

  /**
   * Store utterances atomically (all or none), durably: once the promise resolves they survive a
   * crash of the process. With `options.streamOwner` (a live session's audio turn), only while that owner
   * holds the stream of each utterance's session (`takeAudioStream`), checked in the same transaction.
   * @throws ParleyError `PARLEY_ERR_SESSION_BUSY` when another live session took the stream over (nothing stored).
   */
  addUtterances(tenant: TenantId, utterances: NewUtterance[], options?: AddUtterancesOptions): Promise<Utterance[]>;
  getUtterance(tenant: TenantId, id: string): Promise<Utterance | null>;
  getUtterances(tenant: TenantId, ids: string[]): Promise<Utterance[]>;
  /**
   * A session's utterances in the order they were said: by `time` (when each began), ties by `seq` (the order they
   * were stored). A turn stored late (an agent's text turn posted after the fact with its own `time`, a spoken turn
   * stored once its end is recognised) is listed where it was said. With `page`, at most `page.limit` of them after
   * `page.after` in that order (a transcript read in pages, however long the session).
   */
  getTranscript(tenant: TenantId, sessionId: string, page?: TranscriptPage): Promise<Utterance[]>;
  /**
   * The last `n` utterances of a session, oldest first; with `beforeSeq`, the last `n` before that
   * sequence number (the turns that preceded one utterance, however many came after it).
   */
  recentUtterances(tenant: TenantId, sessionId: string, n: number, beforeSeq?: number): Promise<Utterance[]>;
  /** Utterances matching the filter, newest first. */
  queryInteractions(tenant: TenantId, filter: InteractionFilter): Promise<Utterance[]>;

  /** True when the store can serve requests. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
