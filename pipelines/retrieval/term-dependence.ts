import { BM25_K1, bm25Tf, terms } from '../../graph/lexical-terms.js';
import { CALENDAR_WORDS } from '../speaker/calendar-words.js';
import { sentencesOf } from '../speaker/vocatives.js';
import { inScope, type TimeRange } from './time-scope.js';

/**
 * Term dependence in turn ranking: a sequential dependence model (Metzler & Croft 2005, "A Markov random field model for
 * term dependencies"). BM25 scores a question's words independently; the turn a question is about often holds them next
 * to each other or close together ("When did Melanie paint a sunrise?" / "I painted a sunrise last year"). For each pair
 * of adjacent content words of the question (`queryPairs`: the rewritten question's terms in order, stemmed as the
 * lexical index stems them, stop words out), a turn's words (the same tokens) are searched for the pair next to each
 * other in order (`#1`, stop words between them do not count) and for both within a window of `window` words in either
 * order (`#uwN`). A turn's score is `unigram × BM25 / best BM25 of the list + ordered × mean over pairs of sat(#1 count)
 * + unordered × mean of sat(#uwN count)`, where sat is BM25's saturated term frequency over its maximum (`bm25Tf / (k1 +
 * 1)`, the turn's length against the list's mean): every part lies in [0, 1], so the paper's weights (0.85 / 0.1 / 0.05)
 * mix them as it mixes its three log-likelihoods.
 */
export interface TermDependenceWeights {
  /** Weight of the (list-normalised) BM25 score; default 0.85. */
  unigram: number;
  /** Weight of the ordered pair matches (`#1`); default 0.1. */
  ordered: number;
  /** Weight of the unordered window matches (`#uwN`); default 0.05. */
  unordered: number;
  /** Words a window match spans at most (N of `#uwN`); default 8. */
  window: number;
}

/** Metzler & Croft's weights and window. */
export const DEFAULT_TERM_DEPENDENCE: Readonly<TermDependenceWeights> = { unigram: 0.85, ordered: 0.1, unordered: 0.05, window: 8 };

/**
 * Words that name a time: days, months and feasts (`CALENDAR_WORDS`), units of time ("weeks", "years"), "yesterday",
 * "ago" and numbers. A turn's time is when it was said, not its words: a question's "How many weeks passed …" or "… in
 * June" pairs with any turn telling of some other week ("Last week, my grandma passed away").
 */
const TIME_WORDS: ReadonlySet<string> = new Set([...CALENDAR_WORDS, ...(
  'yesterday morning evening night weekend weekends day days week weeks month months year years decade decades ' +
  'hour hours minute minutes ago'
).split(' ')]);

/** Whether the question word `word` (lower case) names a time (`TIME_WORDS`, or a number). */
export const isTimeWord = (word: string): boolean => TIME_WORDS.has(word.toLowerCase()) || /^\d+(?:st|nd|rd|th|s)?$/.test(word);

/** Which of the question's pairs the dependence list searches (`AgenticOptions.termDependencePairs`). */
export const DEPENDENCE_PAIRS = ['all', 'untimed'] as const;
export type DependencePairs = (typeof DEPENDENCE_PAIRS)[number];

/**
 * Adjacent pairs of the question's content words `words` (in order), each stemmed as the lexical index stems it; with
 * `untimed`, a pair holding a word that names a time (`isTimeWord`) is left out (its neighbours do not pair across it).
 */
export function queryPairs(words: readonly string[], which: DependencePairs = 'all'): [string, string][] {
  const stems = words.flatMap((w) => terms(w).map((stem) => ({ stem, timed: which === 'untimed' && isTimeWord(w) })));
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < stems.length; i++) {
    const [a, b] = [stems[i]!, stems[i + 1]!];
    if (a.stem !== b.stem && !a.timed && !b.timed) pairs.push([a.stem, b.stem]);
  }
  return pairs;
}

/**
 * How often the pair `[a, b]` occurs in the turn's terms `doc`: `ordered`, `a` directly followed by `b`; `unordered`, an
 * occurrence of `a` with `b` within a span of `window` terms, either side.
 */
export function pairMatches(doc: readonly string[], [a, b]: readonly [string, string], window: number): { ordered: number; unordered: number } {
  let ordered = 0;
  let unordered = 0;
  doc.forEach((t, i) => {
    if (t !== a) return;
    if (doc[i + 1] === b) ordered++;
    for (let j = Math.max(0, i - window + 1); j < Math.min(doc.length, i + window); j++) {
      if (doc[j] === b) {
        unordered++;
        break;
      }
    }
  });
  return { ordered, unordered };
}

const checked = (p: TermDependenceWeights): TermDependenceWeights => {
  if (![p.unigram, p.ordered, p.unordered].every((w) => w >= 0)) throw new RangeError(`term dependence weights are 0 or more, got ${JSON.stringify(p)}`);
  if (!(Number.isInteger(p.window) && p.window >= 2)) throw new RangeError(`term dependence window is a whole number of 2 or more, got ${String(p.window)}`);
  return p;
};

