import { ASKS_NAME, isSelfIntroduction } from './self-introduction.js';
import { factEnded, type Fact } from '../../graph/memory-store.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { collectionFor } from '../memory/collections.js';
import { personaCandidates } from './hydrate.js';
import { itemCandidates, pointerCandidates, type Candidate } from './memory-candidates.js';
import { factItem, personaItem, utteranceItem, type NameResolver } from './memory-items.js';
import type { SearchFilters } from './pool-search.js';
import { expectedAnswerType } from './answer-type.js';
import { coverage } from './question-policy.js';
import { defaultWordNet, type WordNet } from './wordnet.js';
import { oncePerSourceTurn } from './one-per-turn.js';
import { reciprocalRankFusion } from './rrf.js';
import { personaWithin, withinScope, type MemoryScope } from './context-scope.js';
import { heldAsOf } from './as-of.js';
import type { TemporalIntent } from './temporal-intent.js';
import type { AsOfWindow } from './time-scope.js';
import { plansClosedBy, turnsClosedAt } from './validity.js';
import { askedSlots, inAskedOrder, validityAsked } from './where-asked.js';

/** How memory items of every layer join the turns of an answer; every option has a default. */
export interface MemoryLayerOptions {
  /**
   * Weight of a fact's (profile's, relation's) own rank among the facts the question matches; default 0.5.
   * 0 serves no fact items (turns only, as before facts were served).
   */
  factItemWeight?: number;
  /** Weight of a persona node's rank among the asker's and named people's matching nodes; default 0.5 (0: none). */
  personaItemWeight?: number;
  /**
   * Honour validity (default true): a superseded item (closed fact, a fact past its own end such as
   * "for a month", or a turn whose facts are all closed or ended) is
   * dropped when the question asks about now, ranks below the rest (`supersededFactor`) when it has no
   * temporal cue, and is preferred (`pastFactor`, with the facts a matched fact replaced) when it asks
   * about the past. False ignores validity (as before).
   */
  validity?: boolean;
  /**
   * Judge validity as of the time a question names (default true; with `validity`): given
   * `MemoryLayerInput.asOf` windows and no past cue, an item that held then (`heldAsOf`) ranks as
   * current even if replaced since, and one replaced before then, or begun after it, ranks as a
   * superseded item does (`supersededFactor`); a matched fact that did not hold then brings the fact
   * it replaced that did. Items stay marked as of now. False: validity as of now whatever the question names.
   */
  asOf?: boolean;
  /**
   * With `asOf`: an item told after the named time that replaced nothing (a turn, or a fact superseding no other)
   * holds then unless it was closed before it: what is told later often tells of that time ("What did Joanna
   * photograph last summer?" ← "I took that pic on a hike last summer", said in the autumn). Default true. False: anything
   * told after the named time ranks as not holding then (as before). A fact that replaced another still began when told.
   */
  toldLaterHolds?: boolean;
  /**
   * With `validity`, order each person's current values of a slot by what the question asks (`validityAsked`, default
   * true): a present-tense question ("where is Lena now / staying?", "where is Sam working this week?") puts a temporary
   * value that holds (one with its own end ahead) before the lasting value it interrupts, a lasting one ("where does Lena
   * live?", "who is Sam's employer?") the lasting value first. False: as ranked.
   */
  validityAsked?: boolean;
  /**
   * Answer a whereabouts question from the named subject's current slot values (`askedSlots`: "Where does Ana live
   * now?" → her `lives_in` and `staying_in`, "Where is Zoe?" → her stay, then her home, "Where does Ben work?" → his
   * `works_at`): each current value enters with `slotAnswerWeight` × the best item's score, whether or not the loop found
   * its turn (a home said once in a long chat was outranked by turns that merely say "lived"). Default 1.5; 0: off (as
   * before). Not for a question about the past or one that names a time.
   */
  slotAnswerWeight?: number;
  /**
   * Serve a self-introduction (a fact of slot `name`: "The speaker's name is Ana") only to a question about names
   * ("What is Ana's name?", "Who introduced themself?"), and leave it out of its turn's validity (a turn whose other
   * facts were all replaced, "Hi, I'm Ana. I live in Lisbon.", is replaced); default true. False: as any fact (as before).
   */
  namesAsked?: boolean;
  /**
   * With `validity`: an item that only ended by its own time ("out on Friday", "for a month": `validUntil` past, nothing
   * replaced it) is no superseded item for a question that asks for a time and has no temporal cue ("When is Chidi
   * out?"): when it ran is the answer. Default true. False: it ranks as a superseded item does (as before).
   */
  endedAnswersWhen?: boolean;
  /**
   * With `endedAnswersWhen`: among the facts of one subject's slot (slotless: holding the same words of the question) that
   * ended on their own ("out on Friday, dentist", later "out on Friday, a wedding"), the one told last leads and the older rank as superseded items do. Default true.
   * False: all rank alike (as before).
   */
  endedNewestFirst?: boolean;
  /**
   * A question of what holds now ("Is the Lisbon trip still on?", intent `current`): a matched fact on its words that
   * closed a plan (replaced a plan, commitment or request: a cancellation told with its reason) leads (rules 98). Default
   * true. False: it ranks as before.
   */
  closerLeads?: boolean;
  /** Score factor of a superseded item for a question with no temporal cue; default 0.5. */
  supersededFactor?: number;
  /** Score factor of a superseded item for a question about the past; default 1.5. */
  pastFactor?: number;
  /**
   * Diversity: at most this many items from one stretch of conversation (turns of one session within
   * `stretchTurns` of each other; a fact belongs to its source turn's stretch) before items from
   * elsewhere; the rest only fill leftover places (2 keeps a question and its answer). Default 0 (off):
   * on LoCoMo conversations 6–7 a cap of 2 cost 20 points of category-5 any@5 (docs/BENCHMARKS.md).
   */
  stretchCap?: number;
  /** Turns either side of an item that count as its stretch; default 3. */
  stretchTurns?: number;
  /**
   * Serve each source turn once (default true): a fact or turn whose source turns are all already
   * served by a better-ranked item (its own turn, or another fact drawn from the same turn) is
   * skipped, so one turn's several facts do not fill the answer. False: only a turn a fact restates is skipped (as before).
   */
  sourceOnce?: boolean;
  /**
   * Facts as pointers to their turns (default true): the answer is ranked by source turn. A fact the
   * question matches on its words may lift its source turn (`factLiftWeight`), and a ranked turn is
   * served as its best matched fact (one matching the question's words first, else one found by
   * names or by vector), carrying the turn's words (`source_text`): a fact never pushes a turn out,
   * and what the fact leaves out of its turn is still served. A turn with no matched fact is served as the turn.
   * False: facts rank as items of their own beside the turns (as before).
   */
  factsAsPointers?: boolean;
  /**
   * With `factsAsPointers`: weight of a matched fact's own rank in its source turn's score (the lift);
   * default 0: facts never move a turn, they only stand for the turns the loop ranked (whose ranking
   * already counts fact matches). Chosen on LoCoMo conversations 1–5 against 0.25 and 0.5 (docs/BENCHMARKS.md).
   */
  factLiftWeight?: number;
}

