import type { LexicalDoc, LexicalFilter, LexicalHit, LexicalIndex } from '../lexical-index.js';
import type { TenantId } from '../types.js';
import { createHash } from 'node:crypto';
import { words } from '../lexical-terms.js';
import { migrateSchema, toJson, type SchemaStep, type SqliteDatabase } from './database.js';

type Statement = ReturnType<SqliteDatabase['prepare']>;

/** A pool is searched pool-first when the query matches more than this many documents per pool id. */
const POOL_FIRST_RATIO = 4;
/** From this many documents on, query words in half of them or more are dropped (see `queryWords`). */
const PRUNE_FROM_DOCS = 1000;
/** How long a counted document frequency (and the document total) is reused, ms. */
const COUNT_TTL_MS = 60_000;
/** Most words whose document frequency is remembered. */
const COUNT_CACHE_SIZE = 10_000;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS lexical_docs (
  rowid INTEGER PRIMARY KEY, tenant TEXT NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL,
  layer TEXT NOT NULL, session_id TEXT, speaker_id TEXT, addressees TEXT NOT NULL DEFAULT '[]',
  UNIQUE (tenant, id));
CREATE TABLE IF NOT EXISTS lexical_tenants (tenant TEXT PRIMARY KEY, fts TEXT NOT NULL UNIQUE);
`;

/** The FTS5 table of a tenant: a name derived from the tenant id (any characters), safe to splice. */
function ftsName(tenant: string): string {
  return `lexical_fts_${createHash('sha1').update(tenant).digest('hex').slice(0, 20)}`;
}

/** Create a tenant's FTS5 table over `lexical_docs` (external content: the text is stored once). */
function createFts(db: SqliteDatabase, name: string): void {
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${name} USING fts5(
      text, content = 'lexical_docs', content_rowid = 'rowid', tokenize = 'porter unicode61');
    INSERT INTO ${name} (${name}, rank) VALUES ('secure-delete', 1);`);
}

/**
 * Move an index of the earlier layout (one FTS5 table, `lexical_fts`, for every tenant, kept by triggers) to one table
 * per tenant, in one transaction (`migrateSchema`): a crash leaves either layout whole, and of two processes opening
 * the old file at once the second finds it moved.
 */
const SHARED_FTS_STEP: SchemaStep = {
  done: (db) => db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'lexical_fts'").get() === undefined,
  apply: (db) => {
    const tenants = db.prepare('SELECT DISTINCT tenant FROM lexical_docs').pluck().all() as string[];
    for (const tenant of tenants) {
      const name = ftsName(tenant);
      createFts(db, name);
      db.prepare('INSERT OR IGNORE INTO lexical_tenants (tenant, fts) VALUES (?, ?)').run(tenant, name);
      db.prepare(`INSERT INTO ${name} (rowid, text) SELECT rowid, text FROM lexical_docs WHERE tenant = ?`).run(tenant);
    }
    db.exec('DROP TRIGGER IF EXISTS lexical_docs_ai; DROP TRIGGER IF EXISTS lexical_docs_ad; DROP TABLE lexical_fts;');
  },
};

/**
 * The distinct query words of free text, stop words out, at most 64: the word pattern and stop
 * words of `graph/lexical-terms.ts` (shared with the networked indexes); FTS5 stems them itself.
 */
function distinctWords(text: string): string[] {
  return [...new Set(words(text))].slice(0, 64);
}

/** Quoted words OR-ed: a safe FTS5 query, operators impossible. */
const orQuery = (words: readonly string[]): string | null => (words.length > 0 ? words.map((w) => `"${w}"`).join(' OR ') : null);

/** Turn free text into a safe FTS5 query: every word quoted, OR-ed, operators impossible. */
export function toFtsQuery(text: string): string | null {
  return orQuery(distinctWords(text));
}

/**
 * BM25 over SQLite FTS5 (porter stemming), with the same payload filters as the vector store. Each
 * tenant has an FTS5 table of its own (`lexical_fts_<hash>`, listed in `lexical_tenants`), so
 * BM25's statistics (document count, average length, document frequencies) are the tenant's: one
 * tenant's words never change another tenant's ranking. Documents are stored once, in
 * `lexical_docs`, which every table reads as external content; the tables are kept in step by
 * `index` and `delete`, in the same transaction. Fine for the embedded deployment's tenants (one
 * per API key); each table costs a few pages.
 */
