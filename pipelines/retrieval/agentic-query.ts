import type { TenantId, Utterance } from '../../graph/types.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { asksWho, expectedAnswerType, holdsAnswerType } from './answer-type.js';
import { feedbackTerms } from './feedback-terms.js';
import { answerItems, type MemoryLayerOptions } from './memory-layer.js';
import { NameResolver } from './memory-items.js';
import { coverage, covers, roundActions, type Action, type PolicyOptions } from './question-policy.js';
import { boostedSubjects, rewriteQuestion, tokens } from './question-rewrite.js';
import type { Retriever } from './retriever.js';
import { reciprocalRankFusion, type RankedList } from './rrf.js';
import { spreadToNeighbours } from './session-context.js';
import { runAction, type ActionContext } from './question-tools.js';
import { temporalIntent } from './temporal-intent.js';
import { defaultWordNet, type WordNet } from './wordnet.js';
import { inScope, timeScope, type TimeRange, type TimeScopeOptions } from './time-scope.js';

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
  /** When the question is asked: what relative times ("last week") count from and what has ended by ("for a month"); default now.*/
  now?: Date;
  signal?: AbortSignal;
}

/** Evidence with the number of rounds and per-stage timings (ms). */
export interface QuestionAnswer {
  evidence: MemoryItem[];
  rounds: number;
  timings: Record<string, number>;
}

/** Options of the deterministic agentic loop; every one has a default. */
export interface AgenticOptions extends PolicyOptions, MemoryLayerOptions {
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
  /** Also stop as soon as the best record covers the question's content words; default false. */
  stopWhenCovered?: boolean;
  /** Words added by pseudo-relevance feedback in round 2; default 5. */
  feedbackTerms?: number;
  /** Best records the feedback words are drawn from; default 3. */
  feedbackDocs?: number;
  /** Score bonus factor for turns from the time the question names; default 0.5. */
  timeBoost?: number;
  /** How a named time becomes ranges (slack, years searched for a month without a year). */
  timeScope?: TimeScopeOptions;
  /** Most turns searched per named time range (newest first); default 1000. */
  timePoolSize?: number;
  /** Score bonus factor for turns holding the kind of answer the question asks for ("When…" → a time); default 1. */
  answerTypeBoost?: number;
  /** Where `synonymWeight` finds synonyms; default the local WordNet (`defaultWordNet`; absent: no synonyms). */
  wordnet?: WordNet;
  /** WordNet synonyms per content word for `synonymWeight`; default 4. */
  synonymsPerWord?: number;
}

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

const now = (): number => performance.now();

/**
 * Answer a question with a deterministic agentic loop (VoxPolyMem, no LLM). The question is
 * rewritten (function words and participant names out; names become speaker filters and a boost).
 * Each round the policy (`roundActions`) picks actions: layer (interaction, or fact + profile mapped
 * back to their source turns via `refer_ids`), tool (BM25, vector, optionally the left brain's staged
 * pool search), query and speaker filter. A round's lists are fused with RRF, de-duplicated, its
 * scores spread to neighbouring turns of the same session (replies hold answers), and at most
 * `perRound` records kept; rounds are fused with RRF again. Round 2 expands the query with
 * pseudo-relevance feedback words from round 1's best records, round 3 searches by vector per named
 * participant. A question that names a time ("in May 2023", "last week") also searches the turns
 * from then, and their evidence gains `timeBoost`; turns holding the kind of answer asked for
 * ("When…" → a time) gain `answerTypeBoost`. The loop stops early when evidence is sufficient:
 * memory is exhausted (a round found fewer records than it may keep), a round brought nothing new,
 * or (opt-in) the best record covers every content word. The best turns are then fused with the
 * facts, profiles, relations and persona nodes the question matches (`answerItems`): evidence items
 * of every layer, best first, current memories above what they replaced unless the question asks
 * about the past (`temporalIntent`); a question that names a time ("in 2024", "last year") is
 * answered as of it: what held then ranks as current, even if replaced since (`asOf`).
 */
