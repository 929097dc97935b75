import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { endStoredSession } from '../../pipelines/interaction/session-end.js';
import type { EventBus } from '../../graph/event-bus.js';
import type { LiveSessionDeps } from './live-session.js';
import { endLiveSession } from './message-handlers.js';
import type { SessionRegistry } from './session-registry.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Ends sessions no client came back to (`PARLEY_SESSION_IDLE_END_MS`); null when that is 0. */
    idleSessions: IdleSessionSweeper | null;
  }
}

/** How many idle sessions one sweep ends at most (the next sweep takes the rest). */
const SWEEP_BATCH = 200;
/** Longest time between two sweeps, ms. */
const MAX_SWEEP_INTERVAL_MS = 60_000;
/** How many sweeps a session that could not be ended is left out of before it is tried again. */
const FAILED_BACKOFF_SWEEPS = 10;

/** Options of {@link IdleSessionSweeper}. */
export interface IdleSessionSweeperOptions {
  /** How many idle sessions one sweep ends at most; default 200. */
  batch?: number;
}

/** What ending a session needs: this process's live sessions, the stores, and the bus to the others. */
export interface SessionEnding {
  registry: SessionRegistry;
  deps: LiveSessionDeps;
  events: Pick<EventBus, 'publish'>;
}

/**
 * End a session as `POST /v1/sessions/{id}/end` does: a live session of this process as `session.end` would
 * (its open turn stored first), then the stored end with its job (once: ending an ended session answers the
 * same end), and a socket on another server through the bus. Null when there is no such session.
 */
export async function endSessionEverywhere(
  ending: SessionEnding, tenant: string, id: string, why?: string,
): Promise<{ endedAt: string; jobId: string } | null> {
  const live = ending.registry.get(tenant, id);
  if (live) await endLiveSession(live, ending.deps, why);
  const end = await endStoredSession(ending.deps.stores, tenant, id);
  if (end && !live) await ending.events.publish(tenant, id, { type: 'session.ended', payload: {} });
  return end;
}

/**
 * Ends the sessions whose `/v1/stream` client never came back: a session with no client connected for
 * `idleMs` (its `activeAt`) is ended as `POST /v1/sessions/{id}/end` would, whether it waits for a resume
 * here, was let go after its resume window, or was orphaned by a crash of the server that held it. Each
 * sweep first marks the sessions connected here as active, so with several servers on one store a
 * session connected to any of them is never ended; ends made at once by two servers are one end.
 */
/** What a session ended by the sweep tells a client that reaches it while it ends. */
export const IDLE_ENDING = 'no client came back to it within PARLEY_SESSION_IDLE_END_MS';

