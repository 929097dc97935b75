import { ConnectionGate, noTransactionOpen } from '../sqlite/connection-gate.js';
import type { SqliteDatabase } from '../sqlite/database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  target TEXT NOT NULL,
  operation TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  last_error TEXT,
  created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (target, status, id);
`;

/** A write waiting to be forwarded to a networked backend. */
export interface OutboxEntry {
  id: number;
  /** Which backend forwards it, e.g. `queue`, `vectors`, `lexical`. */
  target: string;
  /** What to do there, e.g. `enqueue`, `upsert`, `delete`. */
  operation: string;
  /** The operation's arguments, as JSON. */
  payload: unknown;
  /** `dead` entries failed with an error that retrying cannot fix; they are kept for inspection. */
  status: 'pending' | 'dead';
  attempts: number;
  /** Epoch milliseconds. */
  nextAttemptAt: number;
  lastError: string | null;
  createdAt: number;
}

interface Row {
  id: number; target: string; operation: string; payload: string; status: 'pending' | 'dead';
  attempts: number; next_attempt_at: number; last_error: string | null; created_at: number;
}

function toEntry(row: Row): OutboxEntry {
  return {
    id: row.id, target: row.target, operation: row.operation, payload: JSON.parse(row.payload) as unknown,
    status: row.status, attempts: row.attempts, nextAttemptAt: row.next_attempt_at, lastError: row.last_error,
    createdAt: row.created_at,
  };
}

/**
 * A durable log of writes bound for networked backends, kept in the embedded SQLite file
 * (WAL, `synchronous = FULL`): once `record` returns, the write survives a crash and an outage of the
 * backend, and an `OutboxForwarder` delivers it, in order per target, with retries.
 */
export class Outbox {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
  }

  /** Durably record a write; returns its entry id. Synchronous: the row is committed on return. */
  record(target: string, operation: string, payload: unknown, now = Date.now()): number {
    const info = this.db
      .prepare('INSERT INTO outbox (target, operation, payload, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(target, operation, JSON.stringify(payload), now, now);
    return Number(info.lastInsertRowid);
  }

  /**
   * Run the synchronous outbox step `fn` on the file's connection gate: inside an atomic section at once (it commits
   * with the section), otherwise after the sections queued before it, so it never joins another request's transaction.
   * Only the outbox's own rows go through here, never a networked call (a slow backend must not hold up the file).
   */
  gated<T>(fn: () => T): Promise<T> {
    return ConnectionGate.of(this.db).call(async () => fn());
  }

  /**
   * A transaction is open on the file (`Stores.atomically`): a write recorded now commits with it, or
   * not at all, so it must not be forwarded before that commit (nor awaited on the network while the
   * transaction holds the file).
   */
  inTransaction(): boolean {
    return this.db.inTransaction;
  }

  /** Resolves once no transaction is open on the file; a synchronous call made at once then commits on its own. */
  noTransactionOpen(): Promise<void> {
    return noTransactionOpen(this.db);
  }

  /** The oldest pending entries of `target`, in order, up to `limit`. */
  pendingFor(target: string, limit = 100): OutboxEntry[] {
    const rows = this.db
      .prepare(`SELECT * FROM outbox WHERE target = ? AND status = 'pending' ORDER BY id LIMIT ?`)
      .all(target, limit) as Row[];
    return rows.map(toEntry);
  }

  /** Targets that have pending entries. */
  targets(): string[] {
    const rows = this.db.prepare(`SELECT DISTINCT target FROM outbox WHERE status = 'pending'`).all() as { target: string }[];
    return rows.map((r) => r.target);
  }

  get(id: number): OutboxEntry | null {
    const row = this.db.prepare('SELECT * FROM outbox WHERE id = ?').get(id) as Row | undefined;
    return row ? toEntry(row) : null;
  }

  /** The entry was delivered: forget it. */
  complete(id: number): void {
    this.db.prepare('DELETE FROM outbox WHERE id = ?').run(id);
  }

  /** Delivery failed and may succeed later: count the attempt and hold the entry until `nextAttemptAt`. */
  retryLater(id: number, error: string, nextAttemptAt: number): void {
    this.db
      .prepare('UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?')
      .run(error, nextAttemptAt, id);
  }

  /** Delivery can never succeed (e.g. a rejected payload): keep the entry, stop retrying it. */
  markDead(id: number, error: string): void {
    this.db
      .prepare(`UPDATE outbox SET attempts = attempts + 1, last_error = ?, status = 'dead' WHERE id = ?`)
      .run(error, id);
  }

  /** Pending entries, of one target or all. */
  pending(target?: string): number {
    const row = (target === undefined
      ? this.db.prepare(`SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending'`).get()
      : this.db.prepare(`SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending' AND target = ?`).get(target)) as { n: number };
    return row.n;
  }

  /** Entries that will not be retried, oldest first. */
  dead(target?: string): OutboxEntry[] {
    const rows = (target === undefined
      ? this.db.prepare(`SELECT * FROM outbox WHERE status = 'dead' ORDER BY id`).all()
      : this.db.prepare(`SELECT * FROM outbox WHERE status = 'dead' AND target = ? ORDER BY id`).all(target)) as Row[];
    return rows.map(toEntry);
  }
}
