/**
 * Client-side text → sparse vector for BM25 in Qdrant: the tokeniser of `graph/lexical-terms.ts`
 * (shared with the Neo4j full-text index; how it differs from SQLite FTS5 is said there), terms
 * hashed to 32-bit indices. Documents carry BM25's saturated term frequency; the query carries
 * the tenant's idf per term (`QdrantLexicalIndex`), so the dot product scores as BM25.
 */
import { BM25_B, BM25_K1, stem, terms } from '../lexical-terms.js';

export { BM25_B, BM25_K1, stem, terms };

/** Expected document length in terms (utterances and facts are short). */
export const BM25_AVG_LENGTH = 16;

/** FNV-1a 32-bit hash of a term: its sparse index. */
export function termIndex(term: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(term, 'utf8')) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export interface SparseVector {
  indices: number[];
  values: number[];
}

function toSparse(weights: Map<number, number>): SparseVector {
  const entries = [...weights.entries()].sort((a, b) => a[0] - b[0]);
  return { indices: entries.map((e) => e[0]), values: entries.map((e) => e[1]) };
}

/** A document's vector: BM25-saturated term frequency per term (the query brings the IDF). */
export function documentVector(text: string): SparseVector {
  const all = terms(text);
  const tf = new Map<number, number>();
  for (const t of all) {
    const i = termIndex(t);
    tf.set(i, (tf.get(i) ?? 0) + 1);
  }
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * all.length) / BM25_AVG_LENGTH);
  for (const [i, f] of tf) tf.set(i, (f * (BM25_K1 + 1)) / (f + norm));
  return toSparse(tf);
}

/** A query's vector: weight 1 per distinct term (at most 64). */
export function queryVector(text: string): SparseVector {
  const unique = [...new Set(terms(text))].slice(0, 64);
  return toSparse(new Map(unique.map((t) => [termIndex(t), 1])));
}
