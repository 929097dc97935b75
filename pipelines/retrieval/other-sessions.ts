import type { MemoryItem } from '../../graph/core/events.js';
import type { Utterance } from '../../graph/types.js';
import type { Action } from './question-policy.js';
import { isContentWord, tokens } from './question-rewrite.js';
import { reciprocalRankFusion } from './rrf.js';

export { asksForList } from './list-question.js';

/** Which questions the other-sessions round runs for (`otherSessionQuestions`). */
export const OTHER_SESSION_QUESTIONS = ['list', 'subject', 'all'] as const;
export type OtherSessionQuestions = (typeof OTHER_SESSION_QUESTIONS)[number];

/** Which items give their place to the other-sessions round's turns (`otherSessionYield`). */
export const OTHER_SESSION_YIELD = ['repeat', 'last'] as const;
export type OtherSessionYield = (typeof OTHER_SESSION_YIELD)[number];

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
