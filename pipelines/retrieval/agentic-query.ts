import type { TenantId, Utterance } from '../../graph/types.js';
import { ASKED_PARTS, DEPENDENCE_PAIRS, embedderDefaults, TERM_DEPENDENCE_MODES, type AgenticOptions, type QuestionAnswer, type QuestionInput } from './agentic-options.js';
import { dependenceList, queryPairs, rescoreByDependence, turnsWithin } from './term-dependence.js';
import { asksWho, expectedAnswerType, holdsAnswerType, holdsTimeAnswer, TIME_ANSWER_MODES } from './answer-type.js';
import { feedbackTerms } from './feedback-terms.js';
import { denseFeedbackVector } from './dense-feedback.js';
import { answerItems } from './memory-layer.js';
import { answeredFactor, questionsAnswered } from './answered-question.js';
import { NameResolver } from './memory-items.js';
import { namedSpeakerFactor, statedShares, subjectSearchFactors } from './named-subject-match.js';
import { coverage, covers, roundActions, type Action } from './question-policy.js';
import { boostedSubjects, rewriteQuestion, tokens } from './question-rewrite.js';
import type { Retriever } from './retriever.js';
import { evidenceIds } from './turn-evidence.js';
import { fuseRanked, type FusionOptions, type RankedList } from './rrf.js';
import { spreadToNeighbours } from './session-context.js';
import { runAction, type ActionContext } from './question-tools.js';
import { temporalIntent } from './temporal-intent.js';
import { defaultWordNet, type WordNet } from './wordnet.js';
import { answerable, DEFAULT_TOPIC_BARS, relevance, relevanceSignals, topicForms, topicMatched, type RelevanceSignals } from './relevance.js';
import { closesPlan } from './validity.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { withinScope, type MemoryScope } from './context-scope.js';
import { inScope, timeScope, type TimeRange } from './time-scope.js';

// The question's types and options, and the named subject's match, live beside the loop; their importers find them here too.
export { embedderDefaults, type AgenticOptions, type QuestionAnswer, type QuestionInput } from './agentic-options.js';
export { namedSpeakerFactor, statedPart, statedShares, subjectSearchFactors } from './named-subject-match.js';

const now = (): number => performance.now();