export async function answerQuestion(
  retriever: Retriever, tenant: TenantId, input: QuestionInput,
  given: AgenticOptions = {},
): Promise<QuestionAnswer> {
  const options: AgenticOptions = { ...embedderDefaults(retriever.embedder.space.model), ...given };
  const t0 = now();
  const k = input.k ?? 5;
  const maxRounds = Math.min(3, Math.max(1, options.maxRounds ?? 3));
  const cap = Math.max(options.perRound ?? 20, k);
  const who = asksWho(input.question);
  const neighbourWeight = options.neighbourWeight ?? 0.5;
  const laterWeight = options.laterRoundWeight ?? 0.7;
  const askerId = input.asker ?? null;
  const rrfK = options.rrfK ?? 5;
  const { stores } = retriever;
  const signal = input.signal;

  const scope = timeScope(input.question, input.now ?? new Date(), options.timeScope);
  const asked = scope?.rest ?? input.question;
  // Only the participants holding a word of the question can be named in it: read those, not the tenant.
  const participants = await stores.graph.findParticipantsByWords(tenant, tokens(asked));
  const rewritten = rewriteQuestion(asked, participants);
  const stated = statedShares(rewritten.terms);
  // The session is context (`sessionBoost`), never a filter: a question from a new session finds the tenant's memory.
  const filters = {
    ...(input.speakerId ? { speakerId: input.speakerId } : {}), ...(input.addresseeId ? { addresseeId: input.addresseeId } : {}),
  };
  const ranges = scope?.ranges ?? [];
  const ctx: ActionContext = {
    retriever, tenant, filters, question: input.question, askerId, depth: Math.max(30, 2 * cap), poolSize: 0,
    timePool: await turnsIn(stores.graph, tenant, ranges, filters, options.timePoolSize ?? 1000),
    ...(signal ? { signal } : {}),
  };
  const wordnet = (options.synonymWeight ?? 0) > 0 ? options.wordnet ?? defaultWordNet() : null;
  const synonyms = wordnet ? [...new Set(rewritten.terms.flatMap((t) => wordnet.synonymsOf(t, { perWord: options.synonymsPerWord ?? 4 })))]
    .filter((s) => !rewritten.terms.includes(s)) : [];
  const utterances = new Map<string, Utterance>();
  const timings: Record<string, number> = { rewrite_ms: now() - t0 };
  const roundLists: RankedList[] = [];
  const history: Action[] = [];
  let ranking: { id: string; score: number }[] = [];
  let expansion: string[] = [];
  let rounds = 0;
  const boosted = (options.subjectOnlyBoost ?? true) ? boostedSubjects(rewritten, who, options.subjectFallback ?? true) : rewritten.participantIds;
  const searchShare = options.namedSearchMatch ?? 1;
  const matchPower = options.namedMatchPower ?? 3;
  if (!(matchPower > 0)) throw new RangeError(`namedMatchPower is a positive exponent, got ${String(matchPower)}`);
  if (!(searchShare >= 0 && searchShare <= 1)) throw new RangeError(`namedSearchMatch is a share from 0 to 1, got ${String(searchShare)}`);
  const depth = options.namedSearchDepth ?? 20;
  if (!(Number.isInteger(depth) && depth > 0)) throw new RangeError(`namedSearchDepth is a positive whole number, got ${String(depth)}`);
  // Weight factor of the searches filtered to each subject, set from round 1's lists (`namedSearchMatch`).
  let subjectSearch = new Map<string, number>();

  for (let round = 1; round <= maxRounds; round++) {
    signal?.throwIfAborted();
    const started = now();
    const actions = roundActions(round, rewritten, expansion, history, filters, options, ctx.timePool.length > 0, synonyms);
    if (actions.length === 0) continue;
    rounds = round;
    history.push(...actions);
    const lists = await Promise.all(actions.map((a) => runAction(ctx, a)));
    if (round === 1 && searchShare > 0 && rewritten.terms.length > 0 && actions.some((a) => a.speakerId && rewritten.subjectIds.includes(a.speakerId))) {
      const ids = [...new Set(lists.flatMap((l) => l.ids.slice(0, depth)))];
      await textsOf(stores.graph, tenant, ids, utterances);
      subjectSearch = subjectSearchFactors(ids.flatMap((id) => utterances.get(id) ?? []), rewritten.subjectIds, rewritten.terms, searchShare, matchPower, stated);
    }
    const weighted = lists.map((l, i) => {
      const f = subjectSearch.get(actions[i]?.speakerId ?? '');
      return f === undefined ? l : { ...l, weight: (l.weight ?? 1) * f };
    });
    let fused = reciprocalRankFusion(weighted, rrfK);
    fused = await spreadToNeighbours(stores.graph, tenant, fused, utterances, {
      weight: neighbourWeight, backWeight: options.neighbourBackWeight ?? 0.2, top: cap * 2,
      window: options.neighbourWindow ?? 2, questionBoost: options.questionBoost ?? 0.5, sessionWeight: options.sessionWeight ?? 0,
      sameSpeakerDecay: options.sameSpeakerDecay ?? 1.5,
    });
    const kept = fused.slice(0, cap);
    const known = new Set(roundLists.flatMap((l) => l.ids));
    const fresh = kept.filter((f) => !known.has(f.id)).length;
    roundLists.push({ ids: kept.map((f) => f.id), weight: round === 1 ? 1 : laterWeight });
    ranking = reciprocalRankFusion(roundLists, rrfK);
    timings[`round${round}_ms`] = now() - started;

    // Evidence sufficient: memory exhausted (the round found fewer records than it may keep), or the
    // round brought nothing new, or (opt-in) the best record holds every content word.
    if (fused.length < cap || fresh === 0) break;
    if (options.stopWhenCovered === true) {
      const [best] = await textsOf(stores.graph, tenant, ranking.slice(0, 1).map((r) => r.id), utterances);
      if (rewritten.terms.length === 0 || (best !== undefined && covers(best, rewritten.terms))) break;
    }
    if (round === 1) {
      const top = await textsOf(stores.graph, tenant, ranking.slice(0, 15).map((r) => r.id), utterances);
      expansion = feedbackTerms(top, new Set([...rewritten.terms, ...rewritten.nameWords]), options.feedbackTerms ?? 5, options.feedbackDocs ?? 3);
    }
  }

  // Boost the asker's own evidence, then hydrate the best k.
  const missing = ranking.slice(0, k * 3).map((r) => r.id).filter((id) => !utterances.has(id));
  for (const u of await stores.graph.getUtterances(tenant, missing)) utterances.set(u.id, u);
  const boost = options.askerBoost ?? 0.25;
  const sessionBoost = options.sessionBoost ?? 0.5;
  const namedBoost = options.namedSpeakerBoost ?? 0.6;
  const timeBoost = options.timeBoost ?? 0.5;
  const answerType = expectedAnswerType(input.question);
  const typeBoost = options.answerTypeBoost ?? 1;
  // Neighbours reached by spreading honour the explicit filters too.
  const allowed = (u: Utterance): boolean => (!input.speakerId || u.speakerId === input.speakerId) &&
    (!input.addresseeId || u.addresseeIds.includes(input.addresseeId));
  const excluded = new Set(input.excludeIds ?? []);
  const candidates = ranking.filter((r) => utterances.has(r.id) && !excluded.has(r.id) && allowed(utterances.get(r.id) as Utterance));
  const matchShare = options.namedBoostMatch ?? 1;
  if (!(matchShare >= 0 && matchShare <= 1)) throw new RangeError(`namedBoostMatch is a share from 0 to 1, got ${String(matchShare)}`);
  // The best content match among what other people stated (their questions left out: "What pet do you have?" asks,
  // it does not answer): a named speaker's turn is boosted in proportion to its match against it.
  const bestMatch = matchShare > 0 && boosted.length > 0 && rewritten.terms.length > 0
    ? Math.max(0, ...candidates.map((r) => utterances.get(r.id) as Utterance).filter((u) => !boosted.includes(u.speakerId))
      .map(stated)) : 0;
  const personMatch = bestMatch > 0 && (options.namedBoostMatchPerson ?? true)
    ? Math.max(0, ...candidates.map((r) => utterances.get(r.id) as Utterance).filter((u) => boosted.includes(u.speakerId))
      .map(stated)) : null;
  const nameFactor = (text: string): number =>
    namedSpeakerFactor(namedBoost, matchShare, bestMatch > 0 ? personMatch ?? coverage(text, rewritten.terms) : 0, bestMatch, matchPower);
  const factor = (m: { speakerIds: string[]; addresseeIds: string[]; text: string; time: string; sessionId: string | null }): number => {
    const mine = askerId !== null && (m.speakerIds.includes(askerId) || m.addresseeIds.includes(askerId));
    const here = input.sessionId !== undefined && m.sessionId === input.sessionId;
    const named = m.speakerIds.some((s) => boosted.includes(s));
    const when = ranges.length > 0 && inScope(m.time, ranges);
    const typed = answerType !== null && typeBoost > 0 && holdsAnswerType(m.text, answerType);
    return (mine ? 1 + boost : 1) * (named ? nameFactor(m.text) : 1) * (when ? 1 + timeBoost : 1) * (typed ? 1 + typeBoost : 1) *
      (here ? 1 + sessionBoost : 1);
  };
  const final = candidates
    .map((r) => {
      const u = utterances.get(r.id) as Utterance;
      return { u, score: r.score * factor({ speakerIds: [u.speakerId], addresseeIds: u.addresseeIds, text: u.text, time: u.time, sessionId: u.sessionId }) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, k * 3);
  // A named time ("last year", "two months ago") is no past cue of its own: validity is judged as of
  // it (`asOf`); a past cue besides it ("Where did Lena live before 2025?") asks about the past as before.
  const asOf = (options.validity ?? true) && (options.asOf ?? true) && scope !== null;
  const intent = temporalIntent(asOf ? scope.expressions.reduce((q, e) => q.replace(e, ' '), input.question) : input.question);
  const memoryStarted = now();
  const evidence = await answerItems({
    stores, tenant, names: new NameResolver(stores.graph, tenant), question: input.question,
    keywords: [...rewritten.terms, ...rewritten.nameWords].join(' '), vector: await retriever.embed(input.question).catch(() => null),
    terms: rewritten.terms, filters, askerId, factor, intent, asOf: asOf ? scope?.windows ?? [] : [], turns: final, k, rrfK, depth: ctx.depth,
    ...(input.now ? { now: input.now.toISOString() } : {}),
  }, {
    ...options, ...(who ? { supersededFactor: options.whoSupersededFactor ?? 1 } : {}),
  });
  timings.memory_ms = now() - memoryStarted;
  timings.total_ms = now() - t0;
  return { evidence, rounds, timings };
}

/**
 * The score factor of a turn by the question's named subject (`namedBoostMatch`): `1 + boost × (1 − share +
 * share × min(1, match / bestMatch) ^ power)`, where `match` is the share of the question's content words the turn holds
 * and `bestMatch` the best such share stated by another speaker's candidate turn; none (`bestMatch` 0): the whole boost.
 */
export function namedSpeakerFactor(boost: number, share: number, match: number, bestMatch: number, power = 1): number {
  return 1 + boost * (bestMatch > 0 ? 1 - share + share * Math.min(1, match / bestMatch) ** power : 1);
}

/**
 * The weight factor of the searches filtered to each subject (`namedSearchMatch`): `1 − share + share ×
 * min(1, match / best) ^ power`, match = the best share of `terms` a turn of the subject states (`statedPart`), best = the
 * best share a turn of any other speaker states; a subject is left out (the whole weight) when no other speaker's
 * turn states any of the terms. `stated` gives a turn's share of `terms` (default computed here; `statedShares`
 * shares it with the rest of a question).
 */
export function subjectSearchFactors<T extends Pick<Utterance, 'speakerId' | 'text'>>(
  turns: readonly T[], subjectIds: readonly string[], terms: readonly string[], share: number, power = 1,
  stated: (u: T) => number = (u) => coverage(statedPart(u.text), terms),
): Map<string, number> {
  const best = Math.max(0, ...turns.filter((u) => !subjectIds.includes(u.speakerId)).map(stated));
  if (best === 0) return new Map();
  return new Map(subjectIds.map((s) => {
    const match = Math.max(0, ...turns.filter((u) => u.speakerId === s).map(stated));
    return [s, 1 - share + share * Math.min(1, match / best) ** power] as const;
  }));
}

/**
 * The share of `terms` each turn states (`coverage` of its `statedPart`), computed once per turn id and
 * kept for one question only (the terms are that question's).
 */
export function statedShares(terms: readonly string[]): (u: Pick<Utterance, 'id' | 'text'>) => number {
  const shares = new Map<string, number>();
  return (u) => {
    let share = shares.get(u.id);
    if (share === undefined) {
      share = coverage(statedPart(u.text), terms);
      shares.set(u.id, share);
    }
    return share;
  };
}

/** A turn's sentences that do not end in a question mark (what it states, not what it asks). */
export function statedPart(text: string): string {
  return text.split(/(?<=[.!?])\s+/).filter((sentence) => !sentence.trim().endsWith('?')).join(' ');
}

/** Ids of the turns in `ranges` (each newest first, at most `limit`), honouring the filters. */
async function turnsIn(
  graph: Retriever['stores']['graph'], tenant: TenantId, ranges: readonly TimeRange[],
  filters: { speakerId?: string; addresseeId?: string; sessionId?: string }, limit: number,
): Promise<string[]> {
  const lists = await Promise.all(ranges.map((r) => graph.queryInteractions(tenant, { ...filters, since: r.since, until: r.until, limit })));
  return [...new Set(lists.flat().map((u) => u.id))];
}

async function textsOf(
  graph: Retriever['stores']['graph'], tenant: TenantId, ids: string[], utterances: Map<string, Utterance>,
): Promise<string[]> {
  const missing = ids.filter((id) => !utterances.has(id));
  for (const u of await graph.getUtterances(tenant, missing)) utterances.set(u.id, u);
  return ids.map((id) => utterances.get(id)?.text ?? '');
}
