import type { SearchFilters } from './pool-search.js';
import { asksForList } from './list-question.js';
import { wink } from '../wink.js';
import { tokens, type RewrittenQuestion } from './question-rewrite.js';
import { defaultWordNet, type WordNet } from './wordnet.js';

/** One retrieval action of the agentic loop. */
export interface Action {
  /** `interaction` = utterances; `fact` = fact and profile layers (mapped back to their turns). */
  layer: 'interaction' | 'fact';
  /**
   * `staged` = the left brain's pool search (entities, schemas, one hop) on the raw question; `vector2` = dense
   * search with the retriever's second dense channel (`Retriever.secondDense`; none configured: an empty list).
   */
  tool: 'bm25' | 'vector' | 'vector2' | 'staged';
  /** Query text (for `vector`, the text embedded, unless `vector` is given). */
  query: string;
  /** For `vector`: the query vector itself, searched instead of `query`'s (dense pseudo-relevance feedback). */
  vector?: Float32Array;
  /** Only turns spoken by this participant. */
  speakerId?: string;
  /** Only turns addressed to this participant. */
  addresseeId?: string;
  /** `time`: only turns from the time the question names (see `timeScope`). */
  scope?: 'time';
  /** Keep only the best-ranked turn of each session (the per-session best of `sessionBestWeight`). */
  perSession?: boolean;
  /** Depth of this action's search; default the question's (`ActionContext.depth`). */
  depth?: number;
  /** Weight of the action's list in the round's fusion. */
  weight: number;
}

/** Weights of the deterministic policy's actions; every one has a default. */
export interface PolicyOptions {
  /**
   * Weight of the left brain's staged pool search in round 1; default 0 (skipped: on LoCoMo it adds
   * no recall to the keyword lists and costs as much as all other actions together).
   */
  stagedWeight?: number;
  /** Weight of BM25 over turns with the rewritten question; default 1. */
  bm25Weight?: number;
  /** Weight of BM25 over the turns of each participant the question names; default 1. */
  speakerWeight?: number;
  /** Weight of BM25 over facts and profiles (names kept); default 0.7. */
  factWeight?: number;
  /** Weight of dense search over turns (USE-lite is weak on long turns); default 0.5, 1 with bge-small-en-v1.5 (`embedderDefaults`). */
  denseWeight?: number;
  /**
   * Weight of each dense search over turns with the second dense channel (another encoder's vectors of the turns,
   * `Retriever.secondDense`), run wherever the first dense search runs; default 0 (off). Only the LoCoMo bench
   * (`--second-dense`) fills such a channel so far: the server writes no second vectors.
   */
  secondDenseWeight?: number;
  /**
   * β of `q' = normalise(q + β · mean of the best turns' vectors)`: the question vector moved towards what round 1
   * found best, searched again over all turns in round 2; default 0 (off).
   */
  denseFeedback?: number;
  /** How many of round 1's best turns are averaged; default 3. */
  denseFeedbackDocs?: number;
  /** Weight of the feedback search in round 2's fusion; default `denseWeight`. */
  denseFeedbackWeight?: number;
  /** Weight of BM25 over the turns from the time the question names ("in May 2023"); default 1. */
  timeWeight?: number;
  /**
   * Who-to-whom (default true): a participant the question names as addressee ("What did Ana promise
   * **Ben**?", "Who told **Ben**…?") is searched as the turns' addressee, not their speaker; in a "who"
   * question a name in neither role ("Who said **Ben** would come?") gets no per-speaker search (the
   * answer is someone else). False: every named participant is searched as a speaker (as before).
   */
  addresseeRoles?: boolean;
  /**
   * Weight of one more BM25 search over turns in round 1 with the question's content words and their
   * WordNet synonyms (`synonyms`, given by the caller; none, e.g. no WordNet installed: no search).
   * Default 0 (off): 0.6 with 4 synonyms a word was best on LoCoMo conversations 1–5 (+0.9 all@5), but
   * level on conversations 6–10 and on the multi-party set, where it cost 3 points of ans@1 (docs/BENCHMARKS.md).
   */
  synonymWeight?: number;
  /** With `synonymWeight`: search the synonyms alone instead of with the content words; default false. */
  synonymsOnly?: boolean;
  /**
   * Weight of the per-session best in round 1: for each named subject, a dense search with the question over that
   * person's memories (`sessionBestLayer`) to `sessionBestDepth`, mapped to their turns, keeping each session's best turn
   * only, so evidence told across many sessions ("What activities does Melanie do?": pottery in one session, camping in
   * another) ranks by session rather than by one session's several turns. Default 0 (off).
   */
  sessionBestWeight?: number;
  /** Which memories the per-session best searches: `fact` (facts and profiles, default) or `interaction` (turns). */
  sessionBestLayer?: SessionBestLayer;
  /** Which questions get the per-session best: `subject` (default: every question naming a subject) or `list` (`asksForList`). */
  sessionBestQuestions?: SessionBestQuestions;
  /** Depth of the per-session best's search; default 100. */
  sessionBestDepth?: number;
}

