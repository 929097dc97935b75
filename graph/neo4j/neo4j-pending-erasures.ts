import type { ManagedTransaction } from 'neo4j-driver';
import type { PendingErasure } from '../pending-erasures.js';
import type { Neo4jRunner } from './neo4j-connection.js';
import { stringList } from './neo4j-store-base.js';

/**
 * Erasures begun and not finished: `(:PendingErasure {tenant, participantId, plan, utteranceIds, startedAt})`, one per
 * participant (`PendingErasure`), as the SQLite store's `pending_erasures`.
 */
export const PENDING_ERASURES_SCHEMA = [
  'CREATE CONSTRAINT parley_pending_erasure_key IF NOT EXISTS FOR (n:PendingErasure) REQUIRE (n.tenant, n.participantId) IS UNIQUE',
] as const;

/** Record the erasure of `id`, or replace its plan and add `utteranceIds` to those recorded (the start time stays). */
export async function beginErasure(db: Neo4jRunner, tenant: string, id: string, plan: string, utteranceIds: string[], at: string): Promise<void> {
  await db.write('beginErasure', (tx) => tx.run(`
    MERGE (e:PendingErasure {tenant: $tenant, participantId: $id})
    ON CREATE SET e.startedAt = $at, e.utteranceIds = []
    SET e.plan = $plan
    WITH e
    SET e.utteranceIds = e.utteranceIds + [x IN $ids WHERE NOT x IN e.utteranceIds]`, { tenant, id, plan, ids: [...new Set(utteranceIds)], at }));
}

/** Add utterance ids to the pending erasure of `id`, if one is recorded (inside the erasure's last transaction). */
export async function addErasedUtterances(tx: ManagedTransaction, tenant: string, id: string, utteranceIds: string[]): Promise<void> {
  await tx.run(`MATCH (e:PendingErasure {tenant: $tenant, participantId: $id})
    SET e.utteranceIds = e.utteranceIds + [x IN $ids WHERE NOT x IN e.utteranceIds]`, { tenant, id, ids: utteranceIds });
}

/** The tenant's pending erasures, oldest first. */
export async function pendingErasures(db: Neo4jRunner, tenant: string): Promise<PendingErasure[]> {
  const found = await db.read('pendingErasures', (tx) => tx.run(`
    MATCH (e:PendingErasure {tenant: $tenant})
    RETURN e.participantId AS id, e.plan AS plan, e.utteranceIds AS ids, e.startedAt AS at ORDER BY at, id`, { tenant }));
  return found.records.map((r) => ({
    participantId: String(r.get('id')), plan: String(r.get('plan')), utteranceIds: stringList(r.get('ids')), startedAt: String(r.get('at')),
  }));
}

/** Forget the pending erasure of `id` (done; unknown ids are ignored). */
export async function endErasure(db: Neo4jRunner, tenant: string, id: string): Promise<void> {
  await db.write('endErasure', (tx) => tx.run('MATCH (e:PendingErasure {tenant: $tenant, participantId: $id}) DELETE e', { tenant, id }));
}
