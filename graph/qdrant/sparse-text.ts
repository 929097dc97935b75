/**
 * Client-side text → sparse vector for BM25 in Qdrant: the same tokenisation as the SQLite FTS index
 * (lower-case letter/digit runs, the same stop words), the Porter2 stemmer of wink-nlp's English model,
 * terms hashed to 32-bit indices. Documents carry BM25's saturated term frequency;
 * Qdrant multiplies in the IDF (`modifier: idf`), so a query with unit weights scores as BM25.
 */
import model from 'wink-eng-lite-web-model';

/** Shared with `SqliteLexicalIndex`'s list (kept identical so both rank the same words). */
const STOPWORDS = new Set(
  ('a an and are as at be but by did do does for from had has have he her his i if in is it its me my ' +
    'of on or our she so that the their them they this to was we were what when where which who whom ' +
    'why will with would you your how').split(' '),
);

/** BM25 term-frequency saturation. */
export const BM25_K1 = 1.2;
/** BM25 length normalisation. */
export const BM25_B = 0.75;
/** Expected document length in terms (utterances and facts are short). */
export const BM25_AVG_LENGTH = 16;

/** The Porter2 stemmer wink-nlp's English model ships (what `its.stem` uses). */
const porter2 = model.addons.stem as (word: string) => string;

/**
 * Stem of a lower-case word (Porter2): `cats`/`cat` and `promised`/`promise` meet. Words with
 * letters outside a–z (other languages, digits) are left as they are: the stemmer is English.
 */
export function stem(word: string): string {
  return /^[a-z]+$/.test(word) ? porter2(word) : word;
}

/** Lower-case word runs minus stop words, stemmed. Punctuation and query operators are separators. */
export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w)).map(stem);
}

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

/** A document's vector: BM25-saturated term frequency per term (IDF is applied by Qdrant). */
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
