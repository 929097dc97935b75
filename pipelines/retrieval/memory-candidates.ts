import type { GraphStore } from '../../graph/graph-store.js';
import type { Fact } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { PersonaCandidate } from './hydrate.js';

/** One place in an answer: a turn, a fact (standing for its source turns) or a persona node. */
export type Candidate =
  | { kind: 'turn'; id: string; score: number; u: Utterance; closedAt: string | null }
  | { kind: 'fact'; id: string; score: number; f: Fact }
  | { kind: 'persona'; id: string; score: number; p: PersonaCandidate };

/** What candidate building reads: the loop's turns, best first, and the graph (source turns outside them). */
export interface CandidateInput {
  stores: { graph: Pick<GraphStore, 'getUtterances'> };
  tenant: TenantId;
  turns: { u: Utterance }[];
}

/** A fact's score from its own rank among the facts the question matches (0-based `i`). */
export type OwnRank = (f: Fact, i: number) => number;

/**
 * Facts as items of their own (as before `factsAsPointers`): a fact scores the better of its own
 * rank (only when topical) and the score of its best-ranked source turn, and stands beside the turns.
 */
export function itemCandidates(
  input: CandidateInput, turns: Candidate[], topical: Fact[], facts: Fact[], ownRank: OwnRank, share: (rank: number) => number,
): Candidate[] {
  const turnRank = new Map(input.turns.map((t, i) => [t.u.id, i + 1]));
  const own = new Set(topical.map((f) => f.id));
  const out = [...turns];
  for (const [i, f] of [...topical, ...facts.filter((f) => !own.has(f.id))].entries()) {
    const viaTurn = Math.max(0, ...f.referIds.map((r) => (turnRank.has(r) ? share(turnRank.get(r) as number) : 0)));
    const score = Math.max(own.has(f.id) ? ownRank(f, i) : 0, viaTurn);
    if (score > 0) out.push({ kind: 'fact', id: f.id, score, f });
  }
  return out;
}

/**
 * Facts as pointers to their turns: the answer's places are turns. A topical fact (best first)
 * lifts its source turn to the better of the turn's score and the fact's own rank, and the turn is
 * then served as that fact (the best-ranked one `usable` for it; `usable` gets whether every fact of
 * the turn is closed); a ranked turn with no topical fact is served as its best matched fact among
 * `others`, if any, without a lift. A source turn outside the loop's list is read from the graph and joins with
 * the fact's score. A fact none of whose source turns can be read stays an item of its own.
 */
export async function pointerCandidates(
  input: CandidateInput, turns: Candidate[], topical: Fact[], others: Fact[], ownRank: OwnRank,
  usable: (f: Fact, turnClosed: boolean) => boolean,
): Promise<Candidate[]> {
  const byTurn = new Map<string, Candidate>();
  for (const c of turns) if (c.kind === 'turn') byTurn.set(c.id, c);
  const outside = [...new Set(topical.flatMap((f) => f.referIds))].filter((id) => !byTurn.has(id));
  const read = new Map((await input.stores.graph.getUtterances(input.tenant, outside)).map((u) => [u.id, u]));
  const served = new Map<string, { f: Fact; score: number }>();
  const lifted = new Map<string, number>();
  const alone: Candidate[] = [];
  for (const [i, f] of topical.entries()) {
    const at = f.referIds.find((r) => byTurn.has(r)) ?? f.referIds.find((r) => read.has(r));
    const score = ownRank(f, i);
    // With no lift a fact only stands for a turn the loop ranked.
    if (score <= 0 && (at === undefined || !byTurn.has(at))) continue;
    if (at === undefined) {
      if (usable(f, false)) alone.push({ kind: 'fact', id: f.id, score, f });
      continue;
    }
    const turn = byTurn.get(at);
    const closed = turn?.kind === 'turn' && turn.closedAt !== null;
    if (!usable(f, closed)) continue;
    lifted.set(at, Math.max(lifted.get(at) ?? 0, score));
    if (!served.has(at)) served.set(at, { f, score });
  }
  // A ranked turn none of whose facts the question matches on its words is served as its best
  // matched fact (found by names or by vector), in the turn's place: the item then holds both.
  for (const f of others) {
    const at = f.referIds.find((r) => byTurn.has(r));
    const turn = at === undefined ? undefined : byTurn.get(at);
    if (at !== undefined && !served.has(at) && usable(f, turn?.kind === 'turn' && turn.closedAt !== null)) served.set(at, { f, score: 0 });
  }
  const out: Candidate[] = [];
  for (const c of turns) {
    const pick = served.get(c.id);
    const score = Math.max(c.score, lifted.get(c.id) ?? 0);
    out.push(pick ? { kind: 'fact', id: pick.f.id, score, f: pick.f } : { ...c, score });
  }
  for (const [at, pick] of served) {
    if (byTurn.has(at)) continue;
    out.push({ kind: 'fact', id: pick.f.id, score: lifted.get(at) ?? pick.score, f: pick.f });
  }
  return [...out, ...alone];
}