/**
 * Answer a question with a deterministic agentic loop (VoxPolyMem, no LLM). The question is
 * rewritten (function words and participant names out; names become speaker filters and a boost).
 * Each round the policy (`roundActions`) picks actions: layer (interaction, or fact + profile mapped
 * back to their source turns via `refer_ids`), tool (BM25, vector, optionally the left brain's staged
 * pool search), query and speaker filter. A round's lists are fused with RRF (or, opt-in, by their scores: `fusion`), de-duplicated, its
 * scores spread to neighbouring turns of the same session (replies hold answers), and at most
 * `perRound` records kept; rounds are fused the same way again. Round 2 expands the query with
 * pseudo-relevance feedback words from round 1's best records within `scope` (and, opt-in, searches by the question vector moved
 * towards theirs: `denseFeedback`), round 3 searches by vector per named
 * participant. A question that names a time ("in May 2023", "last week") also searches the turns
 * from then, and their evidence gains `timeBoost`, and more (`periodBoost`) when said inside the time itself, not
 * only in its slack; turns holding the kind of answer asked for
 * ("When…" → a time; how a time is judged: `timeAnswers`) gain `answerTypeBoost` ("Where…" → a place: `placeAnswerBoost`;
 * "Who…" → a person: `personAnswerBoost`). The loop stops early when evidence is sufficient:
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
  const fusion: FusionOptions = { method: options.fusion ?? 'rrf', k: rrfK, gapWeight: options.fusionGapWeight ?? 1 };
  const { stores } = retriever;
  const signal = input.signal;

  const scope = timeScope(input.question, input.now ?? new Date(), options.timeScope);
  const asked = scope?.rest ?? input.question;
  // Only the participants holding a word of the question can be named in it: read those, not the tenant.
  const participants = await stores.graph.findParticipantsByWords(tenant, tokens(asked));
  const rewritten = rewriteQuestion(asked, participants, { keepTemporalCues: options.temporalCueTerms ?? false, askerId });
  // The WordNet of the stem veto (`coverage`) and of the answer types: the configured one, else the system's.
  const lexicon = options.wordnet ?? defaultWordNet();
  const stated = statedShares(rewritten.terms, lexicon);
  // The session is context (`sessionBoost`), never a filter: a question from a new session finds the tenant's memory.
  const filters = {
    ...(input.speakerId ? { speakerId: input.speakerId } : {}), ...(input.addresseeId ? { addresseeId: input.addresseeId } : {}),
  };
  const ranges = scope?.ranges ?? [];
  const periods = scope?.periods ?? [];
  const ctx: ActionContext = {
    retriever, tenant, filters, question: input.question, askerId, depth: Math.max(30, 2 * cap), poolSize: 0,
    timePool: await turnsIn(stores.graph, tenant, ranges, filters, options.timePoolSize ?? 1000),
    ...(signal ? { signal } : {}),
  };
  const wordnet = (options.synonymWeight ?? 0) > 0 ? lexicon : null;
  const synonyms = wordnet ? [...new Set(rewritten.terms.flatMap((t) => wordnet.synonymsOf(t, { perWord: options.synonymsPerWord ?? 4 })))]
    .filter((s) => !rewritten.terms.includes(s)) : [];
  const utterances = new Map<string, Utterance>();
  const timings: Record<string, number> = { rewrite_ms: now() - t0 };
  const roundLists: RankedList[] = [];
  const history: Action[] = [];
  let ranking: { id: string; score: number }[] = [];
  let expansion: string[] = [];
  let feedback: Float32Array | null = null;
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
  const dependence = options.termDependence ?? 'list';
  if (!TERM_DEPENDENCE_MODES.includes(dependence)) throw new RangeError(`termDependence is one of ${TERM_DEPENDENCE_MODES.join(', ')}, got ${String(dependence)}`);
  const dependenceWeight = options.termDependenceWeight ?? 1;
  if (!(dependenceWeight >= 0)) throw new RangeError(`termDependenceWeight is a weight from 0, got ${String(dependenceWeight)}`);
  const askedPart = options.termDependenceAsked ?? 'turns';
  if (!ASKED_PARTS.includes(askedPart)) throw new RangeError(`termDependenceAsked is one of ${ASKED_PARTS.join(', ')}, got ${String(askedPart)}`);
  const pairsOf = options.termDependencePairs ?? 'all';
  if (!DEPENDENCE_PAIRS.includes(pairsOf)) throw new RangeError(`termDependencePairs is one of ${DEPENDENCE_PAIRS.join(', ')}, got ${String(pairsOf)}`);
  const periodOnly = options.termDependencePeriod ?? false;
  const dependent = dependence !== 'off' && queryPairs(rewritten.terms, dependence === 'list' ? pairsOf : 'all').length > 0;

  for (let round = 1; round <= maxRounds; round++) {
    signal?.throwIfAborted();
    const started = now();
    const actions = roundActions(round, rewritten, expansion, history, filters, options, ctx.timePool.length > 0, synonyms, feedback);
    if (actions.length === 0) continue;
    rounds = round;
    history.push(...actions);
    let lists = await Promise.all(actions.map((a) => runAction(ctx, a)));
    if (dependent && dependence === 'rescore') {
      // Each BM25 list over turns re-ranked with the question's word pairs (`termDependence`); its BM25 scores no longer
      // follow its order, so the list is read by rank.
      const bm25Turns = (i: number): boolean => actions[i]?.layer === 'interaction' && actions[i]?.tool === 'bm25' && lists[i]?.scores !== undefined;
      await textsOf(stores.graph, tenant, [...new Set(lists.flatMap((l, i) => (bm25Turns(i) ? l.ids : [])))], utterances);
      lists = lists.map((l, i) => (bm25Turns(i) ? {
        ids: rescoreByDependence(rewritten.terms, l.ids.map((id, k) => ({ id, text: utterances.get(id)?.text ?? '', score: l.scores?.[k] ?? 0 }))),
        ...(l.weight === undefined ? {} : { weight: l.weight }),
      } : l));
    }
    if (round === 1 && searchShare > 0 && rewritten.terms.length > 0 && actions.some((a) => a.speakerId && rewritten.subjectIds.includes(a.speakerId))) {
      const ids = [...new Set(lists.flatMap((l) => l.ids.slice(0, depth)))];
      await textsOf(stores.graph, tenant, ids, utterances);
      subjectSearch = subjectSearchFactors(ids.flatMap((id) => utterances.get(id) ?? []), rewritten.subjectIds, rewritten.terms, searchShare, matchPower, stated);
    }
    const weighted = lists.map((l, i) => {
      const f = subjectSearch.get(actions[i]?.speakerId ?? '');
      return f === undefined ? l : { ...l, weight: (l.weight ?? 1) * f };
    });
    if (dependent && dependence === 'list' && dependenceWeight > 0) {
      // The round's turns holding the question's word pairs, ranked by them alone (`termDependence`).
      const turnIds = [...new Set(lists.filter((_, i) => actions[i]?.layer === 'interaction').flatMap((l) => l.ids))];
      await textsOf(stores.graph, tenant, turnIds, utterances);
      const read = turnsWithin(turnIds.flatMap((id) => utterances.get(id) ?? []), periodOnly ? ranges : null);
      const ids = dependenceList(rewritten.terms, read, undefined, askedPart, pairsOf);
      if (ids.length > 0) weighted.push({ ids, weight: dependenceWeight });
    }
    let fused = fuseRanked(weighted, fusion);
    fused = await spreadToNeighbours(stores.graph, tenant, fused, utterances, {
      weight: neighbourWeight, backWeight: options.neighbourBackWeight ?? 0.2, top: cap * 2,
      window: options.neighbourWindow ?? 2, questionBoost: options.questionBoost ?? 0.5, sessionWeight: options.sessionWeight ?? 0,
      sameSpeakerDecay: options.sameSpeakerDecay ?? 1.5,
    });
    const kept = fused.slice(0, cap);
    const known = new Set(roundLists.flatMap((l) => l.ids));
    const fresh = kept.filter((f) => !known.has(f.id)).length;
    roundLists.push({ ids: kept.map((f) => f.id), scores: kept.map((f) => f.score), weight: round === 1 ? 1 : laterWeight });
    ranking = fuseRanked(roundLists, fusion);
    timings[`round${round}_ms`] = now() - started;

    // Evidence sufficient: memory exhausted (the round found fewer records than it may keep), or the
    // round brought nothing new, or (opt-in) the best record holds every content word.
    if (fused.length < cap || fresh === 0) break;
    if (options.stopWhenCovered === true) {
      const [best] = await textsOf(stores.graph, tenant, ranking.slice(0, 1).map((r) => r.id), utterances);
      if (rewritten.terms.length === 0 || (best !== undefined && covers(best, rewritten.terms, lexicon))) break;
    }
    if (round === 1) {
      // Drawn from the turns within the scope: another person's memories must not choose the words searched for.
      const scopedRanking = await scopedIds(stores.graph, tenant, ranking.map((r) => r.id), utterances, input.scope);
      const top = await textsOf(stores.graph, tenant, scopedRanking.slice(0, 15), utterances);
      expansion = feedbackTerms(top, new Set([...rewritten.terms, ...rewritten.nameWords]), options.feedbackTerms ?? 5, options.feedbackDocs ?? 3);
      feedback = await denseFeedbackVector(retriever, tenant, input.question, scopedRanking, options);
    }
  }

  // Boost the asker's own evidence, then hydrate the best k.
  // A scope leaves out other people's turns: all the rounds ranked are read, so it still finds k of its own.
  const missing = (input.scope ? ranking : ranking.slice(0, k * 3)).map((r) => r.id).filter((id) => !utterances.has(id));
  for (const u of await stores.graph.getUtterances(tenant, missing)) utterances.set(u.id, u);
  const boost = options.askerBoost ?? 0.25;
  const sessionBoost = options.sessionBoost ?? 0.5;
  const namedBoost = options.namedSpeakerBoost ?? 0.6;
  const timeBoost = options.timeBoost ?? 0.5;
  const periodBoost = options.periodBoost ?? 1;
  if (!(periodBoost >= 0)) throw new RangeError(`periodBoost is a factor of 0 or more, got ${String(periodBoost)}`);
  // Said inside the named time, or (a fact) telling of an event inside it: above what only the slack reaches.
  const inPeriod = (m: { time: string; eventTime?: string | null }): boolean =>
    periodBoost > 0 && periods.length > 0 && (inScope(m.time, periods) || (!!m.eventTime && inScope(m.eventTime, periods)));
  const answerType = expectedAnswerType(input.question);
  const placeBoost = options.placeAnswerBoost ?? 0;
  if (!(placeBoost >= 0)) throw new RangeError(`placeAnswerBoost is a factor of 0 or more, got ${String(placeBoost)}`);
  const personBoost = options.personAnswerBoost ?? 0;
  if (!(personBoost >= 0)) throw new RangeError(`personAnswerBoost is a factor of 0 or more, got ${String(personBoost)}`);
  const typeBoost = answerType === 'place' ? placeBoost : answerType === 'person' ? personBoost : options.answerTypeBoost ?? 1;
  const timeAnswers = options.timeAnswers ?? 'words';
  if (!TIME_ANSWER_MODES.includes(timeAnswers)) throw new RangeError(`timeAnswers is one of ${TIME_ANSWER_MODES.join(', ')}, got ${String(timeAnswers)}`);
  const holdsType = (m: { text: string; time: string; eventTime?: string | null }): boolean =>
    answerType === 'time' ? holdsTimeAnswer(m, timeAnswers) : answerType !== null && holdsAnswerType(m.text, answerType, lexicon);
  // Neighbours reached by spreading honour the explicit filters too.
  const allowed = (u: Utterance): boolean => (!input.speakerId || u.speakerId === input.speakerId) &&
    (!input.addresseeId || u.addresseeIds.includes(input.addresseeId)) && (!input.scope || withinScope(u, input.scope));
  const excluded = new Set(input.excludeIds ?? []);
  // A turn with no content word ("Noted.", "Thanks, bye") is no evidence, however its session or neighbours boost it,
  // unless it answers the question just before it ("Do you eat meat?" / "No."): the pairing below reads them together.
  const eligible = ranking.filter((r) => utterances.has(r.id) && !excluded.has(r.id) && allowed(utterances.get(r.id) as Utterance));
  const kept = await evidenceIds(stores.graph, tenant, eligible.map((r) => utterances.get(r.id) as Utterance), { namesAsContent: options.namesAsContent ?? false });
  const candidates = eligible.filter((r) => kept.has(r.id));
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
    namedSpeakerFactor(namedBoost, matchShare, bestMatch > 0 ? personMatch ?? coverage(text, rewritten.terms, lexicon) : 0, bestMatch, matchPower);
  const timeMatch = options.timeBoostMatch ?? 0;
  if (!(timeMatch >= 0 && timeMatch <= 1)) throw new RangeError(`timeBoostMatch is a share from 0 to 1, got ${String(timeMatch)}`);
  // Share of the time boosts an item earns (`timeBoostMatch`): in proportion to the question's content words it holds,
  // the words of the named time ("last week") left out; a question of none earns the full boost.
  const timeWords = new Set(tokens((scope?.expressions ?? []).join(' ')));
  const timeTerms = rewritten.terms.filter((t) => !timeWords.has(t));
  const timeShare = (text: string): number => (timeMatch === 0 ? 1 : 1 - timeMatch + timeMatch * coverage(text, timeTerms, lexicon));
  const factor = (m: { speakerIds: string[]; addresseeIds: string[]; text: string; time: string; sessionId: string | null; eventTime?: string | null }): number => {
    const mine = askerId !== null && (m.speakerIds.includes(askerId) || m.addresseeIds.includes(askerId));
    const here = input.sessionId !== undefined && m.sessionId === input.sessionId;
    const named = m.speakerIds.some((s) => boosted.includes(s));
    const when = ranges.length > 0 && inScope(m.time, ranges);
    const typed = typeBoost > 0 && holdsType(m);
    const dated = when || inPeriod(m) ? timeShare(m.text) : 0;
    return (mine ? 1 + boost : 1) * (named ? nameFactor(m.text) : 1) * (when ? 1 + timeBoost * dated : 1) * (inPeriod(m) ? 1 + periodBoost * dated : 1) *
      (typed ? 1 + typeBoost : 1) * (here ? 1 + sessionBoost : 1);
  };
  const answeredWeight = options.answeredWeight ?? 0.5;
  // A reply is read with the question it answers (`answeredWeight`): the best candidates only, one read each.
  const askedBy = answeredWeight > 0 && rewritten.terms.length > 0
    ? await questionsAnswered(stores.graph, tenant, candidates.slice(0, k * 6).map((r) => utterances.get(r.id) as Utterance)) : new Map<string, Utterance>();
  const final = candidates
    .map((r) => {
      const u = utterances.get(r.id) as Utterance;
      const answered = answeredFactor(u.text, askedBy.get(u.id)?.text, rewritten.terms, answeredWeight, lexicon);
      return { u, score: r.score * answered * factor({ speakerIds: [u.speakerId], addresseeIds: u.addresseeIds, text: u.text, time: u.time, sessionId: u.sessionId }) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, k * 3);
  // A named time ("last year", "two months ago") is no past cue of its own: validity is judged as of
  // it (`asOf`); a past cue besides it ("Where did Lena live before 2025?") asks about the past as before.
  const asOf = (options.validity ?? true) && (options.asOf ?? true) && scope !== null;
  const intent = temporalIntent(asOf ? scope.expressions.reduce((q, e) => q.replace(e, ' '), input.question) : input.question);
  const memoryStarted = now();
  const questionVector = await retriever.embed(input.question).catch(() => null);
  const evidence = await answerItems({
    stores, tenant, names: new NameResolver(stores.graph, tenant), question: input.question,
    keywords: [...rewritten.terms, ...rewritten.nameWords].join(' '), vector: questionVector,
    terms: rewritten.terms, subjects: boosted, filters, askerId, factor, intent, asOf: asOf ? scope?.windows ?? [] : [], turns: final, k, rrfK, depth: ctx.depth, wordnet: lexicon,
    ...(input.now ? { now: input.now.toISOString() } : {}), ...(input.scope ? { scope: input.scope } : {}),
  }, {
    ...options, ...(who ? { supersededFactor: options.whoSupersededFactor ?? 1 } : {}),
  });
  timings.memory_ms = now() - memoryStarted;
  const relevanceStarted = now();
  // Computed whether or not anyone listens: an optional call would skip evaluating its argument.
  const bars = options.topicGate ?? null;
  const topic = bars === null ? null : topicForms(rewritten.terms, lexicon);
  const signals = await withRelevance(retriever, evidence, rewritten.terms, rewritten.participantIds, questionVector, topic, lexicon);
  options.onRelevanceSignals?.(signals);
  // "Is the Lisbon trip still on?": a leading fact that holds every word of the question and closed a plan (a cancellation
  // told with its reason; `closerLeads`) answers whether it still holds, whatever its blended relevance (rules 98).
  const top = evidence[0];
  const closed = intent === 'current' && !asOf && (options.closerLeads ?? true) && top?.layer === 'fact' && (signals[0]?.lexical ?? 0) >= 1
    && (bars === null || topicMatched(signals, bars)) && await closesPlan(stores, tenant, top.id);
  timings.relevance_ms = now() - relevanceStarted;
  timings.total_ms = now() - t0;
  return { evidence, rounds, timings, answerable: answerable(evidence, signals, bars) || closed };
}

/**
 * Set each item's `relevance` (`relevance.ts`) from its words and its text vector (the items embedded in one call);
 * returns the signals, item by item, words matched with WordNet `lexicon`. An embedder that fails leaves the dense signal
 * out, never the answer.
 */
