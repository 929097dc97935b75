import type { Logger } from 'pino';
import type { AddUtterancesOptions, GraphStore } from '../../graph/graph-store.js';
import type { JobQueue } from '../../graph/job-queue.js';
import type { LexicalIndex } from '../../graph/lexical-index.js';
import type { MemoryStore } from '../../graph/memory-store.js';
import { ParleyError } from '../../graph/core/errors.js';
import type { HeardBy, Participant, TenantId, Utterance } from '../../graph/types.js';
import { CONSOLIDATION_JOB, type ConsolidationJob } from '../memory/consolidate.js';
import { DEFAULT_MIN_ASR_CONFIDENCE, type MinAsrConfidence } from '../memory/doubtful-speech.js';
import { utteranceKeywordEntries } from '../memory/memory-indexer.js';
import { inferAddressees as inferSpeakerAddressees } from '../speaker/addressee-inference.js';
import { ParticipantResolver } from './participant-resolver.js';
import { SessionNaming, unknownVocatives } from './session-naming.js';
import { vocativeNameFor } from './vocative-name.js';
import { isResendOf, resendConflict } from './resend-check.js';
import { withSecretsRedacted } from '../../graph/spoken-secrets.js';

/** An utterance as a client or the audio pipeline hands it in. */
export interface UtteranceInput {
  /** Use this id for the stored utterance (e.g. to name its audio span first). */
  id?: string;
  /** A participant id, or a label / name to resolve (created when unknown). */
  speaker: string;
  text: string;
  /** Participant ids or names; inferred when absent. */
  addressees?: string[];
  startMs?: number | null;
  endMs?: number | null;
  /** ISO-8601 wall-clock time; default now on the ingest's clock ({@link InteractionIngestDeps.clock}). */
  time?: string;
  confidence?: number | null;
  audioRef?: string | null;
  /** The `/v1/stream` turn storing it (kept with it for resends). */
  turnId?: string;
  /** The recogniser that heard it and its stream's rate (the audio pipeline's turns). */
  heardBy?: HeardBy;
  /** Confidence of the speaker attribution in [0, 1]; 1 when the client named the speaker. */
  speakerConfidence?: number;
  /** The speaker was first heard in this utterance (set by voice re-identification). */
  speakerIsNew?: boolean;
  /**
   * `id` was derived from an `Idempotency-Key` header: taken by other content, the key was reused
   * (`PARLEY_ERR_IDEMPOTENCY_KEY_REUSED`) rather than the id (`PARLEY_ERR_UTTERANCE_ID_CONFLICT`).
   */
  idFromKey?: boolean;
}

/** A stored utterance with its resolved speaker and addressees, ready for `transcript.final`. */
export interface IngestedUtterance {
  utterance: Utterance;
  speaker: { id: string; name: string | null; confidence: number; isNew: boolean };
  addressees: { id: string; name: string | null }[];
  /** Already stored before this call (a resend): nothing was stored now. */
  resent?: boolean;
}

export interface InteractionIngestDeps {
  graph: GraphStore;
  lexical: LexicalIndex;
  queue: JobQueue;
  logger: Logger;
  /**
   * Where consolidation records what it processed: a resend of stored utterances queues again only
   * those with no record. Absent: every resent one is queued again (a no-op for a job the queue
   * still holds under its id, finished ones included, for a day).
   */
  memory?: Pick<MemoryStore, 'processedFactsOf'>;
  /**
   * Run store + index + enqueue as one commit where the stores share one database (the embedded
   * ones do), so a crash never leaves an utterance stored but not queued. Default: run as is.
   */
  atomically?: <T>(work: () => Promise<T>) => Promise<T>;
  /**
   * Most utterances per commit (default 20). A large batch is stored as several commits with the
   * event loop released between them (and between resolved utterances), so one request never
   * stalls live sessions; with `utterance_id`s or an `Idempotency-Key`, resending a batch that
   * failed part-way stores nothing twice. `Infinity`: one commit, no pauses (the previous behaviour).
   */
  commitChunk?: number;
  /**
   * Wall clock, ms since the epoch, that an utterance without a `time` of its own is dated by, and a session it opens
   * started at: the app's clock (`app.clock`, `BuildOptions.now`), so replays and tests say when untimed turns happened.
   * Default `Date.now`.
   */
  clock?: () => number;
  /**
   * `PARLEY_MEMORY_MIN_ASR_CONFIDENCE`: a turn heard below its cut (`doubtfulSpeech`) is stored but never indexed for
   * keyword search, as consolidation gives it no entry either. Default `DEFAULT_MIN_ASR_CONFIDENCE`.
   */
  minAsrConfidence?: MinAsrConfidence;
}

