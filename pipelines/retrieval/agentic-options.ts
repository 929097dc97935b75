import type { RelevanceSignals, TopicBars } from './relevance.js';
import type { MemoryItem } from '../../graph/core/events.js';
import type { TimeAnswerMode } from './answer-type.js';
import type { MemoryLayerOptions } from './memory-layer.js';
import type { PolicyOptions } from './question-policy.js';
import type { TimeScopeOptions } from './time-scope.js';
import type { WordNet } from './wordnet.js';
import type { FusionMethod } from './rrf.js';
import type { MemoryScope } from './context-scope.js';

/** An explicit question to answer from memory. */
export interface QuestionInput {
  question: string;
  asker?: string | null;
  /** Evidence items returned; default 5. */
  k?: number;
  /**
   * The session the question is asked in: context, not a filter. Its own evidence gains `sessionBoost`;
   * memory from the tenant's other sessions is found as without it (a new or unknown session is no error).
   */
  sessionId?: string;
  speakerId?: string;
  addresseeId?: string;
  /** Turns (utterance ids) that are no evidence: the turn that asked the question. */
  excludeIds?: string[];
  /**
   * Only memories of these people (`context_scope: participants`): every turn, fact, profile, relation and persona node
   * outside it is left out before the top `k` are taken. Absent: the whole tenant.
   */
  scope?: MemoryScope;
  /** When the question is asked: what relative times ("last week") count from and what has ended by ("for a month"); default now.*/
  now?: Date;
  signal?: AbortSignal;
}

/** Evidence with the number of rounds and per-stage timings (ms). */
export interface QuestionAnswer {
  evidence: MemoryItem[];
  rounds: number;
  timings: Record<string, number>;
  /** The best item's `relevance` reaches `ANSWERABLE_RELEVANCE` and some item shares the question's topic (`relevance.ts`): memory likely holds an answer. */
  answerable: boolean;
}

