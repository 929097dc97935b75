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
 * One step of bringing a file written by an older build up to a store's schema: `done` reads whether the file has it
 * (reads only), `apply` adds it.
 */
export interface SchemaStep {
  done(db: SqliteDatabase): boolean;
  apply(db: SqliteDatabase): void;
}

/**
 * Apply each of `steps` the file lacks, in order, in one transaction (a crash part-way leaves the file as it was). Read
 * first without a transaction (no write lock in WAL mode: a file another process is writing to opens at once, however
 * long its transaction); only when a step is not done is the write transaction taken at once (`BEGIN IMMEDIATE`; a
 * savepoint inside one open already), and each step read again inside it before it is applied: two processes opening
 * the same old file at once (a server and a worker) apply each step once, the second finding it done, never a
 * "duplicate column name". A step's `done` is read only once the steps before it are done, so it may read what they add.
 */
export function migrateSchema(db: SqliteDatabase, steps: readonly SchemaStep[]): void {
  if (steps.every((step) => step.done(db))) return;
  db.transaction(() => {
    for (const step of steps) if (!step.done(db)) step.apply(db);
  }).immediate();
}

/** The step that adds `column` (`decl`: its type and default) to `table`. */
export function columnStep(table: string, column: string, decl: string): SchemaStep {
  return {
    done: (db) => (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).some((c) => c.name === column),
    apply: (db) => db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${decl}`),
  };
}

/** The tables and indexes `sql` creates (`CREATE [UNIQUE|VIRTUAL] TABLE|INDEX [IF NOT EXISTS] name`). */
function createdNames(sql: string): string[] {
  return [...sql.matchAll(/\bCREATE\s+(?:UNIQUE\s+|VIRTUAL\s+)?(?:TABLE|INDEX)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)/gi)].map((m) => m[1]!);
}

/**
 * The step that runs `sql` (CREATE statements) when a table or index it creates is missing, then `fill` (the new
 * rows that what it created owes the rows already stored). A statement of `sql` whose object may exist then says
 * `IF NOT EXISTS`.
 */
export function createStep(sql: string, fill?: (db: SqliteDatabase) => void): SchemaStep {
  const names = createdNames(sql);
  if (names.length === 0) throw new Error(`createStep: the SQL creates no table or index: ${sql.slice(0, 80)}`);
  const count = 'SELECT count(*) FROM sqlite_master WHERE name IN (SELECT value FROM json_each(?))';
  return {
    done: (db) => db.prepare(count).pluck().get(JSON.stringify(names)) === names.length,
    apply: (db) => {
      db.exec(sql);
      fill?.(db);
    },
  };
}

/**
 * Add each of `columns` (`decl`: its type and default) that `table` lacks, to a database created before they existed
 * (`migrateSchema`: no write lock unless one is missing; two processes opening the same old file add each column once).
 */
export function addMissingColumns(db: SqliteDatabase, table: string, columns: ReadonlyArray<{ column: string; decl: string }>): void {
  migrateSchema(db, columns.map(({ column, decl }) => columnStep(table, column, decl)));
}