export const SESSION_BEST_LAYERS = ['fact', 'interaction'] as const;
export type SessionBestLayer = (typeof SESSION_BEST_LAYERS)[number];
export const SESSION_BEST_QUESTIONS = ['list', 'subject'] as const;
export type SessionBestQuestions = (typeof SESSION_BEST_QUESTIONS)[number];

/** Stems already read (`stemOf` runs for every word of every candidate); emptied when it grows past `STEMS_KEPT`. */
const stems = new Map<string, string>();
const STEMS_KEPT = 100_000;

/**
 * The Porter2 stem of a lowercase word (wink-nlp's `its.stem`): promised ~ promise, groups ~ group, cancelled ~
 * cancellations ~ cancel (a cut of trailing letters made "cancellatio" of "cancellations" and "canc" of "cancel", issue #16).
 * A text that is not one word ("call off") is its own stem.
 */
export function stemOf(w: string): string {
  let s = stems.get(w);
  if (s === undefined) {
    const nlp = wink();
    const words = nlp.readDoc(w).tokens();
    // wink's typings give `its.stem` the addons parameter of a lemma function; it reads a token as `its.value` does.
    s = words.length() === 1 ? (words.out(nlp.its.stem as unknown as typeof nlp.its.value) as string[])[0] ?? w : w;
    if (stems.size >= STEMS_KEPT) stems.clear();
    stems.set(w, s);
  }
  return s;
}

/** The cut of trailing letters used before the stems: long words lose up to 2 letters (runner ~ runn, piano ~ pian). */
const cutOf = (w: string): string => (w.length > 5 ? w.slice(0, w.length - 2) : w.length > 4 ? w.slice(0, 4) : w);

/** A stem shorter than this matches only an equal stem (no prefix): "use" of "using" must not hold "useless". */
const PREFIX_STEM_MIN = 5;

/** `WordNet.related` of word and term pairs already asked, per WordNet; emptied when it grows past `STEMS_KEPT`. */
const relations = new WeakMap<WordNet, Map<string, boolean | null>>();

/**
 * True when `word` holds `term` (both lowercase): the same word, or their letters agree and WordNet does not tell them
 * apart. The letters agree when the Porter2 stems are equal, or (a term stem of at least `PREFIX_STEM_MIN` letters)
 * the term's is a prefix of the word's (marriage ~ married, cancellations ~ cancel), or the word starts with the term
 * less its last letters (`cutOf`: allergies ~ allergic, swimmer ~ swimming, piano ~ pianist, which Porter2 stems apart;
 * review finding 5) unless both stems are as long and differ (cancel is no cancer). WordNet tells them apart when it lists
 * both and relates them neither by a base form or derivational pointer nor by a definition (`WordNet.related`):
 * organization is no organ, university no universe, authority no author, army no arm (issue #16, stem), but gymnastics
 * holds gymnast, whose definition names it, and natural nature (issue #16 item 6); a word WordNet does not list is judged
 * by its letters.
 */
export const stemMatches = (word: string, term: string, wordnet: WordNet = defaultWordNet()): boolean =>
  holds(word, term, stemOf(word), stemOf(term), cutOf(term), wordnet);

