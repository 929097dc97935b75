import type { Logger } from 'pino';
import {
  DEFAULT_JOB_MAX_RUN_MS, isStoreOutage, outageDelay, runWithin, outageGaveUpError, type DeadLetter, type EnqueueOptions, type JobHandler, type JobQueue, type QueueStats, type WorkerOptions,
} from '../job-queue.js';
import type Database from 'better-sqlite3';
import { addMissingColumns, type SqliteDatabase } from './database.js';
import { detached, noTransactionOpen } from './connection-gate.js';
import { newId } from '../core/ids.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, data TEXT NOT NULL, state TEXT NOT NULL,
  attempts_made INTEGER NOT NULL DEFAULT 0, max_attempts INTEGER NOT NULL, backoff_ms INTEGER NOT NULL,
  run_at INTEGER NOT NULL, error TEXT, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS jobs_due ON jobs (name, state, run_at);
`;

/** Finished jobs are kept this long so a re-enqueue with the same id stays a no-op. */
const KEEP_DONE_MS = 24 * 3600 * 1000;

interface JobRow {
  id: string; name: string; data: string; attempts_made: number; max_attempts: number;
  backoff_ms: number; error: string | null; updated_at: number;
  /** Tries in a row that met a store outage (not counted in attempts_made). */
  outages: number;
  /** When the first of those tries failed, ms since the epoch; null when the last try met none. */
  outage_since: number | null;
}

interface Registration {
  handler: JobHandler;
  concurrency: number;
  running: number;
}

export interface SqliteJobQueueOptions {
  /** How often idle workers look for due jobs (retries come due without a wake-up); default 200 ms. */
  pollMs?: number;
  /**
   * How long a claim holds a running job, ms (default 15,000). The claiming process renews it every
   * third of that while the job runs; a job whose lease lapsed (its process died) runs again.
   */
  leaseMs?: number;
  /**
   * The longest a job waits out a store outage, from its first try that met it, before it is failed
   * into the dead letters with its data kept (replayable with `retryDeadLetter`), ms; default 0: for
   * as long as the outage lasts.
   */
  maxOutageWaitMs?: number;
  /**
   * The longest one try of a job runs, ms (default `DEFAULT_JOB_MAX_RUN_MS`; `0`: no limit). Past it the lease is no
   * longer renewed, the try counts as failed (logged with the job's name and id) and the job is retried or
   * dead-lettered as any failure is (`runWithin`).
   */
  maxRunMs?: number;
  logger?: Logger;
}

/**
 * The embedded job queue: jobs live in the SQLite file, so nothing is lost when the process dies.
 * Several processes may share the file (the server and `npm run worker`): each claim carries a
 * lease that its process renews while the job runs, so a job runs in one process at a time, and
 * one left by a process that died runs again once its lease lapses.
 */
export class SqliteJobQueue implements JobQueue {
  private readonly registrations = new Map<string, Registration>();
  private readonly controller = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  /** This handle's claims, so a lapsed lease taken over by another process is never overwritten. */
  private readonly owner = newId('q');
  private readonly leases: NodeJS.Timeout;
  /** Statements run on every poll and every job: prepared once (preparing is most of their cost). */
  private readonly claimStmt: Database.Statement<unknown[]>;
  private readonly pendingStmt: Database.Statement<unknown[]>;
  /** Whether this handle has dropped the finished jobs older than `KEEP_DONE_MS` (on its first `process`). */
  private pruned = false;

  constructor(private readonly db: SqliteDatabase, private readonly options: SqliteJobQueueOptions = {}) {
    db.exec(SCHEMA);
    // A server and a worker opening an older file at once: one adds the columns, the other waits and finds them.
    addMissingColumns(db, 'jobs', [
      { column: 'owner', decl: 'TEXT' }, { column: 'lease_until', decl: 'INTEGER' },
      { column: 'outages', decl: 'INTEGER NOT NULL DEFAULT 0' }, { column: 'outage_since', decl: 'INTEGER' },
    ]);
    this.pollMs = options.pollMs ?? 200;
    this.leaseMs = options.leaseMs ?? 15_000;
    this.claimStmt = db.prepare(`UPDATE jobs SET state = 'active', attempts_made = attempts_made + 1, updated_at = ?, owner = ?, lease_until = ?
        WHERE id = (SELECT id FROM jobs WHERE name = ? AND run_at <= ?
                      AND (state = 'waiting' OR (state = 'active' AND (lease_until IS NULL OR lease_until < ?)))
                    ORDER BY run_at LIMIT 1)
        RETURNING *`);
    this.pendingStmt = db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE name = ? AND state IN ('waiting', 'active')");
    this.leases = setInterval(() => this.renewLeases(), Math.max(10, Math.floor(this.leaseMs / 3)));
    this.leases.unref();
  }

  async enqueue<T>(name: string, data: T, options: EnqueueOptions = {}): Promise<string> {
    const id = options.jobId ?? newId('job');
    const now = Date.now();
    this.db
      .prepare(`INSERT OR IGNORE INTO jobs (id, name, data, state, max_attempts, backoff_ms, run_at, updated_at)
        VALUES (?, ?, ?, 'waiting', ?, ?, ?, ?)`)
      .run(id, name, JSON.stringify(data), options.attempts ?? 5, options.backoffMs ?? 500, now, now);
    this.schedule(0);
    return id;
  }

  /**
   * Run `name`'s jobs in this process. The first call also drops the finished jobs older than
   * `KEEP_DONE_MS`: a handle that only enqueues or reads (an API-only process, a bench asking a kept
   * store) writes nothing when it opens.
   */
  process<T>(name: string, handler: JobHandler<T>, options: WorkerOptions = {}): void {
    if (!this.pruned) {
      this.db.prepare("DELETE FROM jobs WHERE state = 'done' AND updated_at < ?").run(Date.now() - KEEP_DONE_MS);
      this.pruned = true;
    }
    this.registrations.set(name, {
      handler: handler as JobHandler,
      concurrency: Math.max(1, options.concurrency ?? 1),
      running: 0,
    });
    this.schedule(0);
  }

  async pending(name: string): Promise<number> {
    const row = this.pendingStmt.get(name) as { n: number };
    return row.n;
  }

  async stats(name: string): Promise<QueueStats> {
    const now = Date.now();
    const row = this.db
      .prepare(`SELECT COALESCE(SUM(state = 'waiting'), 0) AS waiting, COALESCE(SUM(state = 'active'), 0) AS running,
          MIN(CASE WHEN state = 'waiting' AND run_at <= ? THEN run_at END) AS oldest, COALESCE(SUM(outages > 0), 0) AS outage
        FROM jobs WHERE name = ? AND state IN ('waiting', 'active')`)
      .get(now, name) as { waiting: number; running: number; oldest: number | null; outage: number };
    return {
      waiting: row.waiting, running: row.running, oldestWaitingMs: row.oldest === null ? null : Math.max(0, now - row.oldest),
      outageWaiting: row.outage,
    };
  }

  async deadLetters(name: string): Promise<DeadLetter[]> {
    const rows = this.db
      .prepare("SELECT * FROM jobs WHERE name = ? AND state = 'dead' ORDER BY updated_at")
      .all(name) as JobRow[];
    return rows.map((r) => ({
      id: r.id, name: r.name, data: JSON.parse(r.data) as unknown, error: r.error ?? '',
      attempts: r.attempts_made, failedAt: new Date(r.updated_at).toISOString(),
    }));
  }

  async retryDeadLetter(name: string, id: string): Promise<boolean> {
    const now = Date.now();
    const changes = this.db
      .prepare(`UPDATE jobs SET state = 'waiting', attempts_made = 0, outages = 0, outage_since = NULL, run_at = ?, updated_at = ?
        WHERE id = ? AND name = ? AND state = 'dead'`)
      .run(now, now, id, name).changes;
    this.schedule(0);
    return changes > 0;
  }

  async drain(name: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.pending(name)) > 0) {
      if (Date.now() > deadline) throw new Error(`queue ${name} did not drain within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async forget(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db
      .prepare(`DELETE FROM jobs WHERE state != 'active' AND EXISTS (SELECT 1 FROM json_each(?) j WHERE instr(jobs.data, j.value) > 0)`)
      .run(JSON.stringify(ids)).changes;
  }

  async ready(): Promise<boolean> {
    return this.db.open && !this.closed;
  }

  async close(timeoutMs = 10_000): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    // Leases are renewed until the running jobs settle.
    void Promise.allSettled([...this.inFlight]).then(() => clearInterval(this.leases));
    const settled = Promise.allSettled([...this.inFlight]);
    const timedOut = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), timeoutMs).unref()),
    ]);
    if (timedOut) {
      this.controller.abort(new Error('queue closing'));
      await settled;
    }
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    // An `enqueue` inside an atomic section schedules too: the jobs this timer starts are not part of it.
    this.timer = detached(() => setTimeout(() => this.tick(), delayMs));
    this.timer.unref();
  }

  private tick(): void {
    if (this.closed) return;
    // An atomic section is open on the connection (awaiting): a claim now would commit or roll back with it.
    if (this.db.inTransaction) {
      this.schedule(5);
      return;
    }
    // This process's own running jobs first: after a stall longer than a lease (a busy machine) the claim below would
    // otherwise take a job still running here as abandoned and run it a second time beside the first, which the queue
    // then reports done (and `drain` returns) while that second run still writes.
    if (this.inFlight.size > 0) this.renewLeases();
    for (const [name, reg] of this.registrations) {
      while (reg.running < reg.concurrency) {
        const row = this.claim(name);
        if (!row) break;
        reg.running++;
        const run = this.run(reg, row).finally(() => {
          reg.running--;
          this.inFlight.delete(run);
          this.schedule(0);
        });
        this.inFlight.add(run);
      }
    }
    this.schedule(this.pollMs);
  }

  /** Take one due job: waiting and due, or active under a lease that lapsed (its process died). */
  private claim(name: string): JobRow | undefined {
    const now = Date.now();
    return this.claimStmt.get(now, this.owner, now + this.leaseMs, name, now, now) as JobRow | undefined;
  }

  private renewLeases(): void {
    if (!this.db.open || this.db.inTransaction) return;
    const now = Date.now();
    this.db.prepare("UPDATE jobs SET lease_until = ? WHERE owner = ? AND state = 'active'").run(now + this.leaseMs, this.owner);
  }

  private async run(reg: Registration, row: JobRow): Promise<void> {
    try {
      await runWithin(
        reg.handler, { id: row.id, name: row.name, data: JSON.parse(row.data) as unknown, attempt: row.attempts_made },
        this.controller.signal, this.options.maxRunMs ?? DEFAULT_JOB_MAX_RUN_MS,
      );
      await noTransactionOpen(this.db);
      this.db.prepare("UPDATE jobs SET state = 'done', error = NULL, updated_at = ?, lease_until = NULL, outages = 0, outage_since = NULL WHERE id = ? AND owner = ?")
        .run(Date.now(), row.id, this.owner);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await noTransactionOpen(this.db);
      if (isStoreOutage(err)) {
        this.waitOutOutage(row, message);
        return;
      }
      const dead = row.attempts_made >= row.max_attempts;
      const delay = row.backoff_ms * 2 ** (row.attempts_made - 1);
      this.db
        .prepare('UPDATE jobs SET state = ?, error = ?, run_at = ?, updated_at = ?, lease_until = NULL, outages = 0, outage_since = NULL WHERE id = ? AND owner = ?')
        .run(dead ? 'dead' : 'waiting', message, Date.now() + delay, Date.now(), row.id, this.owner);
      this.options.logger?.warn({ jobId: row.id, job: row.name, attempt: row.attempts_made, dead, err: message }, 'job failed');
    }
  }

  /**
   * A store is down: the claim's attempt is given back and the job waits, for as long as the outage
   * lasts, or until it has waited `maxOutageWaitMs` since its first such try: then it is dead, data kept.
   */
  private waitOutOutage(row: JobRow, message: string): void {
    const now = Date.now();
    const since = row.outage_since ?? now;
    const limit = this.options.maxOutageWaitMs ?? 0;
    if (limit > 0 && now - since >= limit) {
      this.db
        .prepare(`UPDATE jobs SET state = 'dead', attempts_made = attempts_made - 1, error = ?, updated_at = ?, lease_until = NULL
            WHERE id = ? AND owner = ?`)
        .run(outageGaveUpError(now - since, message), now, row.id, this.owner);
      this.options.logger?.error({ jobId: row.id, job: row.name, outages: row.outages + 1, waitedMs: now - since, err: message },
        'store unavailable for longer than the queue waits; job moved to the dead letters');
      return;
    }
    const delay = outageDelay(row.backoff_ms, row.outages);
    this.db
      .prepare(`UPDATE jobs SET state = 'waiting', attempts_made = attempts_made - 1, outages = outages + 1, outage_since = ?, error = ?,
          run_at = ?, updated_at = ?, lease_until = NULL WHERE id = ? AND owner = ?`)
      .run(since, message, now + delay, now, row.id, this.owner);
    this.options.logger?.warn({ jobId: row.id, job: row.name, outages: row.outages + 1, retryInMs: delay, err: message }, 'store unavailable; job retried later');
  }
}
