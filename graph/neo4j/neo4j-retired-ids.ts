import type { ManagedTransaction } from 'neo4j-driver';
import { erasedIdKey, type RetiredParticipant } from '../retired-ids.js';

/**
 * Participant ids the graph no longer holds: `(:RetiredParticipant {tenant, key, mergedInto, retiredAt})`,
 * `key` the merged-away id with the survivor in `mergedInto`, or `erasedIdKey(id)` (a SHA-256, never the id)
 * without `mergedInto`. The same records as the SQLite store's `retired_participants`.
 */
export const RETIRED_IDS_SCHEMA = [
  'CREATE CONSTRAINT parley_retired_participant_key IF NOT EXISTS FOR (n:RetiredParticipant) REQUIRE (n.tenant, n.key) IS UNIQUE',
  'CREATE INDEX parley_retired_participant_survivor IF NOT EXISTS FOR (n:RetiredParticipant) ON (n.tenant, n.mergedInto)',
] as const;

/**
 * Record that `$from` was merged into `$into` (inside the merge's transaction): ids merged into `$from`
 * before now lead to `$into` too, so a lookup is one step however long the chain.
 */
export async function recordMerge(tx: ManagedTransaction, tenant: string, fromId: string, intoId: string, at: string): Promise<void> {
  const params = { tenant, from: fromId, into: intoId, at };
  await tx.run('MATCH (r:RetiredParticipant {tenant: $tenant, mergedInto: $from}) SET r.mergedInto = $into', params);
  await tx.run(`MERGE (r:RetiredParticipant {tenant: $tenant, key: $from})
    SET r.mergedInto = $into, r.retiredAt = $at`, params);
}

/**
 * Record that `id` was erased, by its SHA-256 only (inside the erasure's last transaction). The ids merged
 * into it earlier were its data: they are kept as erased too, by their hashes, and their nodes (which named
 * `id` as survivor) go.
 */
export async function recordErasure(tx: ManagedTransaction, tenant: string, id: string, at: string): Promise<void> {
  const merged = await tx.run('MATCH (r:RetiredParticipant {tenant: $tenant, mergedInto: $id}) RETURN r.key AS key', { tenant, id });
  const keys = [...merged.records.map((r) => erasedIdKey(String(r.get('key')))), erasedIdKey(id)];
  await tx.run(`MATCH (r:RetiredParticipant {tenant: $tenant}) WHERE r.mergedInto = $id OR r.key = $id DELETE r`, { tenant, id });
  await tx.run(`UNWIND $keys AS key
    MERGE (r:RetiredParticipant {tenant: $tenant, key: key})
    SET r.retiredAt = $at REMOVE r.mergedInto`, { tenant, keys, at });
}

/** What became of `id`, when it was merged away or erased; null otherwise. */
export async function lookupRetired(tx: ManagedTransaction, tenant: string, id: string): Promise<RetiredParticipant | null> {
  const found = await tx.run(`MATCH (r:RetiredParticipant {tenant: $tenant}) WHERE r.key IN [$id, $hash]
    RETURN r.key AS key, r.mergedInto AS mergedInto`, { tenant, id, hash: erasedIdKey(id) });
  const rows = found.records.map((r) => ({ key: String(r.get('key')), mergedInto: r.get('mergedInto') as string | null }));
  const merged = rows.find((r) => r.key === id && r.mergedInto);
  if (merged?.mergedInto) return { mergedInto: merged.mergedInto };
  return rows.length > 0 ? { erased: true } : null;
}
