import type { FastifyBaseLogger } from 'fastify';
import { isContextScope } from '../../pipelines/retrieval/context-scope.js';
import { ParleyError } from '../../graph/core/errors.js';
import { LiveSession, type LiveSessionDeps } from './live-session.js';
import type { TurnListenerFactory } from '../../pipelines/retrieval/turn-listener.js';
import type { SessionRecord } from '../../graph/types.js';
import { storedTranscriptEndMs, unstoredStreamFromMs } from './stream-frontier.js';
import { legacySessionAgents, sessionAgents } from '../../pipelines/interaction/session-metadata.js';
import { retryTransient } from '../../graph/transient-retry.js';

/** How many sessions a registry admits. */
export interface SessionLimits {
  /** How long a disconnected session stays for a resume, ms. */
  resumeMs: number;
  /** Most connected sessions in all. */
  maxConnected: number;
  /** Most connected sessions of one tenant. */
  maxConnectedPerTenant: number;
  /** Most disconnected sessions kept for a resume (per tenant at most `maxConnectedPerTenant`). */
  maxResumable: number;
}

/**
 * The live sessions of this process, by tenant and id. A disconnected session stays for
 * `resumeMs` so a reconnect with the same `session_id` picks it up again. Only connected sessions
 * hold live slots; sessions waiting for a resume are bounded on their own, oldest finished first,
 * so sockets dropped without `session.end` cannot lock anyone out.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly expiry = new Map<string, NodeJS.Timeout>();
  /** Disconnected sessions waiting for a resume, oldest first (Map keeps insertion order). */
  private readonly waiting = new Map<string, LiveSession>();
  /** Opens under way, by session key: the next open of the same session waits for the last. */
  private readonly opens = new Map<string, Promise<unknown>>();
  /** Set by drainAll: no session is kept for a resume any more. */
  private draining = false;
  /**
   * Tell the other processes that live session `owner` here took the session's audio stream over (set by the event
   * bus plugin, which publishes a `stream.taken` notice; they answer with {@link streamTaken}).
   */
  onStreamTaken: (tenant: string, id: string, owner: string) => Promise<void> = async () => {};

  constructor(
    private readonly deps: LiveSessionDeps,
    private readonly limits: SessionLimits,
    private readonly log: FastifyBaseLogger,
    /** Factories of the listeners every new session gets (filled by plugins before listening). */
    readonly listenerFactories: TurnListenerFactory[] = [],
  ) {}

  /**
   * Throw `PARLEY_ERR_OVERLOADED` unless a socket for this session may connect now: the server and
   * the tenant each have a live slot free, or the session is already connected.
   */
  admit(tenant: string, id: string): void {
    if (this.get(tenant, id)?.connected) return;
    let all = 0;
    let mine = 0;
    for (const s of this.sessions.values()) {
      if (!s.connected) continue;
      all += 1;
      if (s.tenant === tenant) mine += 1;
    }
    if (all >= this.limits.maxConnected) {
      throw new ParleyError('PARLEY_ERR_OVERLOADED', `this server already holds ${this.limits.maxConnected} connected sessions; retry later`);
    }
    if (mine >= this.limits.maxConnectedPerTenant) {
      throw new ParleyError('PARLEY_ERR_OVERLOADED', `this tenant already holds ${this.limits.maxConnectedPerTenant} connected sessions; end one or retry later`);
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Sessions with a connected client, and disconnected ones kept for a resume (metrics). */
  countsByState(): { live: number; waitingResume: number } {
    let live = 0;
    for (const s of this.sessions.values()) if (s.connected) live += 1;
    return { live, waitingResume: this.waiting.size };
  }

  get(tenant: string, id: string): LiveSession | undefined {
    return this.sessions.get(this.key(tenant, id));
  }

  /** The sessions with a client connected to this process. */
  connectedSessions(): LiveSession[] {
    return [...this.sessions.values()].filter((s) => s.connected);
  }

  /** The tenant's live sessions on this process, connected or waiting for a resume. */
  ofTenant(tenant: string): LiveSession[] {
    return [...this.sessions.values()].filter((s) => s.tenant === tenant);
  }

  /**
   * The live session, or a new one continuing the stored session's event numbering. Opens of one session on this
   * process run one at a time, so two connections racing to open it make one live session.
   * @throws ParleyError `PARLEY_ERR_SESSION_ENDED` when the session has ended or is ending (HTTP or
   * `session.end`): an ended session is never resumed, here or on another server.
   * @throws ParleyError `PARLEY_ERR_STORE_UNAVAILABLE` when a new live session could not take the session's audio
   * stream over in the store (it would not know what another server still stores).
   */
  async open(tenant: string, id: string): Promise<{ session: LiveSession; resumed: boolean }> {
    const key = this.key(tenant, id);
    const before = this.opens.get(key) ?? Promise.resolve();
    const run = before.catch(() => undefined).then(() => this.openNow(tenant, id));
    this.opens.set(key, run);
    try {
      return await run;
    } finally {
      if (this.opens.get(key) === run) this.opens.delete(key);
    }
  }

  private async openNow(tenant: string, id: string): Promise<{ session: LiveSession; resumed: boolean }> {
    const key = this.key(tenant, id);
    const existing = await this.deps.stores.graph.getSession(tenant, id);
    if (existing?.endedAt) {
      throw new ParleyError('PARLEY_ERR_SESSION_ENDED', `session ${id} ended at ${existing.endedAt} and cannot be resumed; start a new session with another session_id`);
    }
    let live = this.sessions.get(key);
    // Waiting here for a resume while another server took its audio stream over (the client went there, then came
    // back): it would store no more turns (each refused as taken over), so it is let go and opened anew below, taking
    // the stream back and naming what is not stored.
    if (live && !live.connected && existing?.streamOwner && existing.streamOwner !== live.streamOwner) {
      live.takenOver();
      live = this.sessions.get(key);
    }
    // Its end is under way (session.end, an end over HTTP): its store record is not marked yet, but it is over.
    if (live && (live.ending !== null || live.ended)) {
      throw new ParleyError('PARLEY_ERR_SESSION_ENDED', `session ${id} is ending (${live.ending ?? 'ended'}) and cannot be resumed; start a new session with another session_id`);
    }
    clearTimeout(this.expiry.get(key));
    this.expiry.delete(key);
    this.waiting.delete(key);
    if (live) {
      this.markActive(tenant, id);
      return { session: live, resumed: true };
    }
    const record = existing ?? (await this.deps.stores.graph.openSession(tenant, id, new Date(this.deps.clock()).toISOString()));
    const owner = `ls_${crypto.randomUUID().replaceAll('-', '')}`;
    // Not live here: its last audio stream, if any, is gone (a crash, a restart, the resume window) or still held by
    // another server. Taken over first, then read: a turn that stream stores from now on is refused, so what is read
    // as stored stays so, and what is named as not stored is never stored by it.
    // A transient failure (a busy file, a Neo4j leader change) is tried again a few times before the connection is refused.
    await retryTransient(() => this.deps.stores.graph.takeAudioStream(tenant, id, owner), {
      onRetry: (err, tried) => this.log.warn({ err: err instanceof Error ? err.message : String(err), tried, session: id },
        'could not take the session\'s audio stream over; trying again'),
    }).catch((err: unknown) => {
      throw new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', `could not take session ${id}'s audio stream over in the store; retry: ${err instanceof Error ? err.message : String(err)}`);
    });
    // The server that held it, if another, stops its stream now rather than at its next turn (best effort: that turn
    // is refused in the store all the same).
    this.onStreamTaken(tenant, id, owner).catch((err: unknown) => this.log.warn({ err: err instanceof Error ? err.message : String(err), session: id },
      'could not tell the other servers that the session\'s audio stream was taken over'));
    // Read again once taken: a stream the previous holder opened meanwhile recorded its own start.
    const taken = existing ? await this.deps.stores.graph.getSession(tenant, id).catch(() => existing) : null;
    const unstoredFrom = taken ? await this.unstoredFrom(tenant, taken) : null;
    this.markActive(tenant, id);
    const session = new LiveSession(tenant, id, record.lastEventSeq, this.deps, this.log.child({ session: id, tenant }), owner);
    session.unstoredFromMs = unstoredFrom;
    // A Twilio call's session (resumed on /v1/stream, perhaps after a restart) keeps its route's default: participants.
    session.defaultContextScope = this.deps.config.contextScope ?? (record.metadata.channel === 'twilio' ? 'participants' : 'all');
    session.ownContextScope = isContextScope(record.metadata.context_scope) ? record.metadata.context_scope : null;
    // The agents its stream named, kept with it: a resume naming none keeps them, after a restart too.
    session.agents = new Set(await sessionAgents(this.deps.stores.graph, tenant, record.metadata));
    // Those an earlier version kept only narrow its scope, as when it is not live (query-scope.ts).
    session.legacyAgents = new Set(await legacySessionAgents(this.deps.stores.graph, tenant, record.metadata));
    session.storedClock = taken?.streamClock ? { ...taken.streamClock, transcriptEndMs: await this.transcriptEnd(tenant, id) } : null;
    session.listeners = this.listenerFactories.map((make) => make(session));
    session.onFinished = () => {
      if (this.sessions.get(key) === session) this.remove(tenant, id);
    };
    this.sessions.set(key, session);
    // Resumed from the store (a restart, another server): listen for the names of who was in it, in the background.
    if (existing) {
      void session.vocabulary.seed(id).catch((err: Error) => this.log.warn({ err: err.message, session: id }, 'could not read the session\'s people for name spotting'));
    }
    this.deps.metrics.liveSessions.set(this.sessions.size);
    return { session, resumed: existing !== null };
  }

  /**
   * Live session `owner`, perhaps on another server, took the session's audio stream over (a `stream.taken` notice):
   * the live session here, if it held the stream, stores no further turn, so it stops now (a fatal
   * `PARLEY_ERR_SESSION_BUSY`, close 4000) rather than at its next turn, and a silent client hears it too. The
   * store decides: a notice that arrives late, after this server took the stream back, changes nothing. A session
   * whose end is under way ends as it was.
   */
  async streamTaken(tenant: string, id: string, owner: string): Promise<void> {
    const live = this.get(tenant, id);
    if (!live || live.streamOwner === owner || live.streamLost || live.ending !== null || live.ended) return;
    const stored = await this.deps.stores.graph.getSession(tenant, id);
    if (this.get(tenant, id) !== live || !stored?.streamOwner || stored.streamOwner === live.streamOwner) return;
    live.takenOver();
  }

  /** Where nothing is stored on the stored session's last audio stream; null when unknown (logged). */
  private async unstoredFrom(tenant: string, record: SessionRecord): Promise<number | null> {
    try {
      return await unstoredStreamFromMs(this.deps.stores.graph, tenant, record);
    } catch (err) {
      this.log.warn({ err: err instanceof Error ? err.message : String(err), session: record.id }, 'could not read where the stored audio stream ends');
      return null;
    }
  }

  /** Where the session's stored transcript ends (`storedTranscriptEndMs`); 0 when it cannot be read (logged). */
  private async transcriptEnd(tenant: string, id: string): Promise<number> {
    try {
      return await storedTranscriptEndMs(this.deps.stores.graph, tenant, id);
    } catch (err) {
      this.log.warn({ err: err instanceof Error ? err.message : String(err), session: id }, 'could not read where the stored transcript ends');
      return 0;
    }
  }

  /** The client went away: keep the session for a resume, then let it go. */
  disconnected(session: LiveSession): void {
    // A socket that closes during or after shutdown: drainAll has finished the session, and a resume
    // timer now would fire into closed stores (the process crashed on it minutes after app.close()).
    if (this.draining) return;
    const key = this.key(session.tenant, session.id);
    // Gone from the registry already (its audio stream was taken over elsewhere): nothing to wait for.
    if (this.sessions.get(key) !== session) return;
    this.markActive(session.tenant, session.id);
    clearTimeout(this.expiry.get(key));
    this.waiting.delete(key);
    this.waiting.set(key, session);
    const timer = setTimeout(() => this.finish(session, 'resume window over'), this.limits.resumeMs);
    timer.unref();
    this.expiry.set(key, timer);
    this.shedWaiting(session.tenant);
  }

  /**
   * A client was seen on the session now (`activeAt`, from which `PARLEY_SESSION_IDLE_END_MS` counts); while it
   * stays connected the idle sweep marks it again. In the background: a failed mark only ends it sooner.
   */
  private markActive(tenant: string, id: string): void {
    void this.deps.stores.graph.updateSession(tenant, id, { activeAt: new Date().toISOString() })
      .catch((err: unknown) => this.log.warn({ err: err instanceof Error ? err.message : String(err), session: id }, 'could not mark the session active'));
  }

  /** Keep the waiting sessions within their bounds: the tenant's own oldest go first. */
  private shedWaiting(tenant: string): void {
    const ofTenant = [...this.waiting.values()].filter((s) => s.tenant === tenant);
    for (const s of ofTenant.slice(0, Math.max(0, ofTenant.length - this.limits.maxConnectedPerTenant))) {
      this.finish(s, 'too many sessions of this tenant wait for a resume');
    }
    for (const s of [...this.waiting.values()].slice(0, Math.max(0, this.waiting.size - this.limits.maxResumable))) {
      this.finish(s, 'too many sessions wait for a resume');
    }
  }

  /** Let a disconnected session go: store what it still holds, then forget it. */
  private finish(session: LiveSession, reason: string): void {
    const key = this.key(session.tenant, session.id);
    if (this.waiting.get(key) !== session) return;
    this.waiting.delete(key);
    clearTimeout(this.expiry.get(key));
    this.expiry.delete(key);
    this.log.debug({ session: session.id, tenant: session.tenant, reason }, 'resumable session finished');
    void session.flush().then(() => session.close(1001, reason)).finally(() => {
      if (this.sessions.get(key) === session && !session.connected) this.remove(session.tenant, session.id);
    });
  }

  remove(tenant: string, id: string): void {
    const key = this.key(tenant, id);
    const session = this.sessions.get(key);
    session?.notify((l) => l.close?.());
    void session?.endVoice(false);
    clearTimeout(this.expiry.get(key));
    this.expiry.delete(key);
    this.waiting.delete(key);
    this.sessions.delete(key);
    this.deps.metrics.liveSessions.set(this.sessions.size);
  }

  /**
   * Graceful shutdown: in every session finish queued work and end the open turn as if speech ended
   * (transcribed, stored, its `transcript.final` sent), waiting at most `graceMs`, and as long again for a
   * turn whose storing had begun (so it is stored or named, never both); let this process's jobs consolidate
   * the session's utterances (their `memory.updated` sent) within what is left of `graceMs`; then tell the
   * client, naming where the audio not stored begins (`unstored_from_ms`) so it can resend it, and close the socket.
   */
  async drainAll(graceMs = Infinity): Promise<void> {
    this.draining = true;
    const deadline = Date.now() + graceMs;
    for (const timer of this.expiry.values()) clearTimeout(timer);
    this.expiry.clear();
    this.waiting.clear();
    const all = [...this.sessions.values()];
    await Promise.allSettled(
      all.map(async (s) => {
        const finishing = (async () => {
          await s.flush();
          await s.finishVoiceForShutdown();
          await s.flush();
        })();
        let timer: NodeJS.Timeout | undefined;
        const finished = await Promise.race([
          finishing.then(() => true, (err: unknown) => {
            s.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not finish the open turn on shutdown');
            return false;
          }),
          new Promise<boolean>((resolve) => {
            if (Number.isFinite(graceMs)) timer = setTimeout(() => resolve(false), graceMs);
          }),
        ]);
        clearTimeout(timer);
        // A turn being stored when the grace ran out is waited for (another grace at most), so it is
        // either stored or named for resend, never both.
        const settled = await s.sealVoice(graceMs);
        // The event bus closes after the sockets: a memory.updated is sent now or never on this socket.
        if (finished) await s.awaitConsolidation(Math.max(0, deadline - Date.now())).catch(() => 0);
        const from = s.unstoredAudioFromMs();
        if (!finished) s.log.warn({ unstoredFromMs: from, settled }, 'shutdown grace over before the open turn was stored');
        const resend = from === null ? '' : `; audio from ${Math.round(from)} ms of the stream on was not stored: resend it`;
        s.sendError('PARLEY_ERR_SHUTTING_DOWN', `server is shutting down; reconnect with the same session_id to resume${resend}`,
          false, from === null ? {} : { unstored_from_ms: Math.round(from) });
        await s.close(1001, 'server shutting down');
      }),
    );
    for (const s of all) this.remove(s.tenant, s.id);
  }

  private key(tenant: string, id: string): string {
    return `${tenant}\u0000${id}`;
  }
}
