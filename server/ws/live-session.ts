import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Stores } from '../../graph/stores.js';
import type { StreamClock } from '../../graph/types.js';
import type { IngestedUtterance, InteractionIngest } from '../../pipelines/interaction/ingest.js';
import { ERRORS, type ErrorCode } from '../../graph/core/errors.js';
import type { Metrics } from '../plugins/metrics.js';
import type { ServerEventPayloads, ServerEventType } from '../../graph/core/events.js';
import type { StreamFormat } from '../../pipelines/audio/audio-format.js';
import type { Config } from '../config.js';
import type { Models } from '../plugins/models.js';
import type { MemoryQueryFn } from '../plugins/retrieval.js';
import type { TurnListener, TurnSession } from '../../pipelines/retrieval/turn-listener.js';
import type { ContextScope, MemoryScope } from '../../pipelines/retrieval/context-scope.js';
import { SessionVocabulary } from '../../pipelines/interaction/session-vocabulary.js';
import { VoiceTurns } from './voice-turns.js';
import { RecentTurns } from './recent-turns.js';
import type { RetiredChange } from './voice-turns-host.js';
import { erasedIdKey } from '../../graph/retired-ids.js';
import type { SessionEventHub } from './session-event-hub.js';
import { EventNumbering } from './event-numbering.js';
import { SessionQueue, type EnqueueOptions } from './session-queue.js';
import type { ConsolidationWorkers } from './consolidation-workers.js';
import { closeFromServer } from './server-close.js';
import { STREAM_TAKEN_OVER } from '../../graph/stream-owner.js';

/** What a live session needs from the app. */
export interface LiveSessionDeps {
  config: Config;
  models: Models;
  stores: Stores;
  ingest: InteractionIngest;
  metrics: Metrics;
  logger: FastifyBaseLogger;
  /** Most queued client messages before new ones are shed. */
  queueLimit: number;
  /** Answers `query` messages (the retrieval plugin's `app.memoryQuery`). */
  memoryQuery: MemoryQueryFn;
  /** Subscribers to sessions' events besides their sockets (server-sent events). */
  hub: SessionEventHub;
  /** Whether a session's end waits for its consolidation: only while some process takes the jobs. */
  workers: ConsolidationWorkers;
  /** The clock live audio is timed by, ms (`performance.now` but in tests). */
  audioNow: () => number;
  /** Wall clock, ms since the epoch (`app.clock`): what a client's `time` may not lie a day past. */
  clock: () => number;
}

/** What an `error` event may carry besides its code and message. */
export type ErrorDetails = Pick<ServerEventPayloads['error'], 'unstored_from_ms' | 'shed_from_ms' | 'dropped' | 'id'>;

/** How a socket takes part in its session. */
export interface AttachOptions {
  /**
   * False for a socket that carries only audio in (Twilio Media Streams): events then go only to
   * the hub's subscribers. Default true.
   */
  events?: boolean;
  /**
   * When the connection's conversation began, ms since the epoch (`start_time` of a replayed or simulated
   * conversation): its turns are stored at times from it ({@link LiveSession.connectionTime}). Default: now.
   */
  startTime?: number;
}

/** Close reason (and `PARLEY_ERR_SESSION_BUSY` message) for a socket whose session another one took. */
const REPLACED = STREAM_TAKEN_OVER;

/**
 * One conversation with one connected client at a time. Client messages run one after another in
 * arrival order through a bounded queue (`PARLEY_SESSION_QUEUE`), one message per session per turn of
 * the event loop, so one flooding session cannot starve the others; events go out numbered by `seq`.
 * Survives reconnects.
 */
