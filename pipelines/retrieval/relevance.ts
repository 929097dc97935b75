import type { MemoryItem } from '../../graph/core/events.js';
import { coverage, stemMatches } from './question-policy.js';
import { tokens } from './question-rewrite.js';
import { defaultWordNet, type WordNet } from './wordnet.js';

/**
 * What the loop knows of how well one item answers the question, each in [0, 1] (`dense` in [-1, 1]), none of
 * them relative to the other items of the answer: so a relevance built from them compares across questions.
 */
export interface RelevanceSignals {
  /** Share of the question's content words (names of known participants taken out) the item's words hold (stem prefix). */
  lexical: number;
  /** Cosine between the question's vector and the item's text vector; null when either could not be embedded. */
  dense: number | null;
  /** 1 when the question names a known participant and the item was said by or to one of them; else 0. */
  named: number;
  /**
   * Share of the question's topic words (its content words, names taken out) the item holds, each word or one of its
   * WordNet synonyms and derived forms (stem prefix); null when the question has no topic word (`topicGate`).
   */
  topicLexical?: number | null;
  /** Cosine between the vector of the topic words alone and the item's text vector; null when either is missing. */
  topicDense?: number | null;
}

/** The bars of `topicMatched`: an item matches the question's topic when it reaches either. */
export interface TopicBars {
  /** Least `topicLexical` (share of topic words held) that counts as sharing the topic. */
  lexical: number;
  /** Least `topicDense` (cosine to the topic words' vector) that counts as close in meaning. */
  dense: number;
}

/**
 * Default bars of the topic gate, chosen on LoCoMo conversations 1–5 (`bench/relevance.ts --topic-grid`,
 * docs/BENCHMARKS.md "answerable: the question's topic gates"): an item holding any one topic word, or whose cosine to
 * the topic words reaches 0.65. Held-out not verified.
 */
export const DEFAULT_TOPIC_BARS: TopicBars = { lexical: 0.01, dense: 0.65 };

/**
 * True when some item shares the question's topic (`TopicBars`), or when the question has no topic word to match
 * ("Who is Ana?"): a question about a known person on a subject nobody spoke of ("What is Ana's blood type?") matches
 * nothing retrieved and so reads unanswerable, however well the person's name matches.
 */
export function topicMatched(signals: readonly RelevanceSignals[], bars: TopicBars = DEFAULT_TOPIC_BARS): boolean {
  if (signals.length === 0) return false;
  if (signals.every((s) => (s.topicLexical ?? null) === null && (s.topicDense ?? null) === null)) return true;
  return signals.some((s) => (s.topicLexical ?? 0) >= bars.lexical || (s.topicDense ?? -1) >= bars.dense);
}

/**
 * Weights of the logistic blend of `RelevanceSignals` (fitted on LoCoMo conversations 1–3, answerable questions against
 * unanswerable ones of both kinds: `bench/relevance.ts --fit`).
 */
export interface RelevanceWeights {
  bias: number;
  lexical: number;
  dense: number;
  named: number;
}

/** The weights `relevance` uses unless given others. */
export const DEFAULT_RELEVANCE_WEIGHTS: RelevanceWeights = { bias: -8.54, lexical: 2.08, dense: 7.86, named: 2.24 };

/**
 * The top item's relevance from which an answer counts as `answerable`: chosen on LoCoMo conversations 1–3 (best
 * balanced accuracy between questions answered by a gold item and unanswerable ones: the same questions asked of another
 * conversation's memory, and the adversarial category; `bench/relevance.ts`, docs/BENCHMARKS.md).
 */
export const ANSWERABLE_RELEVANCE = 0.155;

/**
 * True when the best item's relevance reaches `ANSWERABLE_RELEVANCE` and (given the items' signals) some item shares the
 * question's topic (`topicMatched`; `bars` null: no topic gate): memory likely holds an answer. A question about
 * something said of another known person ("What did Ben research?" when Ana did) is not told apart (LoCoMo category 5).
 */
export function answerable(
  items: readonly Pick<MemoryItem, 'relevance'>[], signals?: readonly RelevanceSignals[], bars: TopicBars | null = DEFAULT_TOPIC_BARS,
): boolean {
  if ((items[0]?.relevance ?? 0) < ANSWERABLE_RELEVANCE) return false;
  return !signals || bars === null || topicMatched(signals, bars);
}

/**
 * An item's signals: `terms` are the question's content words (`RewrittenQuestion.terms`), `named` the participants
 * it names, `question` and `item` their text vectors (unit length; null when embedding failed). A fact is read with
 * the words it was drawn from (`source_text`). Words match as `coverage` / `stemMatches` judge them with `wordnet`.
 */
export function relevanceSignals(
  item: Pick<MemoryItem, 'text' | 'source_text' | 'speaker' | 'addressees'>, terms: readonly string[], named: readonly string[],
  question: Float32Array | null, vector: Float32Array | null,
  topic?: { words: readonly (readonly string[])[]; vector: Float32Array | null }, wordnet: WordNet = defaultWordNet(),
): RelevanceSignals {
  const words = item.source_text ? `${item.text} ${item.source_text}` : item.text;
  // A question of names only ("Who is Ana?") has no content word to match: it matches nothing lexically.
  const lexical = terms.length === 0 ? 0 : coverage(words, terms, wordnet);
  const dense = question && vector && question.length === vector.length ? dot(question, vector) : null;
  const people = [item.speaker.id, ...item.addressees.map((a) => a.id)];
  const out: RelevanceSignals = { lexical, dense, named: named.some((id) => people.includes(id)) ? 1 : 0 };
  if (topic) {
    const held = tokens(words);
    out.topicLexical = topic.words.length === 0 ? null
      : topic.words.filter((forms) => forms.some((f) => held.some((w) => stemMatches(w, f, wordnet)))).length / topic.words.length;
    out.topicDense = topic.words.length > 0 && topic.vector && vector && topic.vector.length === vector.length ? dot(topic.vector, vector) : null;
  }
  return out;
}

/**
 * Each topic word of a question with the forms that count as it (`relevanceSignals`): the word, its WordNet synonyms and
 * its derived forms of the other part of speech ("marry" → marriage); the word alone without WordNet.
 */
export function topicForms(terms: readonly string[], wordnet: WordNet | null): string[][] {
  return terms.map((t) => [...new Set([t, ...(wordnet ? [...wordnet.synonymsOf(t, { perWord: 4 }), ...wordnet.derivedForms(t, 'noun'), ...wordnet.derivedForms(t, 'verb')] : [])]
    .map((f) => f.toLowerCase()))]);
}

/**
 * How likely the item answers the question, in [0, 1]: a logistic blend of its signals. Unlike `score`, which only
 * orders the items of one answer, it compares across questions: an item of a question memory cannot answer scores low
 * however it ranks. A missing dense similarity counts as an unrelated text's (0.5, about what unrelated sentences
 * reach with the default embedder).
 */
export function relevance(s: RelevanceSignals, w: RelevanceWeights = DEFAULT_RELEVANCE_WEIGHTS): number {
  const z = w.bias + w.lexical * s.lexical + w.dense * (s.dense ?? 0.5) + w.named * s.named;
  return Math.round(1e4 / (1 + Math.exp(-z))) / 1e4;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    s += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? s / Math.sqrt(na * nb) : 0;
}