/** `stemMatches` with the stems and cut already read: `w` the word's stem, `t` the term's, `cut` the term's cut. */
function holds(word: string, term: string, w: string, t: string, cut: string, wordnet: WordNet): boolean {
  if (word === term) return true;
  const alike = w === t || (t.length >= PREFIX_STEM_MIN && w.startsWith(t)) || (word.startsWith(cut) && w.length !== t.length);
  if (!alike) return false;
  let known = relations.get(wordnet);
  if (!known) relations.set(wordnet, (known = new Map()));
  const key = `${word} ${term}`;
  let related = known.get(key);
  if (related === undefined) {
    related = wordnet.related(word, term);
    if (known.size >= STEMS_KEPT) known.clear();
    known.set(key, related);
  }
  return related !== false;
}

/**
 * Share of `terms` that occur in `text` (`stemMatches`, WordNet `wordnet`; each distinct word stemmed once a call); 1 when
 * there are no terms.
 */
export function coverage(text: string, terms: readonly string[], wordnet: WordNet = defaultWordNet()): number {
  if (terms.length === 0) return 1;
  const words = [...new Set(tokens(text))];
  const stemmed = words.map(stemOf);
  const held = terms.filter((term) => {
    const t = stemOf(term);
    const cut = cutOf(term);
    return words.some((word, i) => holds(word, term, stemmed[i]!, t, cut, wordnet));
  });
  return held.length / terms.length;
}

/** True when every term occurs in `text` (`coverage`, WordNet `wordnet`). */
export function covers(text: string, terms: readonly string[], wordnet: WordNet = defaultWordNet()): boolean {
  return coverage(text, terms, wordnet) === 1;
}

/**
 * The per-session best (`sessionBestWeight`): one dense search with the question over each named subject's memories, each
 * session's best turn kept. None when off, when the question names no subject, or (`sessionBestQuestions` `list`) when it asks for no list.
 * Bad settings are refused.
 */
export function sessionBestActions(q: RewrittenQuestion, speakers: readonly string[], o: PolicyOptions): Action[] {
  const weight = o.sessionBestWeight ?? 2;
  const layer = o.sessionBestLayer ?? 'fact';
  const which = o.sessionBestQuestions ?? 'subject';
  const depth = o.sessionBestDepth ?? 100;
  if (!(weight >= 0)) throw new RangeError(`sessionBestWeight is a weight from 0, got ${String(weight)}`);
  if (!SESSION_BEST_LAYERS.includes(layer)) throw new RangeError(`sessionBestLayer is one of ${SESSION_BEST_LAYERS.join(', ')}, got ${String(layer)}`);
  if (!SESSION_BEST_QUESTIONS.includes(which)) throw new RangeError(`sessionBestQuestions is one of ${SESSION_BEST_QUESTIONS.join(', ')}, got ${String(which)}`);
  if (!(Number.isInteger(depth) && depth > 0)) throw new RangeError(`sessionBestDepth is a positive whole number, got ${String(depth)}`);
  if (weight === 0 || (which === 'list' && !asksForList(q.question))) return [];
  return speakers.filter((s) => q.subjectIds.includes(s))
    .map((s) => ({ layer, tool: 'vector' as const, query: q.question, speakerId: s, perSession: true, depth, weight }));
}

/**
 * The deterministic policy: which actions a round runs, given the rewritten question, feedback
 * words (after round 1) and what was already done. Round 1: BM25 over turns (all, and per named
 * participant as speaker, or as addressee when named so: `addresseeRoles`), BM25 over facts and profiles (names kept), dense over turns with the
 * question, and (when weighted) the staged pool search; when the question names a time (`timed`),
 * BM25 and dense search over the turns from that time too. Round 2: the same keyword actions with
 * the query expanded by feedback words (and, when `synonymWeight` is set and `synonyms` are given, one more
 * BM25 over turns in round 1 with the content words and their synonyms), and, given a `feedback` vector (`denseFeedback`),
 * a dense search over all turns with it. Round 3: dense search with the rewritten query, per named
 * participant and over all turns. An action already taken is never repeated. By default round 1 also ranks each named
 * subject's memories by session (`sessionBestWeight`, `sessionBestActions`).
 */
