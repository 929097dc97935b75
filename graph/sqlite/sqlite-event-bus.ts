import type Database from 'better-sqlite3';
import type { BusEvent, BusHandler, BusLogger, EventBus, SessionEvent } from '../event-bus.js';
import { dispatch } from '../memory-event-bus.js';
import { newId } from '../core/ids.js';
import type { TenantId } from '../types.js';
import { openDatabase, type SqliteDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bus_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS bus_events_created ON bus_events (created_at);
`;

export interface SqliteEventBusOptions {
  /** How often a handle with subscribers looks for other processes' events, ms; default 100. */
  pollMs?: number;
  /** Events older than this are deleted, ms; default 60,000 (a process reads them within a poll). */
  keepMs?: number;
  /**
   * How often a handle deletes the events older than `keepMs`, ms; default 10,000. It does on opening,
   * and then when it publishes or polls, so no row outlives `keepMs` + this by much while a server runs.
   */
  pruneEveryMs?: number;
  /** Most events read per poll; default 500. */
  batch?: number;
  logger?: BusLogger;
}

/**
 * The embedded event bus across the processes that share one SQLite file (the server and
 * `npm run worker` on the embedded queue): a publish goes to this handle's own subscribers at once
 * (as `MemoryEventBus` does) and into a `bus_events` table, which every handle with subscribers
 * tails (`pollMs`) for the events other handles wrote. Rows are pruned after `keepMs`; they hold
 * memory texts, so erasing a person deletes their tenant's rows at once (`forgetTenant`). Delivery is best effort,
 * as on every bus: a process reads only the events written after it opened.
 *
 * The table is on a connection of its own, written without waiting inside SQLite (the main
 * connection may hold the write lock across awaits, see `SqliteKeyedLock.open`): a busy file is
 * retried on a timer, and commits skip the fsync (an event has nothing to keep across a power loss).
 */
export class SqliteEventBus implements EventBus {
  private readonly handlers = new Set<BusHandler>();
  private readonly origin = newId('bus');
  private readonly insertStmt: Database.Statement<unknown[]>;
  private readonly readStmt: Database.Statement<unknown[]>;
  private readonly pruneStmt: Database.Statement<unknown[]>;
  private readonly forgetStmt: Database.Statement<unknown[]>;
  private lastId: number;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private lastPrune = 0;
  private closed = false;
  /** Writes in publish order, so other processes read them in that order. */
  private tail: Promise<void> = Promise.resolve();

  static open(file: string, options: SqliteEventBusOptions = {}): SqliteEventBus {
    const db = openDatabase(file);
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 0');
    return new SqliteEventBus(db, options);
  }

  /** A bus on `db`, a connection of its own (closed by `close`). */
  constructor(private readonly db: SqliteDatabase, private readonly options: SqliteEventBusOptions = {}) {
    retryBusySync(() => db.exec(SCHEMA));
    this.insertStmt = db.prepare('INSERT INTO bus_events (origin, body, created_at) VALUES (?, ?, ?)');
    this.readStmt = db.prepare('SELECT id, origin, body FROM bus_events WHERE id > ? ORDER BY id LIMIT ?');
    this.pruneStmt = db.prepare('DELETE FROM bus_events WHERE created_at < ?');
    this.forgetStmt = db.prepare("DELETE FROM bus_events WHERE json_extract(body, '$.tenant') = ?");
    this.lastId = (db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM bus_events').get() as { id: number }).id;
    this.prune(Date.now());
  }

  async publish(tenant: TenantId, sessionId: string, event: SessionEvent): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
    const body = JSON.stringify({ ...event, tenant, sessionId });
    const write = this.tail.then(() => this.write(body));
    this.tail = write.catch(() => undefined);
    // This process's subscribers get it now, as on the in-process bus.
    await Promise.resolve();
    dispatch([...this.handlers], JSON.parse(body) as BusEvent, this.options.logger);
    await write;
  }

  /** Delete every kept event of `tenant` (erasure), after this handle's own writes; retried while the file is busy. */
  async forgetTenant(tenant: TenantId): Promise<void> {
    await this.tail;
    for (let attempt = 0; ; attempt++) {
      if (!this.db.open) return;
      try {
        this.forgetStmt.run(tenant);
        return;
      } catch (err) {
        if (!isBusy(err) || attempt >= 200) throw err;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      }
    }
  }

  subscribe(handler: BusHandler): () => void {
    this.handlers.add(handler);
    this.schedule();
    return () => {
      this.handlers.delete(handler);
      if (this.handlers.size === 0) clearTimeout(this.timer);
    };
  }

  async ready(): Promise<boolean> {
    return !this.closed && this.db.open;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.handlers.clear();
    await this.tail;
    if (this.db.open) this.db.close();
  }

  private async write(body: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (!this.db.open) throw new Error('event bus is closed');
      try {
        const now = Date.now();
        this.insertStmt.run(this.origin, body, now);
        this.prune(now);
        return;
      } catch (err) {
        if (!isBusy(err) || attempt >= 200) throw err;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      }
    }
  }

  /** Delete the events older than `keepMs`, at most every `pruneEveryMs`; a busy file waits for the next time. */
  private prune(now: number): void {
    if (now - this.lastPrune < (this.options.pruneEveryMs ?? 10_000)) return;
    try {
      this.pruneStmt.run(now - (this.options.keepMs ?? 60_000));
      this.lastPrune = now;
    } catch (err) {
      if (!isBusy(err)) this.options.logger?.warn({ err: (err as Error).message }, 'event bus prune failed');
    }
  }

  private schedule(): void {
    if (this.closed || this.handlers.size === 0 || this.polling) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), this.options.pollMs ?? 100);
    this.timer.unref();
  }

  /** Deliver the events other handles wrote since the last poll, in the order they were written. */
  private poll(): void {
    if (this.closed || !this.db.open) return;
    this.polling = true;
    try {
      for (;;) {
        const batch = this.options.batch ?? 500;
        const rows = this.readStmt.all(this.lastId, batch) as { id: number; origin: string; body: string }[];
        for (const row of rows) {
          this.lastId = row.id;
          if (row.origin === this.origin) continue;
          let event: BusEvent;
          try {
            event = JSON.parse(row.body) as BusEvent;
          } catch {
            this.options.logger?.warn({ id: row.id }, 'unparsable event on bus');
            continue;
          }
          dispatch([...this.handlers], event, this.options.logger);
        }
        if (rows.length < batch) break;
      }
      this.prune(Date.now());
    } catch (err) {
      if (!isBusy(err)) this.options.logger?.warn({ err: (err as Error).message }, 'event bus read failed');
    } finally {
      this.polling = false;
      this.schedule();
    }
  }
}

/** Run `work`, retrying (briefly, synchronously) while another connection holds the file's write lock. */
function retryBusySync(work: () => void): void {
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
function isBusy(err: unknown): boolean {
  return (err as { code?: string }).code === 'SQLITE_BUSY';
}
