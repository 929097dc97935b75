/**
 * Decisions in the order things were said (life5): an utterance older than a fact it would replace or end (a past
 * conversation imported after a newer one, an utterance `POST`ed with an older `time`) never ends that newer fact; what
 * it tells becomes history, closed where the newer fact began and superseded by it. Applied in code to every decider's
 * answer (the rules and the LLM's decide-v5 alike), not left to the prompt.
 */
import type { Fact } from '../../graph/memory-store.js';
import type { Decision } from './decide.js';

/** A decision to write, and the newer fact that closes what it stores (`null`: it is stored current). */
export interface SaidOrder {
  decision: Exclude<Decision, { op: 'NOOP' }>;
  closedBy: Fact | null;
}

/**
 * `decision` for a fact said at `saidAt` (ISO-8601), with `known` the stored facts it may name (candidates, retracted
 * facts). An UPDATE of a fact said later becomes an ADD closed by that fact; a DELETE ends only the facts said no later,
 * and when every one was said later it becomes an ADD closed by the first of them to begin; `alsoReplaces` keeps only
 * facts said no later. A fact not in `known` is taken as said before.
 */
export function inSaidOrder(decision: Exclude<Decision, { op: 'NOOP' }>, known: readonly Fact[], saidAt: string): SaidOrder {
  const newer = (id: string): Fact | undefined => known.find((f) => f.id === id && f.time > saidAt);
  if (decision.op === 'UPDATE') {
    const target = newer(decision.targetId);
    if (target) return { decision: { op: 'ADD' }, closedBy: target };
    const also = decision.alsoReplaces?.filter((id) => !newer(id));
    return { decision: also === undefined ? decision : { ...decision, alsoReplaces: also }, closedBy: null };
  }
  if (decision.op === 'DELETE') {
    const later = decision.targetIds.flatMap((id) => newer(id) ?? []);
    if (later.length === 0) return { decision, closedBy: null };
    const ended = decision.targetIds.filter((id) => !newer(id));
    if (ended.length > 0) return { decision: { op: 'DELETE', targetIds: ended }, closedBy: null };
    const first = [...later].sort((a, b) => a.validFrom.localeCompare(b.validFrom))[0]!;
    return { decision: { op: 'ADD' }, closedBy: first };
  }
  return { decision, closedBy: null };
}