/** Options of the deterministic agentic loop; every one has a default. */
export interface AgenticOptions extends PolicyOptions, MemoryLayerOptions {
  /** Called with what each item's `relevance` was built from, item by item: for measuring it (`bench/relevance.ts`), never served. */
  onRelevanceSignals?: (signals: RelevanceSignals[]) => void;
  /**
   * Bars of the topic gate of `answerable` (`topicMatched`): an answer reads answerable only when some item shares the
   * question's topic words or comes close to them in meaning (`DEFAULT_TOPIC_BARS` is the measured choice); default null: no gate
   * (`PARLEY_ANSWERABLE_TOPIC_GATE=on` sets `DEFAULT_TOPIC_BARS` in the server).
   */
  topicGate?: TopicBars | null;
  /**
   * Share of the time boosts (`timeBoost`, `periodBoost`: said or dated inside the question's named time) that depends on
   * the item holding the question's content words: an item earns `1 − s + s × coverage` of them, so with 1 an item dated
   * "last week" that shares no content word with the question gets no date boost. 0 to 1; default 0 (the full boost for
   * any item dated inside, as before).
   */
  timeBoostMatch?: number;
  /**
   * Keep a question's temporal cues ("now", "still", "currently", "at the moment") as query words; default false: they
   * ask when, not what (`rewriteQuestion`), and only the temporal intent and validity read them.
   */
  temporalCueTerms?: boolean;
  /**
   * People's names and backchannels count as content of a turn, as before: "Okay, bye Ben!" and "Good to hear." were
   * evidence. Default false: such a turn is no evidence unless it answers the question before it (`evidenceIds`).
   */
  namesAsContent?: boolean;
  /** Most rounds (DESIGN: at most 3); default 3. */
  maxRounds?: number;
  /** Most records a round keeps (raised to k when k is larger); default 20. */
  perRound?: number;
  /** Share of a turn's score the (two) turns after it receive, halving per step; default 0.5 (0 disables). */
  neighbourWeight?: number;
  /** Share of a turn's score the turns before it receive; default 0.2. */
  neighbourBackWeight?: number;
  /** Extra forward share after a turn that ends in a question (see `spreadToNeighbours`); default 0.5. */
  questionBoost?: number;
  /** Divisor of the share a later turn by the same speaker receives (see `spreadToNeighbours`); default 1.5. */
  sameSpeakerDecay?: number;
  /** Turns either side a turn's score spreads to; default 2. */
  neighbourWindow?: number;
  /** Session prior weight (see `spreadToNeighbours`); default 0. */
  sessionWeight?: number;
  /** Weight of round 2 and 3 records against round 1's in the final fusion; default 0.7. */
  laterRoundWeight?: number;
  /** RRF bonus factor for evidence by or to the asker; default 0.25. */
  askerBoost?: number;
  /**
   * Weight of the question a turn answers (`answeredFactor`): a reply to another speaker's question gains
   * `1 + answeredWeight × (share of the question's content words the question and reply hold together beyond the reply
   * alone)`; default 0.5 (chosen on LoCoMo 1–5 and multiparty-dev against 1 and 2; held out: docs/BENCHMARKS.md), 0 off.
   */
  answeredWeight?: number;
  /** Score bonus factor for evidence from the session the question is asked in (`QuestionInput.sessionId`); default 0.5. */
  sessionBoost?: number;
  /** Score bonus factor for turns spoken by a participant the question names as its subject; default 0.6. */
  namedSpeakerBoost?: number;
  /**
   * Give `namedSpeakerBoost` only to the question's subject ("What did **Ana** promise Ben?"), not to
   * every participant it names; default true (false: every named participant, as before).
   */
  subjectOnlyBoost?: boolean;
  /**
   * With `subjectOnlyBoost`: a question with no named subject boosts the people it names who are not addressees
   * (`boostedSubjects`; not in "who" questions); default true. False: no boost then (as before).
   */
  subjectFallback?: boolean;
  /**
   * Share (0–1) of `namedSpeakerBoost` that depends on how well the turn matches the question's content
   * words (names left out): a named speaker's turn gets `namedSpeakerBoost × (1 − share + share × match ^ namedMatchPower)`,
   * where match is the share of content words it holds over the best share among the candidate turns of other
   * speakers, counting only what those state (sentences ending in "?" left out), at most 1. So a weakly
   * matching turn by the named person is not lifted above another person's statement that matches the
   * question's content clearly better ("What did Ana realize after her race?" when Ben ran it), while another
   * person's question ("What pet do you have?") takes nothing from the named person's reply. Default 1 (with
   * `namedBoostMatchPerson`; chosen on LoCoMo conversations 1–5, docs/BENCHMARKS.md); 0: the full boost whatever
   * the turn says (as before).
   */
  namedBoostMatch?: number;
  /**
   * With `namedBoostMatch`: the match is the named person's, not the turn's: the best share of content words any of
   * their candidate turns states (questions left out), the same for all their turns, so their reply that holds the
   * answer but not the question's words keeps the boost when they themselves talked about it; default true
   * (false, the turn's own match, cost categories 1–4 of LoCoMo conversations 1–5 1.6 points of any@5).
   */
  namedBoostMatchPerson?: boolean;
  /**
   * Share (0–1) of the weight of the searches filtered to the question's subject (BM25 and dense over their turns,
   * every round) that depends on whether the subject ever stated the question's content: the weight becomes
   * `weight × (1 − share + share × min(1, match / best) ^ namedMatchPower)`, match = the best share of the question's content words
   * (names left out) the subject's turns in round 1's lists state (sentences ending in "?" left out), best = the
   * same for every other speaker's turns there; none stated by anyone else: the whole weight. So when the question
   * names the wrong person ("What did Ana realize after the race?" when Ben ran it), the subject's own turns, which
   * rank first in their filtered list whatever they say, do not crowd the other person's statement out of the pool.
   * Default 1 (chosen on LoCoMo conversations 1–5, docs/BENCHMARKS.md); 0: the whole weight (as before).
   */
  namedSearchMatch?: number;
  /**
   * Exponent of the subject's match ratio in both `namedBoostMatch` and `namedSearchMatch` (`min(1, match / best) ^
   * power`): a subject who stated part of what another person stated in full keeps little of the boost and of their
   * searches' weight. Default 3 (1: linear, as before; 3 was best on LoCoMo conversations 1–5, docs/BENCHMARKS.md).
   */
  namedMatchPower?: number;
  /** With `namedSearchMatch`: how many of each round-1 list's best turns are read for the match; default 20. */
  namedSearchDepth?: number;
  /**
   * In a question that asks for a person ("Who offered to…?"), the score factor of a superseded item
   * when the question has no temporal cue, instead of `supersededFactor`: who said or offered a thing
   * stays true when the thing is later cancelled or changed; default 1 (chosen on multiparty-dev and
   * LoCoMo conversations 1–5, docs/BENCHMARKS.md; `supersededFactor` there: as before). The item stays marked `superseded`.
   */
  whoSupersededFactor?: number;
  /** RRF constant of the loop's fusions (smaller trusts each list's head more); default 5. */
  rrfK?: number;
  /**
   * How the loop fuses a round's lists and then the rounds (`FusionMethod`, `fuseRanked`): by rank alone (`rrf`, default),
   * or reading each list's own scores (BM25, cosine; a turn a fact stands for takes the fact's), which RRF discards:
   * `combsum-minmax`, `combmnz-minmax`, `combsum-z`, or `rrf-gap` (RRF, each list's weight raised by how far its best score
   * stands out, `fusionGapWeight`). A round's fused scores are the scores of its list in the fusion of rounds.
   */
  fusion?: FusionMethod;
  /** With `fusion: 'rrf-gap'`: a list's weight × (1 + fusionGapWeight × `scoreGap`); default 1. */
  fusionGapWeight?: number;
  /** Also stop as soon as the best record covers the question's content words; default false. */
  stopWhenCovered?: boolean;
  /** Words added by pseudo-relevance feedback in round 2; default 5. */
  feedbackTerms?: number;
  /** Best records the feedback words are drawn from; default 3. */
  feedbackDocs?: number;
  /** Score bonus factor for turns from the time the question names; default 0.5. */
  timeBoost?: number;
  /**
   * Score bonus factor, on top of `timeBoost`, for turns and facts inside the time the question names itself
   * (`TimeScope.periods`: said then, or a fact's event then) rather than only in its slack ("what did the caller ask
   * for last week?": last week's request above this week's); default 1. 0: the slack counts as the time (as before).
   */
  periodBoost?: number;
  /** How a named time becomes ranges (slack, years searched for a month without a year). */
  timeScope?: TimeScopeOptions;
  /** Most turns searched per named time range (newest first); default 1000. */
  timePoolSize?: number;
  /** Score bonus factor for turns holding the kind of answer the question asks for ("When…" → a time); default 1. */
  answerTypeBoost?: number;
  /**
   * Score bonus factor, in place of `answerTypeBoost`, for turns and facts that name a place on a question that asks for
   * one ("Where has Melanie camped?": the turn naming the beach above turns only about camping; `namesPlace`: a
   * capitalised name WordNet files as a location after a place preposition, or elsewhere unless it follows meet, or is
   * a common first name that opens a sentence, follows with/and or is also a person ("Jordan is coming over" names none;
   * "Paris was amazing" does), or "at/in/to the <noun>" where WordNet reads the noun as a place, or "at home", "at work"
   * (not "have to work"), "in bed");
   * default 0 (off).
   */
  placeAnswerBoost?: number;
  /**
   * Score bonus factor, in place of `answerTypeBoost`, for turns and facts that name a person on a question that asks for
   * one ("Who…?", `asksWho`; `namesPerson`: "my sister", "a friend", "a great teacher" but not "a great book", or a name
   * inside a sentence, not the one addressed);
   * default 0 (off).
   */
  personAnswerBoost?: number;
  /**
   * How a turn or fact is judged to hold a time for `answerTypeBoost` on a "When…?" question (`TimeAnswerMode`): `words`
   * (its text names a time chrono reads, or a year), `dated` (its words date what it tells of against when it was said,
   * as its `event_time`: "I just joined a group last Tues"), `dated-facts` (`dated`, and a fact with an `eventTime`);
   * default `words` (`dated` lifted held-out LoCoMo temporal ans@1 but no evidence recall: docs/BENCHMARKS.md, locomo7).
   */
  timeAnswers?: TimeAnswerMode;
  /**
   * The WordNet of the question's word matches (the stem veto of `stemMatches`: absent, the letters alone decide), of
   * `synonymWeight` (absent: no synonyms) and of the place and person answer types; default the local WordNet
   * (`defaultWordNet`).
   */
  wordnet?: WordNet;
  /** WordNet synonyms per content word for `synonymWeight`; default 4. */
  synonymsPerWord?: number;
  /**
   * Term dependence in turn ranking (`term-dependence.ts`, Metzler & Croft's sequential dependence model): the question's
   * adjacent content words found next to each other in order or within 8 words in a turn. `rescore`: every BM25 list over
   * turns is re-ranked by 0.85 × its BM25 score (over the list's best) + 0.1 × ordered + 0.05 × window matches; `list`:
   * one more list in each round's fusion, the round's turns (every list over turns) that hold a pair, ranked by their
   * matches alone (weight `termDependenceWeight`), a turn that only asks holding no pair (`termDependenceAsked`). Default
   * `list`: chosen on LoCoMo conversations 1–5 (paired against `off`: any@5 +1.1, all@5 +1.1) and held out on 6–10 (any@5
   * +0.6, all@5 +0.9, ans@1 +2.8; temporal questions −1.8; docs/BENCHMARKS.md). A question of fewer than two content
   * words is ranked as without it.
   */
  termDependence?: TermDependenceMode;
  /** Weight of the dependence list (`termDependence` `list`) in the round's fusion; default 1. */
  termDependenceWeight?: number;
  /**
   * What of a turn asking something the dependence list reads (`term-dependence.ts` `toldPart`): `kept`, every sentence;
   * `turns` (default), a turn that only asks holds no pair ("what does Miko like to eat?" asked again answers nothing);
   * `sentences`, no sentence that asks counts, in any turn.
   */
  termDependenceAsked?: AskedPart;
  /**
   * Which of the question's word pairs the dependence list searches (`term-dependence.ts` `queryPairs`): `all` (default),
   * or `untimed`, a pair holding a word that names a time ("weeks", "June", "2023") left out: a turn's time is when it was
   * said, and "How many weeks passed …" otherwise pairs with "Last week, my grandma passed away". Not the default: on
   * LoCoMo 1–5 it mends one temporal question and loses one other (docs/BENCHMARKS.md, helper when).
   */
  termDependencePairs?: DependencePairs;
  /**
   * With a question naming a time ("in May 2023"), the dependence list ranks only the round's turns said within it (the
   * time search's ranges, slack included): a turn outside holding the topic's words is not evidence of that time. Default
   * false: on LoCoMo 1–5 it mends one temporal question and loses three whose evidence was said outside the time the
   * question names (docs/BENCHMARKS.md, helper when).
   */
  termDependencePeriod?: boolean;
}

