import type { LexicalDoc, LexicalFilter, LexicalHit, LexicalIndex } from '../lexical-index.js';
import type { TenantId } from '../types.js';
import { toJson, type SqliteDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS lexical_docs (
  rowid INTEGER PRIMARY KEY, tenant TEXT NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL,
  layer TEXT NOT NULL, session_id TEXT, speaker_id TEXT, addressees TEXT NOT NULL DEFAULT '[]',
  UNIQUE (tenant, id));
CREATE VIRTUAL TABLE IF NOT EXISTS lexical_fts USING fts5(
  text, content = 'lexical_docs', content_rowid = 'rowid', tokenize = 'porter unicode61');
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

/** Turn free text into a safe FTS5 query: every word quoted, OR-ed, operators impossible. */
export function toFtsQuery(text: string): string | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w));
  const unique = [...new Set(words)].slice(0, 64);
  return unique.length > 0 ? unique.map((w) => `"${w}"`).join(' OR ') : null;
}

/** BM25 over SQLite FTS5 (porter stemming), with the same payload filters as the vector store. */
export class SqliteLexicalIndex implements LexicalIndex {
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

  async search(tenant: TenantId, query: string, k: number, filter?: LexicalFilter): Promise<LexicalHit[]> {
    const fts = toFtsQuery(query);
    if (!fts || k <= 0) return [];
    const where = ['d.tenant = @tenant'];
    const params: Record<string, unknown> = { tenant, fts, k };
    if (filter?.layer !== undefined) {
      where.push('d.layer IN (SELECT value FROM json_each(@layers))');
      params.layers = toJson(Array.isArray(filter.layer) ? filter.layer : [filter.layer]);
    }
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
    if (filter?.ids !== undefined) {
      where.push('d.id IN (SELECT value FROM json_each(@ids))');
      params.ids = toJson(filter.ids);
    }
    const rows = this.db
      .prepare(`SELECT d.id AS id, bm25(lexical_fts) AS rank FROM lexical_fts
        JOIN lexical_docs d ON d.rowid = lexical_fts.rowid
        WHERE lexical_fts MATCH @fts AND ${where.join(' AND ')}
        ORDER BY rank LIMIT @k`)
      .all(params) as { id: string; rank: number }[];
    return rows.map((r) => ({ id: r.id, score: -r.rank }));
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
