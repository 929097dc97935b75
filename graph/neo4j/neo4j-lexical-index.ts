import { createHash } from 'node:crypto';
import type { LexicalDoc, LexicalFilter, LexicalHit, LexicalIndex } from '../lexical-index.js';
import { bm25Idf, bm25Tf, queryTerms, terms } from '../lexical-terms.js';
import type { TenantId } from '../types.js';
import { toNum, type Neo4jOptions } from './neo4j-connection.js';
import { Neo4jStoreBase, stringList } from './neo4j-store-base.js';

/** The full-text index every keyword query goes through. */
export const LEXICAL_INDEX = 'parley_lexical';

/** Schema statements run once at start-up; each is idempotent. */
export const LEXICAL_SCHEMA = [
  'CREATE CONSTRAINT parley_lexical_key IF NOT EXISTS FOR (n:LexicalDoc) REQUIRE (n.tenant, n.id) IS UNIQUE',
  'CREATE INDEX parley_lexical_tenant IF NOT EXISTS FOR (n:LexicalDoc) ON (n.tenant)',
  // The text is tokenised in the client (`lexical-terms`), so Lucene only splits on spaces: the same
  // terms as the Qdrant index. `tenantKey` is one token, so the tenant is part of the Lucene query.
  `CREATE FULLTEXT INDEX ${LEXICAL_INDEX} IF NOT EXISTS FOR (n:LexicalDoc) ON EACH [n.terms, n.tenantKey]
   OPTIONS {indexConfig: {\`fulltext.analyzer\`: 'whitespace', \`fulltext.eventually_consistent\`: false}}`,
  `CALL db.awaitIndex('${LEXICAL_INDEX}', 300)`,
];

/** Documents written per transaction. */
const WRITE_BATCH = 500;

/** One Lucene token for a stored tenant id (any characters), so the index can match it exactly. */
function tenantKey(storedTenant: string): string {
  return `t${createHash('sha1').update(storedTenant).digest('hex').slice(0, 32)}`;
}

/**
 * `LexicalIndex` on a Neo4j 5 Lucene full-text index. Documents are `(:LexicalDoc {tenant, id,
 * terms, length, layer, sessionId, speakerId, addresseeIds})`; `terms` is the text run through the
 * shared tokeniser (`graph/lexical-terms.ts`: stop words out, Porter2 stems), the text itself is
 * not stored.
 *
 * Ranking is BM25 with the tenant's own statistics: Lucene is used as the inverted index only
 * (`tenantKey:… AND (terms:… OR …)` returns every matching document of the tenant), and the
 * scores are computed here from the tenant's document count, average length and per-term document
 * frequencies, so one tenant's words never change another tenant's ranking (Lucene's own scores
 * would use index-wide statistics). Cost grows with the number of the tenant's documents that hold
 * a query term; filters are applied after the statistics are taken, as in SQLite FTS5.
 */
export class Neo4jLexicalIndex extends Neo4jStoreBase implements LexicalIndex {
  constructor(options: Neo4jOptions) {
    super(options, LEXICAL_SCHEMA);
  }

  async index(tenant: TenantId, docs: LexicalDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await this.init();
    const t = this.t(tenant);
    for (let i = 0; i < docs.length; i += WRITE_BATCH) {
      const rows = docs.slice(i, i + WRITE_BATCH).map((d) => {
        const words = terms(d.text);
        return {
          id: d.id, terms: words.join(' '), length: words.length, layer: d.layer, sessionId: d.sessionId ?? null,
          speakerId: d.speakerId ?? null, addresseeIds: d.addresseeIds ?? [],
        };
      });
      await this.db.write('indexing keywords', (tx) => tx.run(`
        UNWIND $rows AS row
        MERGE (n:LexicalDoc {tenant: $tenant, id: row.id})
        SET n.tenantKey = $tenantKey, n.terms = row.terms, n.length = row.length, n.layer = row.layer,
          n.sessionId = row.sessionId, n.speakerId = row.speakerId, n.addresseeIds = row.addresseeIds`,
      { tenant: t, tenantKey: tenantKey(t), rows }));
    }
  }

  async search(tenant: TenantId, query: string, k: number, filter: LexicalFilter = {}): Promise<LexicalHit[]> {
    const wanted = queryTerms(query);
    if (wanted.length === 0 || k <= 0 || filter.ids?.length === 0) return [];
    await this.init();
    const t = this.t(tenant);
    // Terms are letter/digit runs (never Lucene syntax); quoting keeps them literal all the same.
    const lucene = `tenantKey:"${tenantKey(t)}" AND (${wanted.map((w) => `terms:"${w}"`).join(' OR ')})`;
    const { matches, docs, avgLength } = await this.db.read('keyword search', async (tx) => {
      const found = await tx.run(`
        CALL db.index.fulltext.queryNodes($index, $lucene) YIELD node AS n
        WHERE n.tenant = $tenant
        RETURN n.id AS id, n.terms AS terms, n.length AS length, n.layer AS layer, n.sessionId AS sessionId,
          n.speakerId AS speakerId, n.addresseeIds AS addresseeIds`, { index: LEXICAL_INDEX, lucene, tenant: t });
      const stats = await tx.run('MATCH (n:LexicalDoc {tenant: $tenant}) RETURN count(n) AS docs, avg(n.length) AS avgLength', { tenant: t });
      return {
        matches: found.records.map((r) => ({
          id: String(r.get('id')), terms: String(r.get('terms') ?? '').split(' '), length: toNum(r.get('length')),
          layer: String(r.get('layer')), sessionId: r.get('sessionId') as string | null, speakerId: r.get('speakerId') as string | null,
          addresseeIds: stringList(r.get('addresseeIds')),
        })),
        docs: toNum(stats.records[0]!.get('docs')),
        avgLength: toNum(stats.records[0]!.get('avgLength') ?? 0),
      };
    });
    // Document frequency of each query term among the tenant's documents (all of which were fetched).
    const df = new Map<string, number>(wanted.map((w) => [w, 0]));
    const tfs = matches.map((m) => {
      const tf = new Map<string, number>();
      for (const term of m.terms) if (df.has(term)) tf.set(term, (tf.get(term) ?? 0) + 1);
      for (const term of tf.keys()) df.set(term, df.get(term)! + 1);
      return tf;
    });
    const layers = filter.layer === undefined ? null : new Set(Array.isArray(filter.layer) ? filter.layer : [filter.layer]);
    const pool = filter.ids === undefined ? null : new Set(filter.ids);
    const hits: LexicalHit[] = [];
    matches.forEach((m, i) => {
      if (layers && !layers.has(m.layer)) return;
      if (filter.sessionId !== undefined && m.sessionId !== filter.sessionId) return;
      if (filter.speakerId !== undefined && m.speakerId !== filter.speakerId) return;
      if (filter.addresseeId !== undefined && !m.addresseeIds.includes(filter.addresseeId)) return;
      if (pool && !pool.has(m.id)) return;
      let score = 0;
      for (const [term, tf] of tfs[i]!) score += bm25Idf(docs, df.get(term)!) * bm25Tf(tf, m.length, avgLength);
      if (score > 0) hits.push({ id: m.id, score });
    });
    return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, k);
  }

  async delete(tenant: TenantId, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.init();
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      await this.db.write('deleting keywords', (tx) => tx.run(`
        UNWIND $ids AS id
        MATCH (n:LexicalDoc {tenant: $tenant, id: id}) DETACH DELETE n`, { tenant: this.t(tenant), ids: ids.slice(i, i + WRITE_BATCH) }));
    }
  }
}
