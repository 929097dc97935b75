import type { ManagedTransaction } from 'neo4j-driver';
import type { PendingMerge } from '../pending-merges.js';
import type { Neo4jRunner } from './neo4j-connection.js';
import { ADD_IDS, stringList } from './neo4j-store-base.js';

/**
 * Merges begun and not finished: `(:PendingMerge {tenant, fromId, intoId, utteranceIds, startedAt, touchedAt})`, one per
 * merged-away participant (`PendingMerge`), as the SQLite store's `pending_merges`.
 */
export const PENDING_MERGES_SCHEMA = [
  'CREATE CONSTRAINT parley_pending_merge_key IF NOT EXISTS FOR (n:PendingMerge) REQUIRE (n.tenant, n.fromId) IS UNIQUE',
] as const;

/**
 * Record the merge of `fromId` into `intoId` in `tx` (the merge's claiming transaction), adding `utteranceIds` to the
 * ids recorded (the start time stays).
 */
export async function beginMerge(tx: ManagedTransaction, tenant: string, fromId: string, intoId: string, utteranceIds: string[], at: string): Promise<void> {
  await tx.run(`
    MERGE (e:PendingMerge {tenant: $tenant, fromId: $from})
    ON CREATE SET e.startedAt = $at, e.utteranceIds = []
    SET e.intoId = $into, e.touchedAt = $at
    ${ADD_IDS}`, { tenant, from: fromId, into: intoId, ids: utteranceIds, at });
}

/** The tenant's merges begun and not ended, oldest first. */
export async function pendingMerges(db: Neo4jRunner, tenant: string): Promise<PendingMerge[]> {
  const found = await db.read('pendingMerges', (tx) => tx.run(`
    MATCH (e:PendingMerge {tenant: $tenant})
    RETURN e.fromId AS from, e.intoId AS into, e.utteranceIds AS ids, e.startedAt AS at, e.touchedAt AS touched
    ORDER BY at, from`, { tenant }));
  return found.records.map((r) => ({
    fromId: String(r.get('from')), intoId: String(r.get('into')), utteranceIds: stringList(r.get('ids')),
    startedAt: String(r.get('at')), touchedAt: String(r.get('touched')),
  }));
}

/** Forget the pending merge of `fromId` into `intoId`, and remove its `merging` marker wherever it is still set. */
export async function endMerge(db: Neo4jRunner, tenant: string, fromId: string, intoId: string, marker: string): Promise<void> {
  await db.write('endMerge', async (tx) => {
    await tx.run('MATCH (e:PendingMerge {tenant: $tenant, fromId: $from, intoId: $into}) DELETE e', { tenant, from: fromId, into: intoId });
    await tx.run('MATCH (n:Participant {tenant: $tenant}) WHERE n.id IN [$from, $into] AND n.merging = $marker REMOVE n.merging',
      { tenant, from: fromId, into: intoId, marker });
  });
}

/** Forget the pending merges naming participant `id` in `tx` (erased: the turns they owed re-indexing are gone with them). */
export async function forgetMergesOf(tx: ManagedTransaction, tenant: string, id: string): Promise<void> {
  await tx.run('MATCH (e:PendingMerge {tenant: $tenant}) WHERE e.fromId = $id OR e.intoId = $id DELETE e', { tenant, id });
}