export { ASKED_PARTS, DEPENDENCE_PAIRS, type AskedPart, type DependencePairs } from './term-dependence.js';
import type { AskedPart, DependencePairs } from './term-dependence.js';
export const TERM_DEPENDENCE_MODES = ['off', 'rescore', 'list'] as const;
export type TermDependenceMode = (typeof TERM_DEPENDENCE_MODES)[number];

/**
 * Defaults that depend on the text embedder (its embedding space's model name), under the caller's options: with
 * bge-small-en-v1.5 (fp32 or int8), a far stronger dense retriever than USE-lite on conversation turns (docs/BENCHMARKS.md),
 * dense search weighs as much as BM25 (`denseWeight` 1). Other embedders: none (the defaults of each option, chosen
 * with USE-lite).
 */
export function embedderDefaults(model: string): AgenticOptions {
  return /^bge-small-en-v1\.5/.test(model) ? { ...BGE_DEFAULTS } : {};
}

/**
 * `embedderDefaults` for bge-small-en-v1.5, chosen on LoCoMo conversations 1–5 (docs/BENCHMARKS.md): `denseWeight` 1
 * against 0.5, 0.75 and 1.5 (dense search per named person in round 1, searching again for the words round 1 left open,
 * and a per-session cap for list questions added nothing there and held out, and were removed).
 */
const BGE_DEFAULTS: AgenticOptions = { denseWeight: 1 };
