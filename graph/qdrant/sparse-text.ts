/**
 * Client-side text → sparse vector for BM25 in Qdrant: the same tokenisation as the SQLite FTS index
 * (lower-case letter/digit runs, the same stop words), a light Porter-style stemmer (plural, -ed/-ing and
 * final -e rules), terms hashed to 32-bit indices. Documents carry BM25's saturated term frequency;
 * Qdrant multiplies in the IDF (`modifier: idf`), so a query with unit weights scores as BM25.
 */

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

const VOWEL = /[aeiou]/;

function isConsonant(word: string, i: number): boolean {
  const c = word[i]!;
  if ('aeiou'.includes(c)) return false;
  if (c === 'y') return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** Porter's measure m: the number of vowel–consonant sequences in `stem`. */
function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const vowel = !isConsonant(stem, i);
    if (prevVowel && !vowel) m++;
    prevVowel = vowel;
  }
  return m;
}

/** Consonant–vowel–consonant ending, the last consonant not w, x or y. */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  return isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && !'wxy'.includes(word[n - 1]!);
}

/** A light Porter-style stemmer: enough that `cats`/`cat` and `promised`/`promise` meet. */
export function stem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && w.length > 3) w = w.slice(0, -1);

  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
    if (suffix > 0 && VOWEL.test(w.slice(0, -suffix))) {
      w = w.slice(0, -suffix);
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (w.length > 1 && w.at(-1) === w.at(-2) && isConsonant(w, w.length - 1) && !'lsz'.includes(w.at(-1)!)) w = w.slice(0, -1);
      else if (measure(w) === 1 && endsCvc(w)) w += 'e';
    }
  }
  if (w.endsWith('y') && VOWEL.test(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  if (w.endsWith('e')) {
    const m = measure(w.slice(0, -1));
    if (m > 1 || (m === 1 && !endsCvc(w.slice(0, -1)))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w) > 1) w = w.slice(0, -1);
  return w;
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