/** The pair features of one turn's terms: mean saturated `#1` and `#uwN` counts over the pairs (0 and 0 with none). */
function pairFeatures(pairs: readonly [string, string][], doc: readonly string[], avgLength: number, window: number): { ordered: number; unordered: number } {
  if (pairs.length === 0) return { ordered: 0, unordered: 0 };
  const sat = (tf: number): number => (tf > 0 ? bm25Tf(tf, doc.length, avgLength) / (BM25_K1 + 1) : 0);
  let ordered = 0;
  let unordered = 0;
  for (const pair of pairs) {
    const m = pairMatches(doc, pair, window);
    ordered += sat(m.ordered);
    unordered += sat(m.unordered);
  }
  return { ordered: ordered / pairs.length, unordered: unordered / pairs.length };
}

/**
 * The sequential dependence score of one turn `text` for the question's content words `words`: its BM25 score `score`
 * over the best of its list `best`, and its pair features, the turn's length against `avgLength` terms.
 */
export function termDependence(
  words: readonly string[], text: string, score: number, best: number, avgLength: number,
  weights: TermDependenceWeights = DEFAULT_TERM_DEPENDENCE,
): number {
  const p = checked(weights);
  const f = pairFeatures(queryPairs(words), terms(text), avgLength, p.window);
  return p.unigram * (best > 0 ? score / best : 0) + p.ordered * f.ordered + p.unordered * f.unordered;
}

const meanLength = (docs: readonly string[][]): number => (docs.length === 0 ? 1 : docs.reduce((s, d) => s + d.length, 0) / docs.length);

/**
 * A BM25 list of turns (`score` its BM25 score, best first) re-ranked by `termDependence`; ids best first, ties in the
 * order given. With no pair in the question the order stays.
 */
export function rescoreByDependence(
  words: readonly string[], hits: readonly { id: string; text: string; score: number }[], weights: TermDependenceWeights = DEFAULT_TERM_DEPENDENCE,
): string[] {
  const p = checked(weights);
  const pairs = queryPairs(words);
  if (pairs.length === 0) return hits.map((h) => h.id);
  const docs = hits.map((h) => terms(h.text));
  const avg = meanLength(docs);
  const best = Math.max(0, ...hits.map((h) => h.score));
  return hits
    .map((h, i) => {
      const f = pairFeatures(pairs, docs[i]!, avg, p.window);
      return { id: h.id, i, s: p.unigram * (best > 0 ? h.score / best : 0) + p.ordered * f.ordered + p.unordered * f.unordered };
    })
    .sort((x, y) => y.s - x.s || x.i - y.i)
    .map((x) => x.id);
}

/**
 * What a turn tells: its sentences less those asking (ending in "?"). A question asked again in conversation holds the
 * question's words in order by construction ("what does Miko like to eat?"), yet answers nothing; "I painted a sunrise!
 * Did you see it?" still tells its first sentence.
 */
export const toldPart = (text: string): string => sentencesOf(text.trim()).filter((s) => !s.trimEnd().endsWith('?')).join(' ');

/** What of a turn asking something the dependence list reads (`AgenticOptions.termDependenceAsked`). */
export const ASKED_PARTS = ['kept', 'turns', 'sentences'] as const;
export type AskedPart = (typeof ASKED_PARTS)[number];

/** The text of a turn the dependence list reads, by `asked`: whole, none when it only asks, or what it tells. */
function readPart(text: string, asked: AskedPart): string {
  if (asked === 'kept') return text;
  const told = toldPart(text);
  return asked === 'sentences' || told.trim() === '' ? told : text;
}

/**
 * The dependence list: `turns` (in any order) ranked by their pair features alone (`ordered` and `unordered` weights)
 * over the part of each that `asked` reads (`readPart`), turns holding no pair there left out; ties in the order given.
 * `which` chooses the question's pairs (`queryPairs`). Empty when the question has no pair.
 */
export function dependenceList(
  words: readonly string[], turns: readonly { id: string; text: string }[], weights: TermDependenceWeights = DEFAULT_TERM_DEPENDENCE,
  asked: AskedPart = 'turns', which: DependencePairs = 'all',
): string[] {
  const p = checked(weights);
  const pairs = queryPairs(words, which);
  if (pairs.length === 0) return [];
  const docs = turns.map((t) => terms(readPart(t.text, asked)));
  const avg = meanLength(docs);
  return turns
    .map((t, i) => {
      const f = pairFeatures(pairs, docs[i]!, avg, p.window);
      return { id: t.id, i, s: p.ordered * f.ordered + p.unordered * f.unordered };
    })
    .filter((x) => x.s > 0)
    .sort((x, y) => y.s - x.s || x.i - y.i)
    .map((x) => x.id);
}

/**
 * The turns the dependence list reads (`AgenticOptions.termDependencePeriod`): with `ranges` (the times a question
 * names, slack included), only those said within them; with none, all.
 */
export function turnsWithin<T extends { time: string }>(turns: readonly T[], ranges: readonly TimeRange[] | null): T[] {
  return ranges && ranges.length > 0 ? turns.filter((t) => inScope(t.time, ranges)) : [...turns];
}