export function roundActions(
  round: number, q: RewrittenQuestion, expansion: readonly string[], history: readonly Action[],
  filters: SearchFilters, o: PolicyOptions, timed = false, synonyms: readonly string[] = [], feedback: Float32Array | null = null,
): Action[] {
  const base = q.text;
  const roles = o.addresseeRoles ?? true;
  const who = /^\s*(?:who|whom)\b/i.test(q.question);
  const speakers = filters.speakerId ? [] : !roles ? q.participantIds
    : q.participantIds.filter((p) => !q.addresseeIds.includes(p) && (!who || q.subjectIds.includes(p)));
  const addressees = !roles || filters.addresseeId ? [] : q.addresseeIds;
  const withNames = [...q.terms, ...q.nameWords].join(' ');
  const actions: Action[] = [];
  const add = (a: Action): void => {
    if (a.weight <= 0 || a.query.trim() === '') return;
    const same = (b: Action): boolean => b.layer === a.layer && b.tool === a.tool && b.query === a.query && b.speakerId === a.speakerId &&
      b.addresseeId === a.addresseeId && b.scope === a.scope && b.perSession === a.perSession && b.vector === a.vector;
    if (!history.some(same) && !actions.some(same)) actions.push(a);
  };
  // A dense search over turns runs with the first encoder and, when weighted, with the second dense channel.
  const dense = (a: Omit<Action, 'tool' | 'weight'>): void => {
    add({ ...a, tool: 'vector', weight: o.denseWeight ?? 0.5 });
    add({ ...a, tool: 'vector2', weight: o.secondDenseWeight ?? 0 });
  };
  if (round === 1) {
    add({ layer: 'interaction', tool: 'staged', query: q.text || withNames, weight: o.stagedWeight ?? 0 });
    add({ layer: 'interaction', tool: 'bm25', query: base || withNames, weight: o.bm25Weight ?? 1 });
    for (const s of speakers) add({ layer: 'interaction', tool: 'bm25', query: base, speakerId: s, weight: o.speakerWeight ?? 1 });
    for (const a of addressees) add({ layer: 'interaction', tool: 'bm25', query: base, addresseeId: a, weight: o.speakerWeight ?? 1 });
    add({ layer: 'fact', tool: 'bm25', query: withNames, weight: o.factWeight ?? 0.7 });
    dense({ layer: 'interaction', query: q.question });
    for (const a of sessionBestActions(q, speakers, o)) add(a);
    if (synonyms.length > 0) {
      add({ layer: 'interaction', tool: 'bm25', query: (o.synonymsOnly ? synonyms : [...q.terms, ...synonyms]).join(' '), weight: o.synonymWeight ?? 0 });
    }
    if (timed) {
      add({ layer: 'interaction', tool: 'bm25', scope: 'time', query: base || withNames, weight: o.timeWeight ?? 1 });
      dense({ layer: 'interaction', scope: 'time', query: base || withNames });
    }
  } else if (round === 2) {
    if (feedback) add({ layer: 'interaction', tool: 'vector', query: q.question, vector: feedback, weight: o.denseFeedbackWeight ?? o.denseWeight ?? 0.5 });
    if (expansion.length === 0) return actions;
    const expanded = [...q.terms, ...expansion].join(' ');
    add({ layer: 'interaction', tool: 'bm25', query: expanded, weight: o.bm25Weight ?? 1 });
    for (const s of speakers) add({ layer: 'interaction', tool: 'bm25', query: expanded, speakerId: s, weight: o.speakerWeight ?? 1 });
    for (const a of addressees) add({ layer: 'interaction', tool: 'bm25', query: expanded, addresseeId: a, weight: o.speakerWeight ?? 1 });
    add({ layer: 'fact', tool: 'bm25', query: [withNames, ...expansion].join(' '), weight: o.factWeight ?? 0.7 });
    if (timed) add({ layer: 'interaction', tool: 'bm25', scope: 'time', query: expanded, weight: o.timeWeight ?? 1 });
  } else if (round === 3) {
    for (const s of speakers) dense({ layer: 'interaction', query: base, speakerId: s });
    for (const a of addressees) dense({ layer: 'interaction', query: base, addresseeId: a });
    dense({ layer: 'interaction', query: base });
  }
  return actions;
}
