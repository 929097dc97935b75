import type Database from 'better-sqlite3';
import type { BusLogger } from '../event-bus.js';
import type { SqliteDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bus_members (
  origin TEXT PRIMARY KEY, pid INTEGER NOT NULL, role TEXT NOT NULL, subscribes INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL);
`;

export interface SqliteBusMembersOptions {
  /** How often a handle refreshes its row, ms; default 5,000. A busy file is retried after 50 ms. */
  heartbeatMs?: number;
  /** A member whose heartbeat is older than this is dead: ignored, and its row deleted, ms; default 20,000. */
  deadAfterMs?: number;
  /** What the handle's process is (`server`, `worker`), for whoever reads the table; default `server`. */
  role?: string;
  logger?: BusLogger;
}

/**
 * The handles open on one SQLite file's event bus (`bus_members`): each registers on opening,
 * refreshes its heartbeat on a timer, and deletes its row on closing; a row whose heartbeat is
 * older than `deadAfterMs` (a process that died) is ignored and deleted by the next heartbeat of
 * any member (a handle that was only stalled that long comes back with its next heartbeat). The bus asks it whether another live handle reads events (then a publish must go
 * through the file) or may write them (then the file is worth reading).
 *
 * Runs on the bus's own connection (`busy_timeout = 0`): a busy file is retried on a timer.
 */
export class SqliteBusMembers {
  private readonly upsertStmt: Database.Statement<unknown[]>;
  private readonly pruneStmt: Database.Statement<unknown[]>;
  private readonly leaveStmt: Database.Statement<unknown[]>;
  private readonly readersStmt: Database.Statement<unknown[]>;
  private readonly othersStmt: Database.Statement<unknown[]>;
  private readonly roleStmt: Database.Statement<unknown[]>;
  private timer: NodeJS.Timeout | undefined;
  private left = false;

  /**
   * Register `origin` on `db` now (retrying briefly while the file is busy) and keep its heartbeat;
   * `subscribes` says whether the handle has subscribers at the time of each heartbeat.
   */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly origin: string,
    private readonly subscribes: () => boolean,
    private readonly options: SqliteBusMembersOptions = {},
  ) {
    retryBusySync(() => db.exec(SCHEMA));
    this.upsertStmt = db.prepare(`INSERT INTO bus_members (origin, pid, role, subscribes, heartbeat_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (origin) DO UPDATE SET subscribes = excluded.subscribes, heartbeat_at = excluded.heartbeat_at`);
    this.pruneStmt = db.prepare('DELETE FROM bus_members WHERE heartbeat_at < ?');
    this.leaveStmt = db.prepare('DELETE FROM bus_members WHERE origin = ?');
    const live = 'SELECT EXISTS (SELECT 1 FROM bus_members WHERE origin != ? AND heartbeat_at >= ?';
    this.readersStmt = db.prepare(`${live} AND subscribes = 1) AS yes`).pluck();
    this.othersStmt = db.prepare(`${live}) AS yes`).pluck();
    this.roleStmt = db.prepare(`${live} AND role = ?) AS yes`).pluck();
    // Registered before the constructor returns: a process that publishes right after sees this one.
    retryBusySync(() => this.writeRow());
    this.schedule(this.options.heartbeatMs ?? 5000);
  }

  /**
   * Write this handle's row now (and delete dead members' rows); on a busy file, again 50 ms later.
   * Called on the heartbeat timer and whenever the handle's subscribers come or go.
   */
  beat(): void {
    if (this.left || !this.db.open) return;
    let delay = this.options.heartbeatMs ?? 5000;
    try {
      this.writeRow();
    } catch (err) {
      if (!isBusy(err)) this.options.logger?.warn({ err: (err as Error).message }, 'event bus heartbeat failed');
      delay = Math.min(delay, 50);
    }
    this.schedule(delay);
  }

  /** True when another live handle has subscribers: an event published here must be written for it. */
  othersRead(): boolean {
    return this.ask(this.readersStmt);
  }

  /** True when another live handle is open: it may write events for this one. */
  othersOpen(): boolean {
    return this.ask(this.othersStmt);
  }

  /** True when another live handle has `role` (`worker`: an `npm run worker` shares the file). */
  othersWithRole(role: string): boolean {
    return this.ask(this.roleStmt, role);
  }

  /** Stop the heartbeat and delete this handle's row (retried while the file is busy; else it dies of age). */
  async leave(): Promise<void> {
    this.left = true;
    clearTimeout(this.timer);
    for (let attempt = 0; this.db.open; attempt++) {
      try {
        this.leaveStmt.run(this.origin);
        return;
      } catch (err) {
        if (!isBusy(err) || attempt >= 200) {
          this.options.logger?.warn({ err: (err as Error).message }, 'event bus membership not removed');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      }
    }
  }

  private writeRow(): void {
    const now = Date.now();
    this.db.transaction(() => {
      this.upsertStmt.run(this.origin, process.pid, this.options.role ?? 'server', this.subscribes() ? 1 : 0, now);
      this.pruneStmt.run(now - this.deadAfterMs());
    }).immediate();
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.beat(), delay);
    this.timer.unref();
  }

  private deadAfterMs(): number {
    return this.options.deadAfterMs ?? 20_000;
  }

  /** Run a yes/no question about the other members; a file that cannot be read answers yes (the safe side). */
  private ask(stmt: Database.Statement<unknown[]>, ...more: unknown[]): boolean {
    try {
      return stmt.get(this.origin, Date.now() - this.deadAfterMs(), ...more) === 1;
    } catch (err) {
      this.options.logger?.warn({ err: (err as Error).message }, 'event bus membership unreadable');
      return true;
    }
  }
}

/** Run `work`, retrying (briefly, synchronously) while another connection holds the file's write lock. */
export function retryBusySync(work: () => void): void {
  for (let attempt = 0; ; attempt++) {
    try {
      work();
      return;
    } catch (err) {
      if (!isBusy(err) || attempt >= 50) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** True for SQLite's "database is locked" (another connection is writing). */
export function isBusy(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  // Extended codes too (SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_TIMEOUT, …): the file was held by another connection.
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