export class SqliteLexicalIndex implements LexicalIndex {
  private readonly statements = new Map<string, Statement>();
  private readonly docFrequencies = new Map<string, { n: number; at: number }>();
  private readonly docTotals = new Map<string, { n: number; at: number }>();
  private readonly tables = new Map<string, string>();

  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
    migrateSchema(db, [SHARED_FTS_STEP]);
    for (const row of db.prepare('SELECT tenant, fts FROM lexical_tenants').all() as { tenant: string; fts: string }[]) {
      this.tables.set(row.tenant, row.fts);
    }
  }

  /** The tenant's FTS5 table, created on its first document; null (for reads) when it has none. */
  private table(tenant: string, create: boolean): string | null {
    const known = this.tables.get(tenant)
      // Another process sharing the file may have created it.
      ?? (this.db.prepare('SELECT fts FROM lexical_tenants WHERE tenant = ?').pluck().get(tenant) as string | undefined);
    if (known) this.tables.set(tenant, known);
    if (known || !create) return known ?? null;
    const name = ftsName(tenant);
    createFts(this.db, name);
    this.db.prepare('INSERT OR IGNORE INTO lexical_tenants (tenant, fts) VALUES (?, ?)').run(tenant, name);
    this.tables.set(tenant, name);
    return name;
  }

  async index(tenant: TenantId, docs: LexicalDoc[]): Promise<void> {
    if (docs.length === 0) return;
    const fts = this.table(tenant, true)!;
    const find = this.db.prepare('SELECT rowid, text FROM lexical_docs WHERE tenant = ? AND id = ?');
    const unindex = this.db.prepare(`INSERT INTO ${fts} (${fts}, rowid, text) VALUES ('delete', ?, ?)`);
    const remove = this.db.prepare('DELETE FROM lexical_docs WHERE rowid = ?');
    const insert = this.db.prepare(`INSERT INTO lexical_docs (tenant, id, text, layer, session_id, speaker_id, addressees)
      VALUES (?, ?, ?, ?, ?, ?, ?)`);
    const add = this.db.prepare(`INSERT INTO ${fts} (rowid, text) VALUES (?, ?)`);
    this.db.transaction(() => {
      for (const d of docs) {
        const old = find.get(tenant, d.id) as { rowid: number; text: string } | undefined;
        if (old) {
          unindex.run(old.rowid, old.text);
          remove.run(old.rowid);
        }
        const { lastInsertRowid } = insert.run(tenant, d.id, d.text, d.layer, d.sessionId ?? null, d.speakerId ?? null, toJson(d.addresseeIds ?? []));
        add.run(lastInsertRowid, d.text);
      }
    })();
  }

  /**
   * Top `k` by BM25, best first. Three plans, same results (ties in BM25 come in no set order):
   * a pool is searched pool-first (`poolFirst`) when the query matches many more documents than
   * the pool holds, else joined; with tenant and layer filters alone the best few FTS5 matches are
   * ranked first and filtered after (`bestFirst`), falling back to the joined plan when too few
   * pass; selective filters (session, speaker, addressee) use the joined plan (`joined`).
   */
  async search(tenant: TenantId, query: string, k: number, filter?: LexicalFilter): Promise<LexicalHit[]> {
    const table = this.table(tenant, false);
    if (!table) return [];
    const fts = orQuery(this.queryWords(table, query));
    if (!fts || k <= 0) return [];
    if (filter?.ids !== undefined && filter.ids.length === 0) return [];
    const where = ['d.tenant = @tenant'];
    const params: Record<string, unknown> = { tenant, fts, k };
    if (filter?.layer !== undefined) {
      where.push('d.layer IN (SELECT value FROM json_each(@layers))');
      params.layers = toJson(Array.isArray(filter.layer) ? filter.layer : [filter.layer]);
    }
    const selective = filter?.sessionId !== undefined || filter?.speakerId !== undefined || filter?.addresseeId !== undefined;
    if (filter?.sessionId !== undefined) {
      where.push('d.session_id = @sessionId');
      params.sessionId = filter.sessionId;
    }
    if (filter?.speakerId !== undefined) {
      where.push('d.speaker_id = @speakerId');
      params.speakerId = filter.speakerId;
    }
    if (filter?.addresseeId !== undefined) {
      where.push('EXISTS (SELECT 1 FROM json_each(d.addressees) WHERE value = @addresseeId)');
      params.addresseeId = filter.addresseeId;
    }
    let rows: { id: string; rank: number }[];
    if (filter?.ids !== undefined) {
      where.push('d.id IN (SELECT value FROM json_each(@ids))');
      params.ids = toJson(filter.ids);
      rows = this.matchCount(table, fts) > POOL_FIRST_RATIO * filter.ids.length ? this.poolFirst(table, where, params) : this.joined(table, where, params);
    } else {
      rows = selective ? [] : this.bestFirst(table, where, { ...params, n: Math.max(4 * k, 64) });
      if (rows.length < k) rows = this.joined(table, where, params);
    }
    return rows.map((r) => ({ id: r.id, score: -r.rank }));
  }

  /**
   * The query's words without those in half of the tenant's documents or more, once it holds
   * `PRUNE_FROM_DOCS`: FTS5's BM25 gives such a word an idf of 1e-6, so dropping it changes no
   * ranking, yet matching it means scoring most of the index (the slow tail of live retrieval).
   * Documents that match only such words are no longer returned. A query of common words only is
   * kept whole. Counts are those BM25 uses (the tenant's table), reused for `COUNT_TTL_MS`.
   */
  private queryWords(table: string, text: string): string[] {
    const words = distinctWords(text);
    if (words.length === 0) return words;
    const now = performance.now();
    let total = this.docTotals.get(table);
    if (!total || now - total.at > COUNT_TTL_MS) {
      total = { n: this.statement(`SELECT count(*) FROM ${table}`).pluck().get() as number, at: now };
      this.docTotals.set(table, total);
    }
    if (total.n < PRUNE_FROM_DOCS) return words;
    const kept = words.filter((w) => 2 * this.docFrequency(table, w, now) < total.n);
    return kept.length > 0 ? kept : words;
  }

  /** The tenant's documents holding `word` after stemming, counted at most once per `COUNT_TTL_MS`. */
  private docFrequency(table: string, word: string, now: number): number {
    const key = `${table}\u0000${word}`;
    const cached = this.docFrequencies.get(key);
    if (cached && now - cached.at <= COUNT_TTL_MS) return cached.n;
    const n = this.matchCount(table, `"${word}"`);
    this.docFrequencies.delete(key);
    this.docFrequencies.set(key, { n, at: now });
    if (this.docFrequencies.size > COUNT_CACHE_SIZE) this.docFrequencies.delete(this.docFrequencies.keys().next().value as string);
    return n;
  }

  /** How many of the tenant's documents match `fts`; cheap next to ranking them. */
  private matchCount(table: string, fts: string): number {
    return this.statement(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck().get(fts) as number;
  }

  /**
   * Pool first: the pool's rowids (filters applied) are collected once and each FTS5 match is
   * checked against that set; `+rowid` keeps FTS5 from probing each pool row, which would rerun
   * the whole query per row. The docs table is joined for the `@k` hits only.
   */
  private poolFirst(table: string, where: string[], params: Record<string, unknown>): { id: string; rank: number }[] {
    return this.statement(`SELECT d.id AS id, f.rank AS rank FROM (
          SELECT rowid, bm25(${table}) AS rank FROM ${table}
          WHERE ${table} MATCH @fts AND +rowid IN (SELECT d.rowid FROM lexical_docs d WHERE ${where.join(' AND ')})
          ORDER BY rank LIMIT @k) f
        CROSS JOIN lexical_docs d ON d.rowid = f.rowid ORDER BY f.rank`)
      .all(params) as { id: string; rank: number }[];
  }

  /**
   * The `@n` best FTS5 matches, then the filters, then the first `@k`. Exact when `@k` rows come
   * back (every match left out ranks no better than those); the caller falls back to `joined`
   * otherwise.
   */
  private bestFirst(table: string, where: string[], params: Record<string, unknown>): { id: string; rank: number }[] {
    return this.statement(`SELECT d.id AS id, f.rank AS rank FROM (
          SELECT rowid, bm25(${table}) AS rank FROM ${table}
          WHERE ${table} MATCH @fts ORDER BY rank LIMIT @n) f
        CROSS JOIN lexical_docs d ON d.rowid = f.rowid WHERE ${where.join(' AND ')} ORDER BY f.rank LIMIT @k`)
      .all(params) as { id: string; rank: number }[];
  }

  /** Every FTS5 match joined to its document and filtered, then the first `@k` by BM25. */
  private joined(table: string, where: string[], params: Record<string, unknown>): { id: string; rank: number }[] {
    return this.statement(`SELECT d.id AS id, bm25(${table}) AS rank FROM ${table}
        JOIN lexical_docs d ON d.rowid = ${table}.rowid
        WHERE ${table} MATCH @fts AND ${where.join(' AND ')}
        ORDER BY rank LIMIT @k`)
      .all(params) as { id: string; rank: number }[];
  }

  /** A prepared statement, cached by its text (one per filter combination). */
  private statement(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  async delete(tenant: TenantId, ids: string[]): Promise<void> {
    const fts = this.table(tenant, false);
    if (!fts || ids.length === 0) return;
    const find = this.db.prepare('SELECT rowid, text FROM lexical_docs WHERE tenant = ? AND id = ?');
    const unindex = this.db.prepare(`INSERT INTO ${fts} (${fts}, rowid, text) VALUES ('delete', ?, ?)`);
    const remove = this.db.prepare('DELETE FROM lexical_docs WHERE rowid = ?');
    this.db.transaction(() => {
      for (const id of ids) {
        const old = find.get(tenant, id) as { rowid: number; text: string } | undefined;
        if (!old) continue;
        unindex.run(old.rowid, old.text);
        remove.run(old.rowid);
      }
    })();
  }

  async ready(): Promise<boolean> {
    return this.db.open;
  }

  async close(): Promise<void> {
    // The shared database handle is closed by its owner.
  }
}
