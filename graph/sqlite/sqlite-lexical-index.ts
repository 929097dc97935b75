import type { LexicalDoc, LexicalFilter, LexicalHit, LexicalIndex } from '../lexical-index.js';
import type { TenantId } from '../types.js';
import { toJson, type SqliteDatabase } from './database.js';

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
CREATE VIRTUAL TABLE IF NOT EXISTS lexical_fts USING fts5(
  text, content = 'lexical_docs', content_rowid = 'rowid', tokenize = 'porter unicode61');
INSERT INTO lexical_fts (lexical_fts, rank) VALUES ('secure-delete', 1);
CREATE TRIGGER IF NOT EXISTS lexical_docs_ai AFTER INSERT ON lexical_docs BEGIN
  INSERT INTO lexical_fts (rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER IF NOT EXISTS lexical_docs_ad AFTER DELETE ON lexical_docs BEGIN
  INSERT INTO lexical_fts (lexical_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
`;

/** Words too common to help ranking; dropping them keeps FTS5 from scanning huge posting lists. */
const STOPWORDS = new Set(
  ('a an and are as at be but by did do does for from had has have he her his i if in is it its me my ' +
    'of on or our she so that the their them they this to was we were what when where which who whom ' +
    'why will with would you your how').split(' '),
);

/** The distinct query words of free text, stop words out, at most 64. */
function distinctWords(text: string): string[] {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w));
  return [...new Set(words)].slice(0, 64);
}

/** Quoted words OR-ed: a safe FTS5 query, operators impossible. */
const orQuery = (words: readonly string[]): string | null => (words.length > 0 ? words.map((w) => `"${w}"`).join(' OR ') : null);

/** Turn free text into a safe FTS5 query: every word quoted, OR-ed, operators impossible. */
export function toFtsQuery(text: string): string | null {
  return orQuery(distinctWords(text));
}

/** BM25 over SQLite FTS5 (porter stemming), with the same payload filters as the vector store. */
export class SqliteLexicalIndex implements LexicalIndex {
  private readonly statements = new Map<string, Statement>();
  private readonly docFrequencies = new Map<string, { n: number; at: number }>();
  private docTotal = { n: 0, at: -Infinity };

  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
  }

  async index(tenant: TenantId, docs: LexicalDoc[]): Promise<void> {
    const remove = this.db.prepare('DELETE FROM lexical_docs WHERE tenant = ? AND id = ?');
    const insert = this.db.prepare(`INSERT INTO lexical_docs (tenant, id, text, layer, session_id, speaker_id, addressees)
      VALUES (?, ?, ?, ?, ?, ?, ?)`);
    this.db.transaction(() => {
      for (const d of docs) {
        remove.run(tenant, d.id);
        insert.run(tenant, d.id, d.text, d.layer, d.sessionId ?? null, d.speakerId ?? null, toJson(d.addresseeIds ?? []));
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
    const fts = orQuery(this.queryWords(query));
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
      rows = this.matchCount(fts) > POOL_FIRST_RATIO * filter.ids.length ? this.poolFirst(where, params) : this.joined(where, params);
    } else {
      rows = selective ? [] : this.bestFirst(where, { ...params, n: Math.max(4 * k, 64) });
      if (rows.length < k) rows = this.joined(where, params);
    }
    return rows.map((r) => ({ id: r.id, score: -r.rank }));
  }

  /**
   * The query's words without those in half of all documents or more, once the index holds
   * `PRUNE_FROM_DOCS`: FTS5's BM25 gives such a word an idf of 1e-6, so dropping it changes no
   * ranking, yet matching it means scoring most of the index (the slow tail of live retrieval).
   * Documents that match only such words are no longer returned. A query of common words only is
   * kept whole. Counts are those BM25 uses (all tenants), reused for `COUNT_TTL_MS`.
   */
  private queryWords(text: string): string[] {
    const words = distinctWords(text);
    if (words.length === 0) return words;
    const now = performance.now();
    if (now - this.docTotal.at > COUNT_TTL_MS) {
      this.docTotal = { n: this.statement('SELECT count(*) FROM lexical_docs').pluck().get() as number, at: now };
    }
    const total = this.docTotal.n;
    if (total < PRUNE_FROM_DOCS) return words;
    const kept = words.filter((w) => 2 * this.docFrequency(w, now) < total);
    return kept.length > 0 ? kept : words;
  }

  /** Documents (all tenants) holding `word` after stemming, counted at most once per `COUNT_TTL_MS`. */
  private docFrequency(word: string, now: number): number {
    const cached = this.docFrequencies.get(word);
    if (cached && now - cached.at <= COUNT_TTL_MS) return cached.n;
    const n = this.matchCount(`"${word}"`);
    this.docFrequencies.delete(word);
    this.docFrequencies.set(word, { n, at: now });
    if (this.docFrequencies.size > COUNT_CACHE_SIZE) this.docFrequencies.delete(this.docFrequencies.keys().next().value as string);
    return n;
  }

  /** How many documents (all tenants) match `fts`; cheap next to ranking them. */
  private matchCount(fts: string): number {
    return this.statement('SELECT count(*) FROM lexical_fts WHERE lexical_fts MATCH ?').pluck().get(fts) as number;
  }

  /**
   * Pool first: the pool's rowids (filters applied) are collected once and each FTS5 match is
   * checked against that set; `+rowid` keeps FTS5 from probing each pool row, which would rerun
   * the whole query per row. The docs table is joined for the `@k` hits only.
   */
  private poolFirst(where: string[], params: Record<string, unknown>): { id: string; rank: number }[] {
    return this.statement(`SELECT d.id AS id, f.rank AS rank FROM (
          SELECT rowid, bm25(lexical_fts) AS rank FROM lexical_fts
          WHERE lexical_fts MATCH @fts AND +rowid IN (SELECT d.rowid FROM lexical_docs d WHERE ${where.join(' AND ')})
          ORDER BY rank LIMIT @k) f
        CROSS JOIN lexical_docs d ON d.rowid = f.rowid ORDER BY f.rank`)
      .all(params) as { id: string; rank: number }[];
  }

  /**
   * The `@n` best FTS5 matches, then the filters, then the first `@k`. Exact when `@k` rows come
   * back (every match left out ranks no better than those); the caller falls back to `joined`
   * otherwise.
   */
  private bestFirst(where: string[], params: Record<string, unknown>): { id: string; rank: number }[] {
    return this.statement(`SELECT d.id AS id, f.rank AS rank FROM (
          SELECT rowid, bm25(lexical_fts) AS rank FROM lexical_fts
          WHERE lexical_fts MATCH @fts ORDER BY rank LIMIT @n) f
        CROSS JOIN lexical_docs d ON d.rowid = f.rowid WHERE ${where.join(' AND ')} ORDER BY f.rank LIMIT @k`)
      .all(params) as { id: string; rank: number }[];
  }

  /** Every FTS5 match joined to its document and filtered, then the first `@k` by BM25. */
  private joined(where: string[], params: Record<string, unknown>): { id: string; rank: number }[] {
    return this.statement(`SELECT d.id AS id, bm25(lexical_fts) AS rank FROM lexical_fts
        JOIN lexical_docs d ON d.rowid = lexical_fts.rowid
        WHERE lexical_fts MATCH @fts AND ${where.join(' AND ')}
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
    const remove = this.db.prepare('DELETE FROM lexical_docs WHERE tenant = ? AND id = ?');
    this.db.transaction(() => {
      for (const id of ids) remove.run(tenant, id);
    })();
  }

  async ready(): Promise<boolean> {
    return this.db.open;
  }

  async close(): Promise<void> {
    // The shared database handle is closed by its owner.
  }
}
