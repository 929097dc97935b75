import type Database from 'better-sqlite3';
import { LeaseKeyedLock, type LeaseKeyedLockOptions } from '../lease-keyed-lock.js';
import type { SqliteDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS keyed_locks (key TEXT PRIMARY KEY, token TEXT NOT NULL, lease_until INTEGER NOT NULL);
`;

/**
 * `KeyedLock` across the processes that share one SQLite file (the server and `npm run worker`
 * with the embedded queue): a key is a row holding a token and a lease end, taken when absent or
 * lapsed, renewed while held, deleted only by its token.
 */
export class SqliteKeyedLock extends LeaseKeyedLock {
  readonly #take: Database.Statement<unknown[]>;
  readonly #renew: Database.Statement<unknown[]>;
  readonly #release: Database.Statement<unknown[]>;

  constructor(private readonly db: SqliteDatabase, options: LeaseKeyedLockOptions = {}) {
    super(options);
    db.exec(SCHEMA);
    this.#take = db.prepare(`INSERT INTO keyed_locks (key, token, lease_until) VALUES (?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until WHERE keyed_locks.lease_until < ?`);
    this.#renew = db.prepare('UPDATE keyed_locks SET lease_until = ? WHERE key = ? AND token = ?');
    this.#release = db.prepare('DELETE FROM keyed_locks WHERE key = ? AND token = ?');
  }

  protected async tryTake(key: string, token: string): Promise<boolean> {
    const now = Date.now();
    return this.#take.run(key, token, now + this.leaseMs, now).changes === 1;
  }

  protected async renew(keys: string[], token: string): Promise<boolean> {
    const until = Date.now() + this.leaseMs;
    return this.db.transaction(() => keys.map((k) => this.#renew.run(until, k, token).changes).every((n) => n === 1))();
  }

  protected async release(keys: string[], token: string): Promise<void> {
    if (!this.db.open) return;
    this.db.transaction(() => { for (const k of keys) this.#release.run(k, token); })();
  }

  async close(): Promise<void> {}
}