/** Let timers, sockets and other sessions run before going on. */
const releaseLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How many earlier utterances define who is present in a session. */
const PRESENCE_WINDOW = 50;

/**
 * The memory path's first step, shared by WebSocket, HTTP and the audio pipeline: resolve speaker
 * and addressees (binding names from self-introductions at once, and from repeated direct address
 * across sessions), store the utterances atomically in the interaction graph, index them for keyword
 * search, and queue them for consolidation into long-term memory.
 */
export class InteractionIngest {
  private readonly naming;
  private readonly idLocks = new KeyedLocks();

  constructor(private readonly deps: InteractionIngestDeps) {
    this.naming = new SessionNaming(deps.graph, deps.logger);
  }

  /**
   * Store `inputs` in order. An input whose `id` is already stored for the tenant is not stored
   * again: its stored utterance comes back in its place, marked `resent` (a resend after a lost
   * acknowledgement); its consolidation is queued again unless recorded as done, so a crash between
   * storing and queueing is repaired by the client's resend. Ids are unique per tenant: an id stored in another session or with another
   * speaker or text refuses the whole batch before anything of it is stored
   * (`PARLEY_ERR_UTTERANCE_ID_CONFLICT`, or `PARLEY_ERR_IDEMPOTENCY_KEY_REUSED` for `idFromKey`).
   * `options.streamOwner` (a live session's audio turn): stored only while that live session holds the
   * session's audio stream, else `PARLEY_ERR_SESSION_BUSY` and nothing stored (`GraphStore.addUtterances`).
   */
  async ingest(tenant: TenantId, sessionId: string, inputs: UtteranceInput[], options: AddUtterancesOptions = {}): Promise<IngestedUtterance[]> {
    const ids = inputs.flatMap((i) => (i.id ? [i.id] : []));
    if (new Set(ids).size !== ids.length) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'an utterance id appears twice in one batch');
    if (ids.length === 0) return this.ingestOnce(tenant, sessionId, inputs, options);
    // Requests carrying the same ids (a client resending before its first try was acknowledged)
    // take turns in this process; across processes the store's unique key catches the loser,
    // which then finds the winner's utterances and returns them instead of failing.
    return this.idLocks.run(ids.map((id) => `${tenant}\u0000${id}`), async () => {
      try {
        return await this.ingestOnce(tenant, sessionId, inputs, options);
      } catch (err) {
        if (!isDuplicateId(err)) throw err;
        return this.ingestOnce(tenant, sessionId, inputs, options);
      }
    });
  }

  private async ingestOnce(tenant: TenantId, sessionId: string, inputs: UtteranceInput[], options: AddUtterancesOptions): Promise<IngestedUtterance[]> {
    const known = new Map<string, IngestedUtterance>();
    for (const input of inputs) {
      const stored = input.id ? await this.deps.graph.getUtterance(tenant, input.id) : null;
      if (!stored) continue;
      if (!(await isResendOf(this.deps.graph, tenant, sessionId, input, stored))) throw resendConflict(input, stored, sessionId);
      known.set(stored.id, await this.asIngested(tenant, stored));
    }
    const fresh = inputs.filter((i) => !i.id || !known.has(i.id));
    const added = fresh.length > 0 ? await this.store(tenant, sessionId, fresh, options) : [];
    if (known.size > 0) await this.requeue(tenant, [...known.values()].map((k) => k.utterance));
    let next = 0;
    return inputs.map((i) => (i.id && known.has(i.id) ? known.get(i.id)! : added[next++]!));
  }

  /** An utterance stored earlier, described as `ingest` returns it. */
  private async asIngested(tenant: TenantId, u: Utterance): Promise<IngestedUtterance> {
    const resolver = new ParticipantResolver(this.deps.graph, tenant);
    const [speaker] = await resolver.byIds([u.speakerId]);
    const addressees = await resolver.byIds(u.addresseeIds);
    return {
      utterance: u,
      speaker: { id: u.speakerId, name: speaker?.name ?? null, confidence: 1, isNew: false },
      addressees: addressees.map((a) => ({ id: a.id, name: a.name })),
      resent: true,
    };
  }

  private async store(tenant: TenantId, sessionId: string, inputs: UtteranceInput[], options: AddUtterancesOptions): Promise<IngestedUtterance[]> {
    const { graph } = this.deps;
    const now = new Date((this.deps.clock ?? Date.now)()).toISOString();
    const session = await graph.openSession(tenant, sessionId, now);
    // Read once, and only when a turn no cue addresses needs it.
    let caller: Promise<Participant | null> | undefined;
    const callerOfCall = (): Promise<Participant | null> => (caller ??= callersParticipant(graph, tenant, session.metadata));
    const resolver = new ParticipantResolver(graph, tenant);
    const history = await graph.recentUtterances(tenant, sessionId, PRESENCE_WINDOW);
    const recent = history.map((u) => ({ speakerId: u.speakerId, text: u.text }));
    const present = new Set(history.flatMap((u) => [u.speakerId, ...u.addresseeIds]));
    // Resolve every speaker first, so a name spoken before its owner's first line in the batch is known.
    const speakers = [];
    for (const input of inputs) {
      const resolved = await resolver.resolve(input.speaker);
      speakers.push(resolved);
      present.add(resolved.participant.id);
    }
    const pending: { input: UtteranceInput; speaker: Participant; isNew: boolean; addressees: Participant[] }[] = [];
    // The previous turn's vocatives that no one present holds: whoever speaks next answers to them.
    const last = history.at(-1);
    let calledFor = last ? { speakerId: last.speakerId, names: unknownVocatives(last.text, await resolver.byIds([...present])) } : null;
    const chunk = this.deps.commitChunk ?? 20;
    for (const [i, input] of inputs.entries()) {
      if (i > 0 && Number.isFinite(chunk)) await releaseLoop();
      const { participant, isNew } = speakers[i]!;
      const here = await resolver.byIds([...present]);
      const speaker = await this.naming.selfIntroduction(tenant, resolver, participant, input.text, here);
      if (calledFor && calledFor.speakerId !== speaker.id && calledFor.names.length > 0 && !speaker.name) {
        await this.naming.record(tenant, sessionId, resolver, speaker.id, calledFor.names, 'answered', here);
      }
      calledFor = { speakerId: speaker.id, names: unknownVocatives(input.text, here) };
      let addressees = input.addressees
        ? await Promise.all(input.addressees.map(async (a) => (await resolver.resolve(a)).participant))
        : await resolver.byIds(await this.inferAddressees(tenant, sessionId, resolver, speaker.id, input.text, recent, present));
      // A phone call's turn no cue addresses, with no one else here yet (the agent's text stored before the caller's
      // first words are recognised): said to the call's caller, the holder of its external id (trial11 F5).
      if (!input.addressees && addressees.length === 0 && [...present].every((id) => id === speaker.id)) {
        const callee = await callerOfCall();
        if (callee && callee.id !== speaker.id) addressees = [callee];
      }
      // "Sure Maria, I can check that", said to the only other party, unnamed: they are Maria (trial11 F6).
      const calledName = vocativeNameFor({ speakerId: speaker.id, text: input.text, addressees, present: here, recent });
      if (calledName) addressees = [await this.naming.calledBy(tenant, resolver, addressees[0]!, calledName)];
      recent.push({ speakerId: speaker.id, text: input.text });
      pending.push({ input, speaker, isNew: input.speakerIsNew ?? isNew, addressees: addressees.filter((a) => a.id !== speaker.id) });
    }
    const atomically = this.deps.atomically ?? ((work) => work());
    const stored: Utterance[] = [];
    for (let from = 0; from < pending.length; from += chunk) {
      if (from > 0) await releaseLoop();
      const part = pending.slice(from, from + chunk);
      stored.push(...await atomically(async () => {
        const rows = await graph.addUtterances(tenant, part.map(({ input, speaker, addressees }) => ({
          ...(input.id ? { id: input.id } : {}),
          sessionId,
          speakerId: speaker.id,
          addresseeIds: addressees.map((a) => a.id),
          // "my PIN is double seven three one": the transcript keeps "my PIN is [redacted]" (rules 56; README, privacy).
          text: withSecretsRedacted(input.text),
          startMs: input.startMs ?? null,
          endMs: input.endMs ?? null,
          time: input.time ?? now,
          confidence: input.confidence ?? null,
          audioRef: input.audioRef ?? null,
          ...(input.turnId ? { turnId: input.turnId } : {}),
          ...(input.heardBy ? { heardBy: input.heardBy } : {}),
        })), options);
        await this.afterStore(tenant, rows);
        return rows;
      }));
    }
    return stored.map((utterance, i) => {
      const p = pending[i]!;
      return {
        utterance,
        speaker: { id: p.speaker.id, name: p.speaker.name, confidence: p.input.speakerConfidence ?? 1, isNew: p.isNew },
        addressees: p.addressees.map((a) => ({ id: a.id, name: a.name })),
      };
    });
  }

  /**
   * Vocatives, group address, or a reply (see pipelines/speaker/addressee-inference.ts) among the
   * people present; a named participant of the tenant who is not present yet still counts, by full
   * display name only (an alias learned elsewhere may be wrong). An unknown name used to address someone is recorded as evidence for naming them later.
   */
  private async inferAddressees(
    tenant: TenantId, sessionId: string, resolver: ParticipantResolver, speakerId: string, text: string,
    recent: { speakerId: string; text: string }[], present: Set<string>,
  ): Promise<string[]> {
    const result = inferSpeakerAddressees({ speakerId, text, recent, present: await resolver.byIds([...present]) });
    if (result.reason !== 'vocative') {
      const named = await resolver.mentionedIn(text, speakerId, present);
      if (named.length > 0) return named;
    }
    if (result.unknownVocatives.length > 0 && result.addresseeIds.length === 1 && result.reason !== 'vocative') {
      const here = await resolver.byIds([...present]);
      await this.naming.record(tenant, sessionId, resolver, result.addresseeIds[0]!, result.unknownVocatives, 'addressed', here);
    }
    return result.addresseeIds;
  }

  /**
   * Queue the consolidation of resent utterances again, unless it is recorded as done: the first try
   * may have stored them and died before queueing (a Neo4j graph commits apart from the queue). The
   * job id is the first try's, so a job the queue still holds is not added twice.
   */
  private async requeue(tenant: TenantId, resent: Utterance[]): Promise<void> {
    const done = this.deps.memory ? await this.deps.memory.processedFactsOf(tenant, resent.map((u) => u.id)) : new Map();
    const missing = resent.filter((u) => !done.has(u.id));
    if (missing.length === 0) return;
    const atomically = this.deps.atomically ?? ((work) => work());
    await atomically(() => this.enqueueConsolidation(tenant, missing));
  }

  /**
   * Index and queue; failures here never undo the stored utterances (the job re-indexes). Doubtful speech is queued but
   * not indexed: no keyword search, hence no later `memory.context`, finds a far-field turn misheard at 0.11.
   */
  private async afterStore(tenant: TenantId, stored: Utterance[]): Promise<void> {
    const min = this.deps.minAsrConfidence ?? DEFAULT_MIN_ASR_CONFIDENCE;
    const docs = utteranceKeywordEntries(stored, min);
    try {
      if (docs.length > 0) await this.deps.lexical.index(tenant, docs);
    } catch (err) {
      this.deps.logger.warn({ tenant, err: (err as Error).message }, 'lexical indexing failed; the consolidation job retries it');
    }
    await this.enqueueConsolidation(tenant, stored);
  }

  /** One consolidation job per utterance, under an id derived from it (enqueueing it again is a no-op). */
  private async enqueueConsolidation(tenant: TenantId, utterances: Utterance[]): Promise<void> {
    for (const u of utterances) {
      const data: ConsolidationJob = { tenant, sessionId: u.sessionId, utteranceId: u.id };
      await this.deps.queue.enqueue(CONSOLIDATION_JOB, data, { jobId: `consolidate-${tenant}-${u.id}` });
    }
  }
}