export class LiveSession implements TurnSession {
  private socket: WebSocket | null = null;
  /** Whether events are written to `socket` (false for audio-only sockets). */
  private socketEvents = true;
  /** The `seq` of its events. */
  private readonly numbering: EventNumbering;
  /** Its client messages, one at a time. */
  private readonly queue: SessionQueue;
  private turnCounter = 0;
  private lastSpeaker: string | null = null;
  /** The last speaker who is not one of the session's {@link agents} (`participant.identify`'s default). */
  private lastNonAgent: string | null = null;
  /** Utterances stored in this session whose consolidation `session.end` has not yet seen finish. */
  private readonly unconsolidated = new Set<string>();
  /** Listeners following this session's turns (retrieval, …). */
  listeners: TurnListener[] = [];
  /** Set once the session has ended (its end stored, `session.ended` about to go out); never cleared. */
  ended = false;
  /**
   * Why the session is ending, from when its end was asked for (`session.end` arrived, `POST …/end`,
   * Twilio `stop`) until it ended; null before. From then on every client message and audio frame is
   * refused with `PARLEY_ERR_SESSION_ENDED` and nothing of it is stored, and no socket resumes it.
   */
  ending: string | null = null;
  /** Whether audio after the end was already refused once (one error, not one per frame). */
  private audioRefused = false;
  /**
   * The conversation clock from a connection's `start_time`: `at` (ms since the epoch) is when the connection that set
   * it began, `connectedAt` when it connected (`audioNow`), `baseMs` where its audio begins on the transcript clock
   * (null until its first audio). A resume that repeats the same `start_time` keeps it, so times go on, not restart.
   */
  private startTime: { at: number; connectedAt: number; baseMs: number | null } | null = null;
  /** Set once another live session took the session's audio stream over ({@link takenOver}). */
  private lostStream = false;
  /** The last turns stored in this session: a `query` leaves out the turn that asked it. */
  readonly recentTurns = new RecentTurns();
  format: StreamFormat = { encoding: 'pcm_s16le', sampleRate: 16000, channels: 1 };
  /** Whether the current socket resumed the session (its `session.started` `resumed`). */
  private connectionResumed = false;
  /**
   * Set when this session object took over from an audio stream of an earlier one (a crash, a restart, the
   * resume window, another server): where on that stream nothing is stored (`unstoredStreamFromMs`). Sent in
   * `session.started` as `unstored_from_ms` until this object takes its first audio frame (a new stream).
   */
  unstoredFromMs: number | null = null;
  /**
   * Set with `unstoredFromMs`: the conversation clock the earlier audio stream recorded (`SessionRecord.streamClock`),
   * with where the session's stored transcript ends (`transcriptEndMs`, the latest stored `end_ms`). The first
   * connection here that resumes with the same `start_time` (as the TypeScript SDK's reconnect sends after a restart)
   * goes on with it, so its turns, voice and typed, follow those stored before instead of starting again at the `start_time`.
   */
  storedClock: (StreamClock & { transcriptEndMs: number }) | null = null;
  /** The voice side (VAD, ASR, speaker identity), created with the first audio frame. */
  private voiceTurns: VoiceTurns | null = null;
  /** Called when the session should leave the registry. */
  onFinished: () => void = () => {};
  /**
   * The application's own id for the session's first speaker (`?external_id=`, Twilio
   * `customParameters.external_id`, or `participant.identify` before anyone spoke); taken by the
   * first participant to speak, then cleared.
   */
  pendingExternalId: string | null = null;
  /** The read of who holds the pending external id ({@link memoryScope}), kept while that id is pending. */
  private expected: { externalId: string; holder: Promise<string | null> } | null = null;
  /**
   * A call centre's agents (`?agent=`, participant ids): their voices never take the pending external id, which
   * waits for the first speaker who is not one of them; their turns are still theirs. Kept across reconnects.
   */
  agents: ReadonlySet<string> = new Set();
  /**
   * The agents an earlier version kept for the session (`legacySessionAgents`): they only narrow its scope, as agents of
   * {@link memoryScope}; never its people, never agents of the pending external id (a client could have written them).
   */
  legacyAgents: ReadonlySet<string> = new Set();
  /**
   * The route's context scope when the session sets none: `PARLEY_CONTEXT_SCOPE`, else `all` on `/v1/stream` and
   * `participants` on `/v1/twilio`.
   */
  defaultContextScope: ContextScope = 'all';
  /** The session's own `context_scope` (`session.update`, Twilio `customParameters`, kept in its metadata); null: none. */
  ownContextScope: ContextScope | null = null;
  /** The names its recogniser listens for (name spotting): the session's people first, then the tenant's. */
  readonly vocabulary: SessionVocabulary;