/** What the memory layer needs from the question and the loop. */
export interface MemoryLayerInput {
  stores: Pick<Stores, 'graph' | 'memory' | 'vectors' | 'lexical'>;
  tenant: TenantId;
  names: NameResolver;
  question: string;
  /** Keyword query for facts (content words and names: facts are written with names). */
  keywords: string;
  vector: Float32Array | null;
  filters: SearchFilters;
  askerId: string | null;
  /**
   * The score factor the loop gives a turn with this speaker, addressees, text and time (asker, named
   * subject, named time, answer type, the session asked in); a fact's own rank gets the same factor (its subject counts as a speaker,
   * its `eventTime` is passed for the answer type).
   */
  factor: (m: { speakerIds: string[]; addresseeIds: string[]; text: string; time: string; sessionId: string | null; eventTime?: string | null }) => number;
  intent: TemporalIntent;
  /** The times the question names, as validity windows (`TimeScope.windows`); none: validity as of now. */
  asOf?: readonly AsOfWindow[];
  /** The loop's turns, best first (scores only order them). */
  turns: { u: Utterance; score: number }[];
  /** The WordNet that word matches (`coverage`) read (`AgenticOptions.wordnet`); default the system's. */
  wordnet?: WordNet;
  k: number;
  /** RRF constant of the fusion. */
  rrfK: number;
  /** Depth of the fact searches. */
  depth: number;
  /**
   * The question's content words: a fact earns a rank of its own only when its text, slot
   * (`lives_in`) or kind (a commitment: "promise") holds one of them (`factWords`); a fact that matched on names or by vector alone enters only
   * through its source turn.
   */
  terms: readonly string[];
  /** The participants the question is about (its named subjects): whose slot values answer a whereabouts question. */
  subjects?: readonly string[];
  /** ISO-8601 time the question is asked at: a fact past its own end (`validUntil`) no longer holds. Default now. */
  now?: string;
  /** Only memories of these people (`context_scope: participants`), left out before the top `k`; absent: all. */
  scope?: MemoryScope;
}

