import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';

/** Turns whose facts were all closed (replaced or retracted), with when the last one was closed. */
export async function turnsClosedAt(stores: Pick<Stores, 'memory'>, tenant: TenantId, ids: string[]): Promise<Map<string, string>> {
  const produced = await Promise.all(ids.map((id) => stores.memory.processedFacts(tenant, id)));
  const factIds = [...new Set(produced.flatMap((p) => p ?? []))];
  const out = new Map<string, string>();
  if (factIds.length === 0) return out;
  const byId = new Map((await stores.memory.listFacts(tenant, { ids: factIds, includeHistory: true, limit: factIds.length })).map((f) => [f.id, f]));
  ids.forEach((id, i) => {
    const facts = (produced[i] ?? []).map((f) => byId.get(f));
    if (facts.length === 0 || facts.some((f) => !f || f.validTo === null)) return;
    out.set(id, facts.map((f) => f!.validTo as string).sort().at(-1) as string);
  });
  return out;
}
