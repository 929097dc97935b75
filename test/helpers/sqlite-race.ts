/**
 * Two processes opening one old SQLite file at once (a server and `npm run worker` on an upgrade): `mine` is this
 * process's connection as a store's migration sees it; right after that migration reads `pragma` (a
 * `PRAGMA table_info(...)`) inside its write transaction (a read before that, which takes no lock, is let through),
 * the other process (`theirs`, with no busy wait) runs `theirWrite` once. `tried()` says how that went: `added` (it
 * wrote between this one's read and write: this one's read is stale), `waited` (SQLITE_BUSY: this one holds the write
 * lock) or undefined (the read never happened).
 */
import type { SqliteDatabase } from '../../graph/sqlite/database.js';

export function racingMigration(mine: SqliteDatabase, theirs: SqliteDatabase, pragma: string, theirWrite: string): { db: SqliteDatabase; tried(): 'added' | 'waited' | undefined } {
  theirs.pragma('busy_timeout = 0');
  let theirTry: 'added' | 'waited' | undefined;
  const db = new Proxy(mine, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (sql: string) => {
          const stmt = target.prepare(sql);
          if (sql !== pragma || theirTry || !target.inTransaction) return stmt;
          return { all: () => {
            const rows = stmt.all();
            try {
              theirs.exec(theirWrite);
              theirTry = 'added';
            } catch (err) {
              if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
              theirTry = 'waited';
            }
            return rows;
          } };
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db, tried: () => theirTry };
}

/** The column names of `table`. */
export function columnsOf(db: SqliteDatabase, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
}