/**
 * Join the loop's turns with the facts, profiles, relations and persona nodes the question matches
 * (a turn scores 1/(rrfK + rank)). By default facts are pointers to their turns
 * (`factsAsPointers`): a ranked turn is served as its best matched fact, carrying the turn's words;
 * otherwise a fact scores the better of its weighted rank among the matched facts and the score of
 * its best-ranked source turn, and stands beside the turns. Validity: see
 * `MemoryLayerOptions.validity`; diversity: `stretchCap`. Returns at most `k` items: best first, then
 * any that only filled places left after the diversity cap.
 */
export async function answerItems(input: MemoryLayerInput, o: MemoryLayerOptions = {}): Promise<MemoryItem[]> {
  const { stores, tenant, rrfK, intent } = input;
  const share = (rank: number): number => 1 / (rrfK + rank);
  const factW = o.factItemWeight ?? 0.5;
  const personaW = o.personaItemWeight ?? 0.5;
  const validity = o.validity ?? true;
  const nowIso = input.now ?? new Date().toISOString();
  // A "When…?" question with no temporal cue is answered by what has ended on its own too (`endedAnswersWhen`).
  const endsStale = !(o.endedAnswersWhen ?? true) || intent !== null || expectedAnswerType(input.question) !== 'time';
  // A self-introduction answers only a question about names (`namesAsked`).
  const nameless = (o.namesAsked ?? true) && !ASKS_NAME.test(input.question);
  const introduction = (f: Pick<Fact, 'slot'>): boolean => nameless && isSelfIntroduction(f);
  const [matched, persona, closedAt] = await Promise.all([
    factW > 0 ? matchFacts(input) : Promise.resolve([]),
    personaW > 0 && !input.filters.addresseeId && !input.filters.sessionId
      ? personaCandidates(stores, tenant, input.question, input.askerId) : Promise.resolve([]),
    // As of the earliest time no fact has ended on its own: only closed facts close a turn.
    validity ? turnsClosedAt(stores, tenant, input.turns.map((t) => t.u), endsStale ? nowIso : EARLIEST, introduction) : Promise.resolve(new Map<string, string>()),
  ]);
  // Before a fact stands for its turn: one about someone outside the scope leaves the turn to serve as itself.
  const { scope } = input;
  const facts = matched.filter((f) => !introduction(f) && (!scope || withinScope(f, scope)));
  const turnCandidates: Candidate[] = input.turns.map((t, i) => ({ kind: 'turn', id: t.u.id, score: share(i + 1), u: t.u, closedAt: closedAt.get(t.u.id) ?? null }));
  const topical = facts.filter((f) => input.terms.length === 0 || coverage(factWords(f), input.terms, input.wordnet ?? defaultWordNet()) > 0);
  const ownRank = (weight: number) => (f: Fact, i: number): number =>
    weight * share(i + 1) * input.factor({ speakerIds: [f.speakerId, f.subjectId], addresseeIds: f.addresseeIds, text: f.content, time: f.time, sessionId: f.sessionId, eventTime: f.eventTime });
  const superseded = (f: Fact): boolean => f.validTo !== null || (endsStale && factEnded(f, nowIso));
  // As of a named time (no past cue): what held then is current, the rest ranks as replaced.
  const windows = validity && (o.asOf ?? true) && intent !== 'past' ? input.asOf ?? [] : [];
  const asOf = windows.length > 0;
  // Told after the named time, an item that replaced nothing may well tell of that time ("I took that pic last
  // summer"): only its end is judged (`toldLaterHolds`).
  const laterHolds = o.toldLaterHolds ?? true;
  const heldThen = (f: Fact): boolean => heldAsOf(laterHolds && !f.supersedes ? EARLIEST : f.validFrom, f.validTo ?? f.validUntil, windows);
  const stale = (c: Candidate): boolean => (c.kind === 'turn' ? (asOf ? !heldAsOf(laterHolds ? EARLIEST : c.u.time, c.closedAt, windows) : c.closedAt !== null)
    : c.kind === 'fact' && (asOf ? !heldThen(c.f) : superseded(c.f)));
  const candidates = (o.factsAsPointers ?? true)
    ? await pointerCandidates(input, turnCandidates, topical, facts.filter((f) => !topical.includes(f)), ownRank(o.factLiftWeight ?? 0),
      (f, turnClosed) => !validity || intent === 'past' || turnClosed || !superseded(f) || (asOf && heldThen(f)))
    : itemCandidates(input, turnCandidates, topical, facts, ownRank(factW), share);
  const seen = new Set(candidates.map((c) => c.id));
  if (asOf) {
    // A matched fact that did not hold then brings the one it replaced that did (at most 3 steps back).
    for (const c of [...candidates]) {
      if (c.kind !== 'fact' || heldThen(c.f)) continue;
      for await (const old of replacedBy(input, c.f, seen)) {
        if (!heldThen(old)) continue;
        candidates.push({ kind: 'fact', id: old.id, score: c.score, f: old });
        break;
      }
    }
  }
  if (validity && intent === 'past') {
    // What a matched fact replaced answers "before": follow the chain back (at most 3 steps).
    for (const c of [...candidates]) {
      if (c.kind !== 'fact') continue;
      for await (const old of replacedBy(input, c.f, seen)) candidates.push({ kind: 'fact', id: old.id, score: c.score, f: old });
    }
  }
  const slotWeight = o.slotAnswerWeight ?? 1.5;
  if (slotWeight > 0 && intent !== 'past' && !asOf && (input.subjects ?? []).length > 0) {
    await addSlotAnswers(input, candidates, slotWeight, nowIso);
  }
  const speaker = input.filters.speakerId;
  (scope ? personaWithin(persona, scope) : persona).filter((p) => !speaker || p.node.participantId === speaker)
    .forEach((p, i) => candidates.push({ kind: 'persona', id: p.id, score: personaW * share(i + 1), p }));

  // Among facts of one slot (or one subject and topic) that ended on their own and answer a "When…?" (`endedAnswersWhen`), the newest told leads
  // (`endedNewestFirst`): the others rank as superseded items do.
  const endedOlder = validity && !endsStale && (o.endedNewestFirst ?? true) ? olderEnded(candidates, nowIso, input.terms, input.wordnet ?? defaultWordNet()) : new Set<string>();
  const ranked = candidates.flatMap((c) => {
    if (endedOlder.has(c.id)) return [{ ...c, score: c.score * (o.supersededFactor ?? 0.5) }];
    if (!validity || !stale(c)) return [c];
    if (intent === 'current' && !asOf) return [];
    return [{ ...c, score: c.score * (intent === 'past' ? (o.pastFactor ?? 1.5) : (o.supersededFactor ?? 0.5)) }];
  }).sort((a, b) => b.score - a.score || rankOfKind(a) - rankOfKind(b));
  // "Is the Lisbon trip still on?": a fact on the question's words that closed a plan ("…had to cancel the Lisbon trip
  // because…") answers whether it still holds, so it leads (`closerLeads`; rules 98).
  const closers = validity && intent === 'current' && !asOf && (o.closerLeads ?? true)
    ? await plansClosedBy(stores, tenant, ranked.flatMap((c) => (c.kind === 'fact' && topical.some((f) => f.id === c.id) ? [c.f] : [])))
    : new Set<string>();
  const leading = closers.size > 0 ? [...ranked.filter((c) => closers.has(c.id)), ...ranked.filter((c) => !closers.has(c.id))] : ranked;
  // "Where is Sam working this week?": a temporary value that holds before the lasting one; "where does Sam work?": the lasting first.
  const asked = inAskedOrder(leading, validity && (o.validityAsked ?? true) && intent !== 'past' ? validityAsked(input.question) : null, nowIso);
  // Before the top k: what falls outside the scope never takes a place (the facts replaced ones and slot answers brought).
  const scored = scope ? asked.filter((c) => (c.kind === 'persona' ? personaWithin([c.p], scope).length > 0 : withinScope(c.kind === 'turn' ? c.u : c.f, scope))) : asked;

  // A fact item stands for the turns it came from: drop a turn a better-ranked fact already restates
  // (`sourceOnce`: and a fact or turn whose source turns are all served already).
  // At most `stretchCap` items per stretch of conversation first; the others fill leftover places.
  const turnById = new Map(input.turns.map((t) => [t.u.id, t.u]));
  const place = (c: Candidate): Utterance | undefined => (c.kind === 'turn' ? c.u : c.kind === 'fact' ? c.f.referIds.map((r) => turnById.get(r)).find(Boolean) : undefined);
  const cap = o.stretchCap ?? 0;
  const near = o.stretchTurns ?? 3;
  const once = o.sourceOnce ?? true;
  const inStretch = (c: Candidate, kept: readonly Candidate[]): number => {
    const at = place(c);
    return at === undefined ? 0 : kept.filter((x) => {
      const y = place(x);
      return y !== undefined && y.sessionId === at.sessionId && Math.abs(y.seq - at.seq) <= near;
    }).length;
  };
  const kept = oncePerSourceTurn(scored, {
    sources: (c) => (c.kind === 'turn' ? [c.id] : c.kind === 'fact' ? c.f.referIds : []),
    // Without `sourceOnce` only a turn a kept fact restates is left out.
    skippable: (c) => once || c.kind === 'turn',
    limit: input.k,
    defer: (c, sofar) => cap > 0 && inStretch(c, sofar) >= cap,
  });
  // Every speaker and addressee of the served items in one store call (with networked stores, one
  // round trip instead of one per person).
  const people = kept.flatMap((c) => (c.kind === 'turn' ? [c.u.speakerId, ...c.u.addresseeIds]
    : c.kind === 'fact' ? [c.f.speakerId, ...c.f.addresseeIds] : [c.p.node.participantId]));
  const [said] = await Promise.all([sourceTexts(input, kept), input.names.prefetch(people)]);
  return Promise.all(kept.map((c) => (c.kind === 'turn' ? utteranceItem(input.names, c.u, c.score, c.closedAt)
    : c.kind === 'fact' ? factItem(input.names, c.f, c.score, nowIso, said(c.f)) : personaItem(input.names, c.p.node, c.score))));
}