/** A unique-key violation on a stored id: another process stored the same utterance first. */
function isDuplicateId(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'PARLEY_ERR_CONFLICT';
}

/**
 * Runs work holding every one of its keys: work sharing a key runs one after the other, in arrival
 * order; work with disjoint keys runs concurrently. Keys are all taken at once (synchronously), so
 * two holders never wait on each other.
 */
class KeyedLocks {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(keys: string[], work: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => { release = resolve; });
    const before = keys.map((k) => this.#tails.get(k) ?? Promise.resolve());
    for (const k of keys) this.#tails.set(k, mine);
    await Promise.all(before);
    try {
      return await work();
    } finally {
      release();
      for (const k of keys) if (this.#tails.get(k) === mine) this.#tails.delete(k);
    }
  }
}

/**
 * The caller of a `/v1/twilio` call (session metadata `channel: "twilio"`, its `twilio.custom_parameters.external_id`):
 * the participant holding that external id; null for another session, a call without one, or one nobody holds yet (a
 * new caller's participant is made by their first recognised words).
 */
async function callersParticipant(graph: GraphStore, tenant: TenantId, metadata: Record<string, unknown>): Promise<Participant | null> {
  if (metadata.channel !== 'twilio') return null;
  const twilio = metadata.twilio as { custom_parameters?: Record<string, unknown> } | undefined;
  const externalId = twilio?.custom_parameters?.external_id;
  return typeof externalId === 'string' && externalId.trim() !== '' ? graph.getParticipantByExternalId(tenant, externalId) : null;
}
