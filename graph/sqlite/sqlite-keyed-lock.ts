import type Database from 'better-sqlite3';
import { LeaseKeyedLock, type LeaseKeyedLockOptions } from '../lease-keyed-lock.js';
import { openDatabase, type SqliteDatabase } from './database.js';
import { isBusy } from './sqlite-bus-members.js';

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
  #owned = false;

  /**
   * A lock on a connection of its own to `file`, closed by `close`. Its commits skip the fsync
   * (`synchronous = NORMAL`, still safe from corruption in WAL mode): a lock row has nothing to
   * keep across a power loss, which ends its holder too.
   */
  static open(file: string, options: LeaseKeyedLockOptions = {}): SqliteKeyedLock {
    const db = openDatabase(file);
    db.pragma('synchronous = NORMAL');
    // Never wait inside SQLite: the process's main connection may hold the write lock across a few
    // awaits (`Stores.atomically`), and a synchronous busy wait here would stall the event loop it
    // needs to finish. A busy file is "not taken yet" (polled again) or "release later" instead.
    db.pragma('busy_timeout = 0');
    const lock = new SqliteKeyedLock(db, options);
    lock.#owned = true;
    return lock;
  }

  /** A lock on the caller's connection `db` (which the caller closes). */
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
    try {
      return this.#take.run(key, token, now + this.leaseMs, now).changes === 1;
    } catch (err) {
      if (isBusy(err)) return false;
      throw err;
    }
  }

  protected async renew(keys: string[], token: string): Promise<boolean> {
    const until = Date.now() + this.leaseMs;
    return this.db.transaction(() => keys.map((k) => this.#renew.run(until, k, token).changes).every((n) => n === 1))();
  }

  protected async release(keys: string[], token: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      if (!this.db.open) return;
      try {
        this.db.transaction(() => { for (const k of keys) this.#release.run(k, token); })();
        return;
      } catch (err) {
        // Past a few tries the rows are left to lapse with their lease.
        if (!isBusy(err) || attempt >= 20) throw err;
        await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      }
    }
  }

  async close(): Promise<void> {
    if (this.#owned && this.db.open) this.db.close();
  }
}
