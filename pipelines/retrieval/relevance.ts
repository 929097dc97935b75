import type { MemoryItem } from '../../graph/core/events.js';
import { coverage } from './question-policy.js';

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
 * True when the best item's relevance reaches `ANSWERABLE_RELEVANCE`: memory likely holds an answer. A question about
 * something said of another known person ("What did Ben research?" when Ana did) is not told apart (LoCoMo category 5).
 */
export function answerable(items: readonly Pick<MemoryItem, 'relevance'>[]): boolean {
  return (items[0]?.relevance ?? 0) >= ANSWERABLE_RELEVANCE;
}

/**
 * An item's signals: `terms` are the question's content words (`RewrittenQuestion.terms`), `named` the participants
 * it names, `question` and `item` their text vectors (unit length; null when embedding failed). A fact is read with
 * the words it was drawn from (`source_text`).
 */
export function relevanceSignals(
  item: Pick<MemoryItem, 'text' | 'source_text' | 'speaker' | 'addressees'>, terms: readonly string[], named: readonly string[],
  question: Float32Array | null, vector: Float32Array | null,
): RelevanceSignals {
  const words = item.source_text ? `${item.text} ${item.source_text}` : item.text;
  // A question of names only ("Who is Ana?") has no content word to match: it matches nothing lexically.
  const lexical = terms.length === 0 ? 0 : coverage(words, terms);
  const dense = question && vector && question.length === vector.length ? dot(question, vector) : null;
  const people = [item.speaker.id, ...item.addressees.map((a) => a.id)];
  return { lexical, dense, named: named.some((id) => people.includes(id)) ? 1 : 0 };
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
