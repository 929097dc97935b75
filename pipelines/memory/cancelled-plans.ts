/**
 * What a cancelled plan takes with it (life5): "I'm going to Madrid next month, I'll stay at my cousin's", then "Actually
 * I won't go to Madrid after all" ends the trip and the stay told with it, in the same session or a later one. What was
 * told with the plan and hangs on it: a fact of the same utterance and subject that has not begun yet (a stay said
 * ahead, `staying_in` from its start) or a plan to stay ("Ana will stay at a hostel there"). Nothing else said with it
 * ("…and I'll call you tomorrow") and nothing said apart from it ends.
 */
import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';

/** Kinds a cancellation closes, and whose stays it takes with them. */
const PLANNED = new Set(['plan', 'commitment', 'request']);

/** True when `f`, told in the same utterance as a plan, hangs on it: not begun at `saidAt`, or a plan to stay. */
function hangsOnPlan(f: Fact, saidAt: string): boolean {
  return f.validFrom > saidAt || (PLANNED.has(f.kind) && f.planObject?.verb === 'stay');
}

/** The current facts that hang on the plans of `closed` (closed by a cancellation said at `saidAt`), not closed yet. */
export async function dependentsOf(memory: MemoryStore, tenant: TenantId, closed: readonly Fact[], saidAt: string): Promise<Fact[]> {
  const out = new Map<string, Fact>();
  for (const plan of closed.filter((f) => PLANNED.has(f.kind))) {
    const told = new Set(plan.referIds);
    for (const f of await memory.listFacts(tenant, { subjectId: plan.subjectId, limit: 200 })) {
      if (f.id === plan.id || closed.some((c) => c.id === f.id) || !f.referIds.some((id) => told.has(id))) continue;
      if (hangsOnPlan(f, saidAt)) out.set(f.id, f);
    }
  }
  return [...out.values()];
}
