import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConnectionGate } from './connection-gate.js';

export type SqliteDatabase = Database.Database;

/**
 * Open (creating if needed) the embedded store's SQLite file. WAL journal with `synchronous = FULL`,
 * so a committed transaction survives a crash of the process or the machine.
 * Pass `:memory:` for a throwaway database.
 */
export function openDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Deleted rows are overwritten, so an erased person's words do not linger in free pages.
  db.pragma('secure_delete = ON');
  return db;
}

/** Encode a JSON value for a TEXT column. */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

/** Decode a TEXT column written by `toJson`. */
export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  return JSON.parse(text) as T;
}

/**
 * One transaction around async store calls on `db`, kept to itself: sections run one at a time, and store
 * calls from outside a section that go through the connection's gate (`ConnectionGate.wrap`) wait for it
 * rather than join its transaction. See `ConnectionGate`.
 */
export function sqliteAtomically(db: SqliteDatabase): <T>(work: () => Promise<T>) => Promise<T> {
  const gate = ConnectionGate.of(db);
  return (work) => gate.atomically(work);
}

/**
 * Fold the write-ahead log back into the file and truncate it (after an erasure, so the erased rows leave the WAL
 * too), outside any atomic section: a checkpoint run while another request's transaction is open fails with
 * SQLITE_LOCKED after the erasure itself has committed.
 */
export function truncateWal(db: SqliteDatabase): Promise<void> {
  return ConnectionGate.of(db).call(async () => {
    db.pragma('wal_checkpoint(TRUNCATE)');
  });
}

/**
 * Add each of `columns` (`decl`: its type and default) that `table` lacks, to a database created before they existed.
 * Read first without a transaction (no write lock in WAL mode: a file another process is writing to opens at once);
 * only when a column is missing is it read again inside the write transaction, taken at once (`BEGIN IMMEDIATE`; a
 * savepoint inside one open already): two processes opening the same old file at once (a server and a worker) add each
 * column once, the second finding it added, never a "duplicate column name".
 */
export function addMissingColumns(db: SqliteDatabase, table: string, columns: ReadonlyArray<{ column: string; decl: string }>): void {
  const missing = (): Array<{ column: string; decl: string }> => {
    const have = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name));
    return columns.filter(({ column }) => !have.has(column));
  };
  if (missing().length === 0) return;
  db.transaction(() => {
    for (const { column, decl } of missing()) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${decl}`);
  }).immediate();
}