export class IdleSessionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private readonly batch: number;
  /**
   * Sessions whose end failed (`tenant\0id`), with the sweep time (ms) before which they are left out: a
   * batch of sessions that keep failing does not hold back the idle sessions after them.
   */
  private readonly failed = new Map<string, number>();

  constructor(
    private readonly ending: SessionEnding, readonly idleMs: number, private readonly log: FastifyBaseLogger,
    options: IdleSessionSweeperOptions = {},
  ) {
    if (!(idleMs > 0)) throw new RangeError(`idleMs must be above 0, not ${idleMs}`);
    this.batch = options.batch ?? SWEEP_BATCH;
    if (!(Number.isInteger(this.batch) && this.batch > 0)) throw new RangeError(`batch must be an integer above 0, not ${this.batch}`);
  }

  /** Time between sweeps, ms: half the idle time, at most a minute, so a live session is marked well within it. */
  get intervalMs(): number {
    return Math.min(this.idleMs / 2, MAX_SWEEP_INTERVAL_MS);
  }

  /** Sweep now (start-up: sessions orphaned by a crash), then every {@link intervalMs}. */
  async start(): Promise<void> {
    await this.sweep().catch((err: unknown) => this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'idle session sweep failed'));
    this.timer = setInterval(() => {
      void this.sweep().catch((err: unknown) => this.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'idle session sweep failed'));
    }, this.intervalMs);
    this.timer.unref();
  }

  /**
   * Stop sweeping and wait for a sweep under way, which stops after the session it is ending: shutdown does
   * not wait for the rest of its batch (the next server's sweeps end them).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => 0);
  }

  /**
   * One sweep at `now` (ms since the epoch): mark the sessions connected here active, then end those idle
   * since before `now - idleMs`. Returns how many it ended. One at a time: a sweep asked for while one runs
   * waits for it and runs after.
   */
  async sweep(now = Date.now()): Promise<number> {
    const previous = this.running;
    const run = (async () => {
      await previous?.catch(() => 0);
      return this.sweepOnce(now);
    })();
    this.running = run;
    return run;
  }

  private async sweepOnce(now: number): Promise<number> {
    if (this.stopped) return 0;
    const { registry, deps } = this.ending;
    const at = new Date(now).toISOString();
    await Promise.all(registry.connectedSessions().map((s) => deps.stores.graph.updateSession(s.tenant, s.id, { activeAt: at })));
    // Enough rows that the sessions left out after failing cannot fill the batch.
    const listed = await deps.stores.graph.idleSessions(new Date(now - this.idleMs).toISOString(), this.batch + this.failed.size);
    const idle = listed.filter((s) => (this.failed.get(failedKey(s.tenant, s.id)) ?? 0) <= now).slice(0, this.batch);
    this.forgetFailed(now, listed);
    let ended = 0;
    for (const { tenant, id } of idle) {
      if (this.stopped) break;
      // Connected here after the marks above were read: not idle.
      if (registry.get(tenant, id)?.connected) continue;
      try {
        const end = await endSessionEverywhere(this.ending, tenant, id, IDLE_ENDING);
        this.failed.delete(failedKey(tenant, id));
        if (!end) continue;
        ended += 1;
        this.log.info({ session: id, tenant, idleMs: this.idleMs }, 'session ended: no client came back to it within PARLEY_SESSION_IDLE_END_MS');
      } catch (err) {
        this.endFailed(tenant, id, now, err);
      }
    }
    return ended;
  }

  /** Leave a session whose end failed out of the next sweeps; said once, not on every later try. */
  private endFailed(tenant: string, id: string, now: number, err: unknown): void {
    const key = failedKey(tenant, id);
    if (!this.failed.has(key)) {
      this.log.warn({ session: id, tenant, err: err instanceof Error ? err.message : String(err), retryInSweeps: FAILED_BACKOFF_SWEEPS },
        'could not end an idle session; left out of the next sweeps');
    }
    this.failed.set(key, now + FAILED_BACKOFF_SWEEPS * this.intervalMs);
  }

  /** Drop the failed sessions due again that are no longer idle (ended or resumed elsewhere). */
  private forgetFailed(now: number, listed: Array<{ tenant: string; id: string }>): void {
    const still = new Set(listed.map((s) => failedKey(s.tenant, s.id)));
    for (const [key, until] of this.failed) if (until <= now && !still.has(key)) this.failed.delete(key);
  }
}

const failedKey = (tenant: string, id: string): string => `${tenant}\0${id}`;

/** Decorates `app.idleSessions` and runs it from start-up (its first sweep before the server is ready) to close. */
export const idleSessionsPlugin = fp(async (app: FastifyInstance): Promise<void> => {
  const idleMs = app.config.sessionIdleEndMs;
  const sweeper = idleMs > 0 ? new IdleSessionSweeper({ registry: app.sessions, deps: app.liveSessionDeps, events: app.events }, idleMs, app.log) : null;
  app.decorate('idleSessions', sweeper);
  if (!sweeper) return;
  app.addHook('onReady', () => sweeper.start());
  app.addHook('preClose', () => sweeper.stop());
}, { name: 'parley-idle-sessions', dependencies: ['parley-stream', 'parley-event-bus'] });
