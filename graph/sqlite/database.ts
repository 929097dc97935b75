import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

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
