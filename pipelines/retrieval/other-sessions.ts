import type { MemoryItem } from '../../graph/core/events.js';
import type { Utterance } from '../../graph/types.js';
import type { Action } from './question-policy.js';
import { isContentWord, tokens } from './question-rewrite.js';
import { reciprocalRankFusion } from './rrf.js';

/** Which questions the other-sessions round runs for (`otherSessionQuestions`). */
export const OTHER_SESSION_QUESTIONS = ['list', 'subject', 'all'] as const;
export type OtherSessionQuestions = (typeof OTHER_SESSION_QUESTIONS)[number];

/** Which items give their place to the other-sessions round's turns (`otherSessionYield`). */
export const OTHER_SESSION_YIELD = ['repeat', 'last'] as const;
export type OtherSessionYield = (typeof OTHER_SESSION_YIELD)[number];

/** Words a list or aggregate question opens with after "what" / "which" that are no plural noun. */
const NOT_PLURAL = new Set('is was has does goes this his its us bus gas yes less unless plus'.split(' '));

/**
 * Whether a question asks for a list or an aggregate, whose answer is told across several sessions: "What activities
 * does Melanie partake in?", "What books has Melanie read?", "What kind of art…", "What has Maria done to…", "Where has
 * Melanie camped?", "How many times…", "What do Jon and Gina both have in common?".
 */
export function asksForList(question: string): boolean {
  const q = question.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/\bhow many\b|\bboth\b|\bin common\b/.test(q)) return true;
  if (/^(?:in )?(?:what|which) (?:kinds?|types?|sorts?) of\b/.test(q)) return true;
  if (/^(?:what|which|where|who) (?:has|have) \w+(?: and \w+)? (?!\w+ing\b)\w+/.test(q)) return true;
  // "What activities does…", "What LGBTQ+ events has…", "Which European countries has…": a plural noun within the first
  // two words, followed by an auxiliary (a verb in -s, "Which song motivates Melanie…", "What Jon thinks…", is no plural).
  const w = q.split(' ');
  const plural = (x: string | undefined): boolean => x !== undefined && /^[a-z]{3,}s$/.test(x) && !/(?:ss|us|is)$/.test(x) && !NOT_PLURAL.has(x);
  if (!/^(?:what|which)$/.test(w[0] === 'in' ? w[1] ?? '' : w[0] ?? '')) return false;
  const at = w[0] === 'in' ? 2 : 1;
  return [at, at + 1].some((i) => plural(w[i]) && AUXILIARIES.has(w[i + 1] ?? ''));
}

/** Auxiliaries after the plural noun of a list question ("What books **has** Melanie read?"). */
const AUXILIARIES = new Set('do does did has have had are were is was can could will would should'.split(' '));

/**
 * The content words at least two of `texts` share, most shared first (first seen breaks ties), `exclude` left out:
 * what the evidence found so far says about the question's topic beyond the question's own words.
 */
export function sharedWords(texts: readonly string[], exclude: ReadonlySet<string>, n: number): string[] {
  const count = new Map<string, number>();
  for (const t of texts) {
    for (const w of new Set(tokens(t).filter((x) => x.length > 2 && isContentWord(x) && !exclude.has(x)))) count.set(w, (count.get(w) ?? 0) + 1);
  }
  return [...count.entries()].filter(([, c]) => c >= 2).sort((a, b) => b[1] - a[1]).slice(0, n).map(([w]) => w);
}

/** The sessions an item tells of: its own and those of its source turns. */
export function itemSessions(item: Pick<MemoryItem, 'session_id' | 'refer_ids'>, sessionOf: ReadonlyMap<string, string | null>): Set<string> {
  const out = new Set<string>();
  if (item.session_id) out.add(item.session_id);
  for (const r of item.refer_ids) {
    const s = sessionOf.get(r);
    if (s) out.add(s);
  }
  return out;
}

/**
 * The searches of the other-sessions round: BM25 and dense over turns with the question's content words and the words
 * the found evidence shares, each restricted to one of the question's subjects (none: unrestricted).
 */
export function otherSessionActions(query: string, subjectIds: readonly string[], denseWeight: number): Action[] {
  const speakers: (string | undefined)[] = subjectIds.length > 0 ? [...subjectIds] : [undefined];
  return speakers.flatMap((s) => [
    { layer: 'interaction' as const, tool: 'bm25' as const, query, weight: 1, ...(s ? { speakerId: s } : {}) },
    ...(denseWeight > 0 ? [{ layer: 'interaction' as const, tool: 'vector' as const, query, weight: denseWeight, ...(s ? { speakerId: s } : {}) }] : []),
  ]);
}

/**
 * The best turn of each session none of `represented` covers, best session first: the lists are fused with RRF (`rrfK`),
 * then each turn not in a represented session and `usable` is kept when its session has none kept yet.
 */
export function bestPerOtherSession(
  lists: { ids: string[]; weight?: number }[], rrfK: number, utterances: ReadonlyMap<string, Utterance>,
  represented: ReadonlySet<string>, usable: (u: Utterance) => boolean, n: number,
): Utterance[] {
  const out: Utterance[] = [];
  const sessions = new Set<string>();
  for (const r of reciprocalRankFusion(lists, rrfK)) {
    if (out.length >= n) break;
    const u = utterances.get(r.id);
    if (!u || u.sessionId === null || represented.has(u.sessionId) || sessions.has(u.sessionId) || !usable(u)) continue;
    sessions.add(u.sessionId);
    out.push(u);
  }
  return out;
}

/**
 * Give at most `newcomers.length` places of `evidence` (best first) to `newcomers`, from the bottom up, never the first
 * place: with `repeat`, only an item all of whose sessions an item above it already tells of; with `last`, any. The
 * best newcomer takes the highest place given, each with the score of the item it replaces, so the list stays in order.
 */
export function yieldPlaces(
  evidence: readonly MemoryItem[], newcomers: readonly MemoryItem[], mode: OtherSessionYield,
  sessionOf: ReadonlyMap<string, string | null>,
): MemoryItem[] {
  const out = [...evidence];
  const places: number[] = [];
  for (let i = out.length - 1; i >= 1 && places.length < newcomers.length; i--) {
    if (mode === 'repeat') {
      const above = new Set(out.slice(0, i).flatMap((x) => [...itemSessions(x, sessionOf)]));
      const mine = itemSessions(out[i] as MemoryItem, sessionOf);
      if (mine.size === 0 || ![...mine].every((s) => above.has(s))) continue;
    }
    places.push(i);
  }
  // The best newcomer takes the highest place given.
  places.sort((a, b) => a - b).forEach((i, j) => {
    out[i] = { ...(newcomers[j] as MemoryItem), score: (out[i] as MemoryItem).score };
  });
  return out;
}
