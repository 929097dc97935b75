import type { FastifyBaseLogger } from 'fastify';
import { LiveSession, type LiveSessionDeps } from './live-session.js';
import type { TurnListenerFactory } from '../../pipelines/retrieval/turn-listener.js';

/**
 * The live sessions of this process, by tenant and id. A disconnected session stays for
 * `resumeMs` so a reconnect with the same `session_id` picks it up again.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly expiry = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly deps: LiveSessionDeps,
    private readonly resumeMs: number,
    private readonly log: FastifyBaseLogger,
    /** Factories of the listeners every new session gets (filled by plugins before listening). */
    readonly listenerFactories: TurnListenerFactory[] = [],
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get(tenant: string, id: string): LiveSession | undefined {
    return this.sessions.get(this.key(tenant, id));
  }

  /** The live session, or a new one continuing the stored session's event numbering. */
  async open(tenant: string, id: string): Promise<{ session: LiveSession; resumed: boolean }> {
    const key = this.key(tenant, id);
    clearTimeout(this.expiry.get(key));
    this.expiry.delete(key);
    const live = this.sessions.get(key);
    if (live) return { session: live, resumed: true };
    const existing = await this.deps.stores.graph.getSession(tenant, id);
    const record = existing ?? (await this.deps.stores.graph.openSession(tenant, id, new Date().toISOString()));
    const session = new LiveSession(tenant, id, record.lastEventSeq, this.deps, this.log.child({ session: id, tenant }));
    session.listeners = this.listenerFactories.map((make) => make(session));
    session.onFinished = () => this.remove(tenant, id);
    this.sessions.set(key, session);
    this.deps.metrics.liveSessions.set(this.sessions.size);
    return { session, resumed: existing !== null };
  }

  /** The client went away: keep the session for a resume, then let it go. */
  disconnected(session: LiveSession): void {
    const key = this.key(session.tenant, session.id);
    clearTimeout(this.expiry.get(key));
    const timer = setTimeout(() => {
      void session.flush().then(() => session.close(1001, 'resume window over')).finally(() => this.remove(session.tenant, session.id));
    }, this.resumeMs);
    timer.unref();
    this.expiry.set(key, timer);
  }

  remove(tenant: string, id: string): void {
    const key = this.key(tenant, id);
    const session = this.sessions.get(key);
    session?.notify((l) => l.close?.());
    void session?.endVoice(false);
    clearTimeout(this.expiry.get(key));
    this.expiry.delete(key);
    this.sessions.delete(key);
    this.deps.metrics.liveSessions.set(this.sessions.size);
  }

  /** Graceful shutdown: finish queued work in every session, tell clients, close their sockets. */
  async drainAll(): Promise<void> {
    const all = [...this.sessions.values()];
    await Promise.allSettled(
      all.map(async (s) => {
        await s.flush();
        s.sendError('PARLEY_ERR_SHUTTING_DOWN', 'server is shutting down; reconnect with the same session_id to resume');
        await s.close(1001, 'server shutting down');
      }),
    );
    for (const s of all) this.remove(s.tenant, s.id);
  }

  private key(tenant: string, id: string): string {
    return `${tenant}\u0000${id}`;
  }
}
