/**
 * The keyword tokeniser of the networked lexical indexes (Qdrant sparse vectors, Neo4j full-text):
 * lower-case letter/digit runs, the stop words below, the Porter2 stemmer of wink-nlp's English
 * model. The embedded SQLite index shares the stop words and the word pattern of queries, but FTS5
 * tokenises documents itself (`porter unicode61`): Porter (1980) instead of Porter2, and diacritics
 * folded (`café` = `cafe`), which these terms keep. docs/NETWORKED.md states the difference.
 */
import model from 'wink-eng-lite-web-model';
import { saysNumberInWords, spokenRuns } from './spoken-digits.js';
import { secretDigitValues } from './spoken-secrets.js';

/** Words too common to help ranking; every lexical index drops them from queries. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ('a an and are as at be but by did do does for from had has have he her his i if in is it its me my ' +
    'of on or our she so that the their them they this to was we were what when where which who whom ' +
    'why will with would you your how').split(' '),
);

/** BM25 term-frequency saturation. */
export const BM25_K1 = 1.2;
/** BM25 length normalisation. */
export const BM25_B = 0.75;

/**
 * Lower-case letter/digit runs of `text`, stop words out (unstemmed: what the SQLite index queries), and after them the
 * digits of each number of three digits or more said in words ("order five five two zero" also reads "5520": facts keep
 * such values as digits, rules 55); not those of a secret's value ("my PIN is seven seven three one": `secretDigitValues`).
 */
export function words(text: string): string[] {
  const said = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOPWORDS.has(w));
  if (!saysNumberInWords(text)) return said;
  const secrets = secretDigitValues(text);
  const spoken = spokenRuns(text, 3)
    .filter((r) => !/^[\d\s,-]+$/.test(text.slice(r.start, r.end)) && !secrets.some((s) => r.start < s.end && s.start < r.end))
    .map((r) => r.digits.toLowerCase());
  return [...said, ...spoken];
}

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
  return words(text).map(stem);
}

/** The distinct terms of a query, at most 64. */
export function queryTerms(text: string): string[] {
  return [...new Set(terms(text))].slice(0, 64);
}

/** BM25's inverse document frequency of a term in `df` of `n` documents (Lucene's and Qdrant's form, never negative). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** BM25's saturated term frequency of a term seen `tf` times in a document of `length` terms. */
export function bm25Tf(tf: number, length: number, avgLength: number): number {
  return (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / Math.max(avgLength, 1)));
}