  constructor(
    readonly tenant: string,
    readonly id: string,
    lastEventSeq: number,
    private readonly deps: LiveSessionDeps,
    readonly log: FastifyBaseLogger,
    /** The id under which this live session holds the session's audio stream in the store (`GraphStore.takeAudioStream`). */
    readonly streamOwner: string,
  ) {
    this.numbering = new EventNumbering(deps.stores.graph, tenant, id, lastEventSeq, log);
    this.queue = new SessionQueue({ limit: deps.queueLimit, log, sendError: (code, message, details) => this.sendError(code, message, false, details) });
    // Turns happen only while a client is connected, and each sends at least one numbered event, so
    // continuing from the stored numbering keeps turn ids unique across restarts.
    this.turnCounter = lastEventSeq;
    this.vocabulary = new SessionVocabulary(deps.stores.graph, tenant, {
      max: deps.config.asrNameSpottingMaxNames, tenantNames: deps.config.asrNameSpottingTenantNames,
    });
  }

  get connected(): boolean {
    return this.socket !== null;
  }

  /** Bind a (new) socket; a previous socket of the same session is closed as replaced. */
  attach(socket: WebSocket, format: StreamFormat, resumed: boolean, options: AttachOptions = {}): void {
    if (this.socket && this.socket !== socket) this.replaceSocket(this.socket);
    this.socket = socket;
    this.socketEvents = options.events ?? true;
    this.format = format;
    this.connectionResumed = resumed;
    // A resume repeating the conversation's start_time (as the TypeScript SDK's reconnect does) goes on with its clock.
    const kept = this.startTime ?? (this.storedClock && resumedClock(this.storedClock, this.deps.audioNow()));
    this.storedClock = null;
    const continues = resumed && options.startTime !== undefined && kept?.at === options.startTime;
    if (continues) this.startTime = kept;
    else this.startTime = options.startTime === undefined ? null : { at: options.startTime, connectedAt: this.deps.audioNow(), baseMs: null };
    this.voiceTurns?.connected(resumed);
    this.voiceTurns?.reformat(format);
    this.send('session.started', {
      resumed,
      config: { session_id: this.id, sample_rate: format.sampleRate, encoding: format.encoding, channels: format.channels },
      ...(this.unstoredFromMs !== null ? { unstored_from_ms: this.unstoredFromMs } : {}),
    });
  }

  /**
   * Another live session took the session's audio stream over (a reconnect to another server while this one still
   * held the socket): the store refused this one's turn (`PARLEY_ERR_SESSION_BUSY`). It stores nothing more: its
   * socket gets the fatal error and closes with 4000, as a socket replaced on this server does, and it leaves the
   * registry without waiting for a resume (a reconnect here takes the stream back, as a new live session).
   */
  takenOver(): void {
    if (this.lostStream) return;
    this.lostStream = true;
    this.log.info('the session\'s audio stream was taken over by another connection; this one stores no more turns');
    // Without a socket (let go after its resume window, a newer live session here already), there is no one to tell.
    // Closed with 4000 and the reason a socket replaced on this server gets.
    if (this.socket) this.sendError('PARLEY_ERR_SESSION_BUSY', `${REPLACED} (perhaps on another server): this connection stores no more turns`, true, {}, REPLACED);
    this.socket = null;
    this.onFinished();
  }

  /**
   * When a text utterance sent now happened, as the connection's `start_time` gives it (ISO-8601): the start_time
   * plus the time since that connection opened; undefined without one (stored at the time it is stored). Not the
   * stream clock (`turnTime`) on purpose: a text turn has no place in the audio, and a connection may send no audio.
   */
  connectionTime(): string | undefined {
    if (!this.startTime) return undefined;
    return new Date(this.startTime.at + this.deps.audioNow() - this.startTime.connectedAt).toISOString();
  }

  /** A connection's audio begins at `transcriptMs` on the transcript clock: the start of its `start_time`'s clock, unless a resume kept an earlier one. */
  connectionAudioStarts(transcriptMs: number): void {
    if (this.startTime && this.startTime.baseMs === null) this.startTime.baseMs = transcriptMs;
  }