async function withRelevance(
  retriever: Retriever, items: MemoryItem[], terms: readonly string[], named: readonly string[], question: Float32Array | null,
  topic: string[][] | null, lexicon: WordNet,
): Promise<RelevanceSignals[]> {
  // The topic words alone ("blood type" of "What is Ana's blood type?") are embedded in the same call as the items.
  const topicText = topic && terms.length > 0 ? [terms.join(' ')] : [];
  const vectors = question && items.length > 0 ? await retriever.embedder.embed([...items.map((m) => m.text), ...topicText]).catch(() => null) : null;
  const topicVector = topicText.length > 0 ? vectors?.[items.length] ?? null : null;
  return items.map((m, i) => {
    const s = relevanceSignals(m, terms, named, question, vectors?.[i] ?? null, topic ? { words: topic, vector: topicVector } : undefined, lexicon);
    m.relevance = relevance(s);
    return s;
  });
}

/** Ids of the turns in `ranges` (each newest first, at most `limit`), honouring the filters. */
async function turnsIn(
  graph: Retriever['stores']['graph'], tenant: TenantId, ranges: readonly TimeRange[],
  filters: { speakerId?: string; addresseeId?: string; sessionId?: string }, limit: number,
): Promise<string[]> {
  const lists = await Promise.all(ranges.map((r) => graph.queryInteractions(tenant, { ...filters, since: r.since, until: r.until, limit })));
  return [...new Set(lists.flat().map((u) => u.id))];
}

/** Of the turns `ids` (in order), those within `scope` (read into `utterances`); all of them without a scope. */
async function scopedIds(
  graph: Retriever['stores']['graph'], tenant: TenantId, ids: string[], utterances: Map<string, Utterance>, scope: MemoryScope | undefined,
): Promise<string[]> {
  if (!scope) return ids;
  await textsOf(graph, tenant, ids, utterances);
  return ids.filter((id) => {
    const u = utterances.get(id);
    return u !== undefined && withinScope(u, scope);
  });
}

async function textsOf(
  graph: Retriever['stores']['graph'], tenant: TenantId, ids: string[], utterances: Map<string, Utterance>,
): Promise<string[]> {
  const missing = ids.filter((id) => !utterances.has(id));
  for (const u of await graph.getUtterances(tenant, missing)) utterances.set(u.id, u);
  return ids.map((id) => utterances.get(id)?.text ?? '');
}