/** The words of each kept fact's source turns, joined (null when none is stored). */
/**
 * The facts `f` replaced, newest first, at most 3 steps back along `supersedes`, stopping at one already `seen` (each
 * read is marked seen).
 */
async function* replacedBy({ stores, tenant }: MemoryLayerInput, f: Fact, seen: Set<string>): AsyncGenerator<Fact> {
  let prev = f.supersedes;
  for (let step = 0; prev && step < 3 && !seen.has(prev); step++) {
    const old = await stores.memory.getFact(tenant, prev);
    if (!old) return;
    seen.add(old.id);
    yield old;
    prev = old.supersedes;
  }
}

async function sourceTexts(input: MemoryLayerInput, kept: Candidate[]): Promise<(f: Fact) => string | null> {
  const byId = new Map(input.turns.map((t) => [t.u.id, t.u]));
  const missing = [...new Set(kept.flatMap((c) => (c.kind === 'fact' ? c.f.referIds : [])))].filter((id) => !byId.has(id));
  if (missing.length > 0) for (const u of await input.stores.graph.getUtterances(input.tenant, missing)) byId.set(u.id, u);
  return (f) => {
    const texts = f.referIds.flatMap((id) => byId.get(id)?.text ?? []);
    return texts.length > 0 ? texts.join(' … ') : null;
  };
}