  /** The conversation clock an audio stream beginning at `transcriptMs` records with its start; null without a `start_time`. */
  streamClock(transcriptMs: number): StreamClock | null {
    return this.startTime ? { startTime: this.startTime.at, baseMs: this.startTime.baseMs ?? transcriptMs } : null;
  }

  /**
   * When a turn that starts at `transcriptMs` on the transcript clock happened, as the `start_time` gives it (ISO-8601):
   * the start_time plus how far after the audio of the connection that gave it the turn starts; undefined without one.
   * Read off the one clock the audio stream also records (`streamClock`), as `StreamClock` says to read it.
   */
  turnTime(transcriptMs: number): string | undefined {
    const clock = this.streamClock(transcriptMs);
    return clock ? new Date(clock.startTime + transcriptMs - clock.baseMs).toISOString() : undefined;
  }

  /** Whether another live session took the audio stream over ({@link takenOver}); never cleared. */
  get streamLost(): boolean {
    return this.lostStream;
  }

  /** Tell a socket whose session a new connection took why it closes (a fatal error, then 4000). */
  private replaceSocket(old: WebSocket): void {
    if (old.readyState === old.OPEN) {
      old.send(this.numbered('error', { code: 'PARLEY_ERR_SESSION_BUSY', message: REPLACED, fatal: true }));
    }
    closeFromServer(old, { code: ERRORS.PARLEY_ERR_SESSION_BUSY.wsClose, reason: REPLACED, fatal: true });
  }

  /**
   * Take one audio frame: to the voice side, or, once the session's end was asked for, dropped (the
   * first with a non-fatal `PARLEY_ERR_SESSION_ENDED`). `arrivedAt`: when a frame held before this came in
   * (`LiveSessionDeps.audioNow`); default now.
   */
  takeAudio(frame: Buffer, arrivedAt?: number): void {
    if (this.ending === null && !this.ended) {
      // This session's own audio stream begins: the earlier stream's frontier no longer applies to it.
      this.unstoredFromMs = null;
      this.voice.push(frame, arrivedAt);
      return;
    }
    if (this.audioRefused) return;
    this.audioRefused = true;
    this.sendError('PARLEY_ERR_SESSION_ENDED', `audio after the end of session ${this.id} is dropped (${this.ending ?? 'the session has ended'})`);
  }

  /** The voice side, created on first use. */
  get voice(): VoiceTurns {
    if (!this.voiceTurns) {
      this.voiceTurns = new VoiceTurns(this, this.deps, this.format);
      this.voiceTurns.connected(this.connectionResumed);
    }
    return this.voiceTurns;
  }

  /** Stop the audio (finishing the open turn when `flush`) and merge fragmented speaker ids. */
  async endVoice(flush: boolean): Promise<void> {
    if (!this.voiceTurns) return;
    await this.voiceTurns.close(flush);
    if (flush) await this.voiceTurns.mergeSpeakers();
  }

  /**
   * Server shutdown: end the open turn as if speech ended and store every recognised turn (see
   * `VoiceTurns.finishForShutdown`); audio arriving from now on is dropped.
   */
  async finishVoiceForShutdown(): Promise<void> {
    await this.voiceTurns?.finishForShutdown();
  }

  /** Shutdown grace over: store no further turn (`VoiceTurns.seal`); false when a turn being stored did not settle within `timeoutMs`. */
  async sealVoice(timeoutMs: number): Promise<boolean> {
    return (await this.voiceTurns?.seal(timeoutMs)) ?? true;
  }

  /** Where the audio not stored begins (ms into the stream), or null (`VoiceTurns.unstoredFromMs`). */
  unstoredAudioFromMs(): number | null {
    return this.voiceTurns?.unstoredFromMs() ?? null;
  }

