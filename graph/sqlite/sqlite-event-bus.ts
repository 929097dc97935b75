import type Database from 'better-sqlite3';
import type { BusEvent, BusHandler, BusMessage, EventBus } from '../event-bus.js';
import { dispatch } from '../memory-event-bus.js';
import { newId } from '../core/ids.js';
import type { TenantId } from '../types.js';
import { openDatabase, type SqliteDatabase } from './database.js';
import { isBusy, retryBusySync, SqliteBusMembers, type SqliteBusMembersOptions } from './sqlite-bus-members.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bus_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS bus_events_created ON bus_events (created_at);
`;

export interface SqliteEventBusOptions extends SqliteBusMembersOptions {
  /** How often a handle with subscribers reads other handles' events while another handle is open, ms; default 100. */
  pollMs?: number;
  /**
   * How often a handle with subscribers and no other handle open on the file looks for one, ms; default 1,000.
   * The first events of a handle that opens later wait up to this long (they are in the file, none is lost).
   */
  memberCheckMs?: number;
  /** Events older than this are deleted, ms; default 60,000 (a process reads them within a poll). */
  keepMs?: number;
  /**
   * How often a handle deletes the events older than `keepMs`, ms; default 10,000. It does on opening,
   * and then when it publishes or polls, so no row outlives `keepMs` + this by much while a server runs.
   */
  pruneEveryMs?: number;
  /** Most events read per poll; default 500. */
  batch?: number;
}

/**
 * The embedded event bus across the processes that share one SQLite file (the server and
 * `npm run worker` on the embedded queue): a publish goes to this handle's own subscribers at once
 * (as `MemoryEventBus` does) and, when another live handle on the file has subscribers (see
 * `SqliteBusMembers`), into a `bus_events` table. A handle with subscribers tails that table
 * (`pollMs`) while another handle is open, and otherwise only looks for one (`memberCheckMs`), so a
 * lone server writes no event and reads nothing. Rows are pruned after `keepMs`; they hold memory texts,
 * so erasing a person deletes their tenant's rows at once (`forgetTenant`). Delivery is best effort,
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
  private readonly maxIdStmt: Database.Statement<unknown[]>;
  private readonly oldStmt: Database.Statement<unknown[]>;
  private readonly members: SqliteBusMembers;
  private lastId: number;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  /** Whether the last look found another handle open or events unread, so the table is read every `pollMs`. */
  private reading = false;
  private lastMemberCheck = 0;
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
    this.maxIdStmt = db.prepare('SELECT COALESCE(MAX(id), 0) FROM bus_events').pluck();
    this.oldStmt = db.prepare('SELECT EXISTS (SELECT 1 FROM bus_events WHERE created_at < ?)').pluck();
    this.lastId = this.maxIdStmt.get() as number;
    this.prune(Date.now());
    this.members = new SqliteBusMembers(db, this.origin, () => this.handlers.size > 0, options);
  }

  async publish(tenant: TenantId, sessionId: string, event: BusMessage): Promise<void> {
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
    const first = this.handlers.size === 0;
    this.handlers.add(handler);
    if (first && !this.closed) {
      // Tell the other handles at once that events must now be written for this one, and look for them soon.
      this.members.beat();
      this.lastMemberCheck = 0;
      this.schedule(this.options.pollMs ?? 100);
    }
    return () => {
      if (!this.handlers.delete(handler) || this.handlers.size > 0) return;
      clearTimeout(this.timer);
      this.members.beat();
    };
  }

  async ready(): Promise<boolean> {
    return !this.closed && this.db.open;
  }

  /** Whether a live `npm run worker` (a member with role `worker`) has this file open; true when the file cannot be read. */
  async workersAlive(): Promise<boolean> {
    return !this.closed && this.db.open ? this.members.othersWithRole('worker') : true;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.handlers.clear();
    await this.tail;
    await this.members.leave();
    if (this.db.open) this.db.close();
  }

  /** Write `body` for the other handles, if another live one has subscribers; retried while the file is busy. */
  private async write(body: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (!this.db.open) throw new Error('event bus is closed');
      if (!this.members.othersRead()) return;
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

  /**
   * Delete the events older than `keepMs`, at most every `pruneEveryMs` (writing only when there is one);
   * a busy file waits for the next time.
   */
  private prune(now: number): void {
    if (now - this.lastPrune < (this.options.pruneEveryMs ?? 10_000)) return;
    try {
      const before = now - (this.options.keepMs ?? 60_000);
      if (this.oldStmt.get(before) === 1) this.pruneStmt.run(before);
      this.lastPrune = now;
    } catch (err) {
      if (!isBusy(err)) this.options.logger?.warn({ err: (err as Error).message }, 'event bus prune failed');
    }
  }

  private schedule(delay = this.reading ? this.options.pollMs ?? 100 : this.options.memberCheckMs ?? 1000): void {
    if (this.closed || this.handlers.size === 0 || this.polling) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), delay);
    this.timer.unref();
  }

  /**
   * Every `memberCheckMs`, look whether the table is worth reading: another handle is open, or events are
   * unread (a handle that wrote them and closed since). If so, deliver the events other handles wrote since
   * the last read, in the order they were written.
   */
  private poll(): void {
    if (this.closed || !this.db.open) return;
    this.polling = true;
    try {
      const now = Date.now();
      if (now - this.lastMemberCheck >= (this.options.memberCheckMs ?? 1000)) {
        this.lastMemberCheck = now;
        this.reading = this.members.othersOpen() || (this.maxIdStmt.get() as number) > this.lastId;
      }
      if (this.reading) this.readNew();
      this.prune(Date.now());
    } catch (err) {
      if (!isBusy(err)) this.options.logger?.warn({ err: (err as Error).message }, 'event bus read failed');
    } finally {
      this.polling = false;
      this.schedule();
    }
  }

  /** Deliver the events other handles wrote since the last read, in the order they were written. */
  private readNew(): void {
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
  }
}