/**
 * The subjects' current values of the slots a whereabouts question asks (`askedSlots`), added to `candidates` (or
 * raised, when there already) at `weight` × the best candidate's score, so the answer leads with them.
 */
async function addSlotAnswers(input: MemoryLayerInput, candidates: Candidate[], weight: number, now: string): Promise<void> {
  const slots = askedSlots(input.question, input.terms);
  if (slots.length === 0) return;
  const speaker = input.filters.speakerId;
  const subjects = (input.subjects ?? []).filter((s) => !speaker || s === speaker);
  const found = (await Promise.all(subjects.flatMap((subjectId) => slots.map((slot) =>
    input.stores.memory.listFacts(input.tenant, { subjectId, slot, limit: 5 }))))).flat()
    .filter((f) => f.validTo === null && !factEnded(f, now) && !(Date.parse(f.validFrom) > Date.parse(now)));
  if (found.length === 0) return;
  const score = weight * Math.max(0, ...candidates.map((c) => c.score)) || 1;
  for (const f of found) {
    const at = candidates.findIndex((c) => c.id === f.id);
    if (at >= 0) candidates[at] = { ...candidates[at]!, score: Math.max(candidates[at]!.score, score) };
    else candidates.push({ kind: 'fact', id: f.id, score, f });
  }
}

