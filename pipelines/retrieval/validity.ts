import { factEnded } from '../../graph/memory-store.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';

/**
 * Turns whose facts were all closed (replaced or retracted) or have ended by their own words by `now`
 * ("for a month", `validUntil`), with when the last one was closed or ended.
 */
export async function turnsClosedAt(stores: Pick<Stores, 'memory'>, tenant: TenantId, ids: string[],
  now: string = new Date().toISOString()): Promise<Map<string, string>> {
  const processed = await stores.memory.processedFactsOf(tenant, ids);
  const produced = ids.map((id) => processed.get(id) ?? null);
  const factIds = [...new Set(produced.flatMap((p) => p ?? []))];
  const out = new Map<string, string>();
  if (factIds.length === 0) return out;
  const byId = new Map((await stores.memory.listFacts(tenant, { ids: factIds, includeHistory: true, limit: factIds.length })).map((f) => [f.id, f]));
  ids.forEach((id, i) => {
    const facts = (produced[i] ?? []).map((f) => byId.get(f));
    const ends = facts.map((f) => (!f ? null : f.validTo ?? (factEnded(f, now) ? f.validUntil : null)));
    if (ends.length === 0 || ends.some((e) => e === null)) return;
    out.set(id, (ends as string[]).sort().at(-1) as string);
  });
  return out;
}