  /**
   * Wait, at most `timeoutMs`, until every utterance stored in this session is consolidated, so
   * its `memory.updated` goes out before `session.ended` (one forgotten meanwhile is not waited for: it never will
   * be); not at all when no process takes the jobs
   * (`ConsolidationWorkers`, which says so in the log once). Returns how many are still waiting, and
   * whether it stopped because no worker takes them.
   */
  async awaitConsolidation(timeoutMs: number): Promise<{ waiting: number; noWorker: boolean }> {
    const deadline = Date.now() + timeoutMs;
    let workersAsked = false;
    let noWorker = false;
    while (this.unconsolidated.size > 0) {
      // One store call per poll for the whole session, not one per utterance.
      const processed = await this.deps.stores.memory.processedFactsOf(this.tenant, [...this.unconsolidated]);
      for (const id of processed.keys()) this.unconsolidated.delete(id);
      if (this.unconsolidated.size > 0) await this.dropForgotten();
      if (this.unconsolidated.size === 0 || Date.now() >= deadline) break;
      if (!workersAsked) {
        workersAsked = true;
        if (!(await this.deps.workers.alive())) {
          noWorker = true;
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Events published by the job (in this process) go out on the next turn of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    return { waiting: this.unconsolidated.size, noWorker };
  }

  /**
   * Stop waiting for utterances no longer stored: forgotten (`DELETE /v1/utterances/{id}`, on any server) since they
   * were stored, they will never be consolidated (forgetting drops their processed record and their job's work).
   */
  private async dropForgotten(): Promise<void> {
    const stored = new Set((await this.deps.stores.graph.getUtterances(this.tenant, [...this.unconsolidated])).map((u) => u.id));
    for (const id of [...this.unconsolidated]) if (!stored.has(id)) this.unconsolidated.delete(id);
  }

  /** Forget the socket if it is still the current one. */
  detach(socket: WebSocket): void {
    if (this.socket === socket) this.socket = null;
  }

  /**
   * Send one event to the session's socket and to the hub's subscribers (server-sent events);
   * dropped when nobody receives it.
   */
  send<T extends ServerEventType>(type: T, payload: ServerEventPayloads[T]): void {
    const socket = this.socketEvents ? this.socket : null;
    const toSocket = socket !== null && socket.readyState === socket.OPEN;
    if (!toSocket && !this.deps.hub.has(this.tenant, this.id)) return;
    const json = this.numbered(type, payload);
    if (toSocket) socket.send(json);
    this.deps.hub.publish(this.tenant, this.id, { type, seq: this.numbering.current, json });
    this.deps.metrics.wsEvents.inc({ type });
    if (type === 'memory.context') {
      const context = payload as ServerEventPayloads['memory.context'];
      if (!context.speculative) this.deps.metrics.readyAt.observe(context.ready_at_ms / 1000);
    }
  }

  /** The JSON of an event with the session's next `seq` (reserving a block of numbers when needed). */
  private numbered<T extends ServerEventType>(type: T, payload: ServerEventPayloads[T]): string {
    return JSON.stringify({ type, session_id: this.id, seq: this.numbering.next(), ...payload });
  }

  /** Send an `error` event; a fatal one also closes the socket with the code's close code and `closeReason` (default the code). */
  sendError(code: ErrorCode, message: string, fatal = false, details: ErrorDetails = {}, closeReason: string = code): void {
    this.deps.metrics.wsErrors.inc({ code });
    this.send('error', { code, message, fatal, ...details });
    if (fatal && this.socket) closeFromServer(this.socket, { code: ERRORS[code].wsClose, reason: closeReason, fatal: true });
  }

  /**
   * Queue `task` behind earlier messages; sheds it with an error when the queue is full (then false),
   * unless `always` (the session's end: it must run, after what is queued before it). `about` names the message in
   * that error; `query`: the query it answers, whose id every error answering it carries.
   */
  enqueue(task: () => Promise<void>, options: EnqueueOptions = {}): boolean {
    return this.queue.enqueue(task, options);
  }

  /** Resolves when every queued message has been handled. */
  async flush(): Promise<void> {
    await this.queue.flush();
  }

  lastSpeakerId(): string | null {
    return this.lastSpeaker;
  }

  /** The context scope in force: the session's own, else its route's default. */
  get contextScope(): ContextScope {
    return this.ownContextScope ?? this.defaultContextScope;
  }

  /**
   * Under `participants`, the people whose memories `memory.context` may hold: those heard or addressed in this session
   * (as its name spotting knows them: a resumed session's last 50 turns, then every turn), the returning caller behind its
   * pending external id (one read, kept while that id is pending), and its agents; null under `all`. Its agents as
   * `MemoryScope.agents` are those and its {@link legacyAgents}. `scope` (default the session's {@link contextScope}) is
   * a `query` message's own `context_scope`.
   */
  memoryScope(scope: ContextScope = this.contextScope): MemoryScope | null | Promise<MemoryScope | null> {
    if (scope === 'all') return null;
    const within = (expected: string | null): MemoryScope => ({
      people: new Set([...this.vocabulary.sessionPeople(), ...this.agents, ...(expected ? [expected] : [])]),
      agents: this.legacyAgents.size === 0 ? this.agents : new Set([...this.agents, ...this.legacyAgents]), sessionId: this.id,
    });
    const expected = this.expectedParticipant();
    return expected ? expected.then(within) : within(null);
  }

  /**
   * The participant holding the pending external id (a returning caller not heard yet, one of the call's people before
   * they speak), read once per id; null without a pending id.
   */
  private expectedParticipant(): Promise<string | null> | null {
    const externalId = this.pendingExternalId;
    if (!externalId) return null;
    if (this.expected?.externalId !== externalId) {
      const holder = this.deps.stores.graph.getParticipantByExternalId(this.tenant, externalId).then((p) => p?.id ?? null);
      this.expected = { externalId, holder };
      // A failed read is tried again at the next search.
      holder.catch(() => {
        if (this.expected?.holder === holder) this.expected = null;
      });
    }
    return this.expected.holder;
  }

  /** The last speaker who is not one of the session's {@link agents}; null before one spoke. */
  lastNonAgentId(): string | null {
    return this.lastNonAgent;
  }

  /**
   * A participant of the tenant was merged away or erased (by hand, perhaps on another server): turns
   * heard from now on name the survivor, and a voice whose participant was erased becomes a new speaker.
   * An agent merged away is replaced by the survivor among the session's {@link agents} (the survivor is the
   * agent now: it never takes the pending external id); an erased agent is dropped from them.
   */
  async participantRetired(change: RetiredChange): Promise<void> {
    this.idsRetired(change);
    await this.voiceTurns?.participantRetired(change);
  }

  /**
   * The ids this session holds of people (its last speaker, last non-agent, {@link agents}, its context scope's people)
   * follow `change`; the voice side is not told.
   */
  idsRetired(change: RetiredChange): void {
    this.lastSpeaker = retiredAs(this.lastSpeaker, change);
    this.lastNonAgent = retiredAs(this.lastNonAgent, change);
    this.agents = new Set([...this.agents].flatMap((id) => retiredAs(id, change) ?? []));
    this.legacyAgents = new Set([...this.legacyAgents].flatMap((id) => retiredAs(id, change) ?? []));
    // The context scope's people: the survivor replaces the merged one (an erased one has no memories left to push).
    if ('from' in change) this.vocabulary.merged(change.from, change.into);
  }

  /**
   * The participant a new voice becomes: the holder of the pending external id (a returning caller),
   * or one created with it; without a pending id, a new participant.
   */
  async participantForNewVoice(): Promise<string> {
    const { graph } = this.deps.stores;
    const externalId = this.pendingExternalId;
    if (!externalId) return (await graph.createParticipant(this.tenant, {})).id;
    this.pendingExternalId = null;
    const holder = await graph.getParticipantByExternalId(this.tenant, externalId);
    return (holder ?? (await graph.createParticipant(this.tenant, { externalId }))).id;
  }

  /**
   * Give the pending external id to the participant who just spoke first, unless they are one of the session's
   * {@link agents} (then it waits for the next speaker). When another participant holds it, or the speaker holds
   * another one, nothing changes and the client gets an `error`.
   */
  async claimExternalId(speakerId: string): Promise<void> {
    const externalId = this.pendingExternalId;
    if (!externalId || this.agents.has(speakerId)) return;
    this.pendingExternalId = null;
    const { graph } = this.deps.stores;
    const holder = await graph.getParticipantByExternalId(this.tenant, externalId);
    if (holder?.id === speakerId) return;
    const speaker = await graph.getParticipant(this.tenant, speakerId);
    if (holder || speaker?.externalId) {
      const why = holder ? `it belongs to participant ${holder.id}` : `they already hold external_id ${JSON.stringify(speaker?.externalId)}`;
      this.sendError('PARLEY_ERR_CONFLICT', `external_id ${JSON.stringify(externalId)} was not given to the first speaker ${speakerId}: ${why}`);
      return;
    }
    await graph.updateParticipant(this.tenant, speakerId, { externalId });
  }

  /** Call every listener's `hook`; a failing listener is logged and never breaks the session. */
  notify(hook: (listener: TurnListener) => void): void {
    for (const listener of this.listeners) {
      try {
        hook(listener);
      } catch (err) {
        this.log.error({ err }, 'turn listener failed');
      }
    }
  }

  /** Record a stored utterance: `transcript.final` (with `warnings`, if any), then listeners. */
  finalised(turnId: string, stored: IngestedUtterance, warnings: string[] = []): void {
    this.lastSpeaker = stored.speaker.id;
    if (!this.agents.has(stored.speaker.id)) this.lastNonAgent = stored.speaker.id;
    this.recentTurns.add(stored.utterance.id, stored.utterance.text);
    this.unconsolidated.add(stored.utterance.id);
    if (this.vocabulary.heard([stored.speaker, ...stored.addressees])) this.voiceTurns?.namesChanged();
    this.sendFinal(turnId, stored, warnings);
    this.notify((l) => l.onFinal?.(turnId, stored));
  }

  /**
   * Acknowledge a resent utterance (already stored): `transcript.final` again, with the turn id it
   * was first acknowledged with (kept with the utterance in the store, so also after a restart or on
   * another server; a new one for an utterance stored over HTTP or by an older version), and nothing
   * for the listeners: no second `memory.context`.
   */
  acknowledgeResend(stored: IngestedUtterance): void {
    this.sendFinal(stored.utterance.turnId ?? this.nextTurnId(), stored);
  }

  private sendFinal(turnId: string, stored: IngestedUtterance, warnings: string[] = []): void {
    this.send('transcript.final', {
      turn_id: turnId,
      utterance_id: stored.utterance.id,
      text: stored.utterance.text,
      start_ms: stored.utterance.startMs,
      end_ms: stored.utterance.endMs,
      confidence: stored.utterance.confidence,
      speaker: { id: stored.speaker.id, name: stored.speaker.name, confidence: stored.speaker.confidence, is_new: stored.speaker.isNew },
      addressees: stored.addressees,
      ...(warnings.length > 0 ? { warnings } : {}),
    });
  }

  nextTurnId(): string {
    this.turnCounter += 1;
    return `turn_${this.turnCounter}`;
  }

  /**
   * Persist the numbering and release the socket. Does not wait for queued messages (a message
   * handler may call it); callers that must finish queued work call `flush()` first.
   */
  async close(code: number, reason: string): Promise<void> {
    // After the last reservation lands: the numbers reserved but not sent are given back.
    await this.numbering.release();
    if (this.socket) closeFromServer(this.socket, { code, reason, fatal: false });
    this.socket = null;
  }

  /**
   * Run now, in order, the messages still queued behind the running one (the session's end): each is
   * refused in its place, its `error` before `session.ended`, while the socket is still open.
   */
  async runQueuedNow(): Promise<void> {
    await this.queue.runQueuedNow();
  }
}

/**
 * A conversation clock recorded with an earlier server's audio stream, as a connection resuming it now (`audioNow`) goes
 * on with it: voice turns from its `baseMs`, typed ones from where the stored transcript ends, as if this connection
 * had been open since that conversation time (the time between the connections is not known, so not counted).
 */
function resumedClock(stored: StreamClock & { transcriptEndMs: number }, audioNow: number): { at: number; connectedAt: number; baseMs: number } {
  return { at: stored.startTime, connectedAt: audioNow - Math.max(0, stored.transcriptEndMs - stored.baseMs), baseMs: stored.baseMs };
}

/** Who `id` is after `change`: null when it was erased, the survivor when it was merged away, else itself. */
function retiredAs(id: string | null, change: RetiredChange): string | null {
  if (id && 'erasedKey' in change && erasedIdKey(id) === change.erasedKey) return null;
  if (id && 'from' in change && id === change.from) return change.into;
  return id;
}