/** A start before any named time: for an item judged by its end only. */
const EARLIEST = '1970-01-01T00:00:00.000Z';

/** Tie-break: a fact (distilled, self-contained) before the turn it restates, persona last. */
const rankOfKind = (c: Candidate): number => (c.kind === 'fact' ? 0 : c.kind === 'turn' ? 1 : 2);

/** Words a question uses for a fact's kind ("What did Ana promise…" → commitments). */
const KIND_WORDS: Partial<Record<Fact['kind'], string>> = {
  commitment: 'promise promised commit committed commitment agree agreed pledge',
  plan: 'plan plans planning intend intends going',
  preference: 'like likes love loves prefer prefers favourite favorite enjoy enjoys',
  request: 'ask asked request requested',
  relation: 'relation relative family',
};

/** The words a fact is about: its text, its slot (`lives_in` → lives in) and its kind's question words. */
export function factWords(f: Pick<Fact, 'content' | 'slot' | 'kind'>): string {
  return `${f.content} ${f.slot?.replace(/[_:]/g, ' ') ?? ''} ${KIND_WORDS[f.kind] ?? ''}`;
}

/** Current facts and profiles the question matches (BM25 with names, dense), best first, as stored. */
async function matchFacts(input: MemoryLayerInput): Promise<Fact[]> {
  const { stores, tenant, filters, depth } = input;
  const lists = [stores.lexical.search(tenant, input.keywords || input.question, depth, { ...filters, layer: ['fact', 'profile'] })
    .then((hits) => ({ ids: hits.map((h) => h.id), weight: 1 }))];
  if (input.vector) {
    for (const layer of ['fact', 'profile'] as const) {
      lists.push(stores.vectors.search(tenant, collectionFor(layer), input.vector, depth, filters)
        .then((hits) => ({ ids: hits.map((h) => h.id), weight: 0.5 })));
    }
  }
  const ranked = reciprocalRankFusion(await Promise.all(lists), input.rrfK).slice(0, depth).map((r) => r.id);
  if (ranked.length === 0) return [];
  const byId = new Map((await stores.memory.listFacts(tenant, { ids: ranked, includeHistory: true, limit: ranked.length })).map((f) => [f.id, f]));
  return ranked.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Ids of the fact candidates that ended on their own (`validUntil` past as of `now`, nothing replaced them) while a fact
 * told later on the same subject did too, in the same slot, or (slotless: "Chidi is out on Friday…") holding the same
 * content words of the question (`coverage` with `wordnet`): the older ones of each group.
 */
function olderEnded(candidates: readonly Candidate[], now: string, terms: readonly string[], wordnet: WordNet): Set<string> {
  const keyOf = (f: Fact): string | null => {
    if (f.slot !== null) return `${f.subjectId}|slot|${f.slot}`;
    const held = terms.filter((t) => coverage(factWords(f), [t], wordnet) === 1);
    return held.length === 0 ? null : `${f.subjectId}|words|${[...held].sort().join(' ')}`;
  };
  const newest = new Map<string, Fact>();
  const ended = candidates.flatMap((c) => (c.kind === 'fact' && c.f.validTo === null && factEnded(c.f, now) && keyOf(c.f) !== null ? [c.f] : []));
  for (const f of ended) {
    const key = keyOf(f)!;
    const best = newest.get(key);
    if (!best || Date.parse(f.time) > Date.parse(best.time)) newest.set(key, f);
  }
  return new Set(ended.filter((f) => newest.get(keyOf(f)!)?.id !== f.id).map((f) => f.id));
}
