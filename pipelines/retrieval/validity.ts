import { factEnded, type Fact } from '../../graph/memory-store.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import { PLANNED_KINDS } from '../memory/plan-match.js';

/**
 * Turns whose facts were all closed (replaced or retracted), erased (`DELETE /v1/memories/:id`) or have
 * ended by their own words by `now` ("for a month", `validUntil`), with when the last one was closed or
 * ended. An erased fact keeps no end, so it counts as closed when its turn was said: the turn still
 * exists as a turn, but what it stated no longer stands as current memory (a replaced fact the user
 * erased must not make its turn outrank the fact that replaced it). A fact `ignored` (a self-introduction, for a question
 * not about names) counts for nothing: a turn of such facts alone is not closed.
 */
export async function turnsClosedAt(stores: Pick<Stores, 'memory'>, tenant: TenantId, turns: readonly Pick<Utterance, 'id' | 'time'>[],
  now: string = new Date().toISOString(), ignored: (f: Fact) => boolean = () => false): Promise<Map<string, string>> {
  const processed = await stores.memory.processedFactsOf(tenant, turns.map((u) => u.id));
  const produced = turns.map((u) => processed.get(u.id) ?? null);
  const factIds = [...new Set(produced.flatMap((p) => p ?? []))];
  const out = new Map<string, string>();
  if (factIds.length === 0) return out;
  const byId = new Map((await stores.memory.listFacts(tenant, { ids: factIds, includeHistory: true, limit: factIds.length })).map((f) => [f.id, f]));
  turns.forEach((u, i) => {
    const ends = (produced[i] ?? []).filter((id) => { const f = byId.get(id); return !f || !ignored(f); }).map((id) => {
      const f = byId.get(id);
      return !f ? new Date(u.time).toISOString() : f.validTo ?? (factEnded(f, now) ? f.validUntil : null);
    });
    if (ends.length === 0 || ends.some((e) => e === null)) return;
    out.set(u.id, (ends as string[]).sort().at(-1) as string);
  });
  return out;
}

/**
 * The facts of `facts` that closed a plan (rules 98): each replaced (`supersedes`) a plan, commitment or request that no
 * longer holds ("…had to cancel the Lisbon trip because Ana broke her leg" replacing "…planned a trip to Lisbon in May").
 * A question whether the plan still holds ("Is the Lisbon trip still on?") is answered by them first.
 */
export async function plansClosedBy(stores: Pick<Stores, 'memory'>, tenant: TenantId, facts: readonly Fact[]): Promise<Set<string>> {
  const closers = facts.filter((f) => f.supersedes && f.validTo === null);
  const closed = await Promise.all(closers.map((f) => stores.memory.getFact(tenant, f.supersedes!)));
  return new Set(closers.filter((_f, i) => {
    const old = closed[i];
    return old !== null && old !== undefined && old.validTo !== null && PLANNED_KINDS.has(old.kind);
  }).map((f) => f.id));
}

/** True when the fact `id` closed a plan ({@link plansClosedBy}). */
export async function closesPlan(stores: Pick<Stores, 'memory'>, tenant: TenantId, id: string): Promise<boolean> {
  const f = await stores.memory.getFact(tenant, id);
  return f !== null && f !== undefined && (await plansClosedBy(stores, tenant, [f])).has(id);
}
