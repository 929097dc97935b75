import type { ManagedTransaction } from 'neo4j-driver';
import type { ErasureLease, PendingErasure } from '../pending-erasures.js';
import type { Neo4jRunner } from './neo4j-connection.js';
import { ADD_IDS, stringList } from './neo4j-store-base.js';
import { mergingConflict } from './neo4j-participant-merge.js';

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
    ${ADD_IDS}`, { tenant, id, plan, ids: utteranceIds, at }));
}

/**
 * Record a new erasure of `id`, claimed by `lease.owner`, in one transaction (`GraphStore.beginClaimedErasure`): only
 * while the participant is in the graph and no erasure of them is recorded; false, and nothing written, otherwise. The
 * uniqueness constraint on (tenant, participantId) makes MERGE take its lock: of two at once, one creates the node and
 * the other finds it (`_created` is set and removed inside the creating transaction, so only it reads true). Refused
 * (`PARLEY_ERR_CONFLICT`) while a merge holds the participant (`refuseWhileMerging`).
 */
export async function beginClaimedErasure(db: Neo4jRunner, tenant: string, id: string, plan: string, utteranceIds: string[], lease: ErasureLease): Promise<boolean> {
  const found = await db.write('beginClaimedErasure', async (tx) => (await refuseWhileMerging(tx, tenant, id, 'erasing them'), tx.run(`
    MATCH (p:Participant {tenant: $tenant, id: $id})
    MERGE (e:PendingErasure {tenant: $tenant, participantId: $id})
    ON CREATE SET e.startedAt = $now, e.plan = $plan, e.utteranceIds = $ids, e.owner = $owner, e.leaseUntil = $until, e._created = true
    WITH e, e._created IS NOT NULL AS created
    REMOVE e._created
    RETURN created`, { tenant, id, plan, ids: [...new Set(utteranceIds)], ...lease })));
  return found.records.some((r) => r.get('created') === true);
}

/**
 * Throw `PARLEY_ERR_CONFLICT` in `tx` when participant `id` is held by a merge (its `merging` marker, set by
 * `mergeParticipantBatched` until its last transaction): the node is write-locked before the marker is read, so a
 * merge's check that committed first is seen, and one that comes after waits and then finds what this transaction wrote
 * (the pending erasure, or `erasing`). `what` names the refused operation.
 */
export async function refuseWhileMerging(tx: ManagedTransaction, tenant: string, id: string, what: string): Promise<void> {
  const found = await tx.run(`MATCH (p:Participant {tenant: $tenant, id: $id})
    SET p.lockedForUpdate = true REMOVE p.lockedForUpdate RETURN p.merging AS marker`, { tenant, id });
  const marker = found.records[0]?.get('marker') as string | null | undefined;
  if (marker !== null && marker !== undefined) throw mergingConflict(id, marker, what);
}

/** Add utterance ids to the pending erasure of `id`, if one is recorded (inside the erasure's last transaction). */
export async function addErasedUtterances(tx: ManagedTransaction, tenant: string, id: string, utteranceIds: string[]): Promise<void> {
  if (utteranceIds.length === 0) return;
  await tx.run(`MATCH (e:PendingErasure {tenant: $tenant, participantId: $id})
    ${ADD_IDS}`, { tenant, id, ids: utteranceIds });
}

/** The tenant's pending erasures, oldest first. */
export async function pendingErasures(db: Neo4jRunner, tenant: string): Promise<PendingErasure[]> {
  const found = await db.read('pendingErasures', (tx) => tx.run(`
    MATCH (e:PendingErasure {tenant: $tenant})
    RETURN e.participantId AS id, e.plan AS plan, e.utteranceIds AS ids, e.startedAt AS at, e.owner AS owner, e.leaseUntil AS until
    ORDER BY at, id`, { tenant }));
  const orNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
  return found.records.map((r) => ({
    participantId: String(r.get('id')), plan: String(r.get('plan')), utteranceIds: stringList(r.get('ids')), startedAt: String(r.get('at')),
    owner: orNull(r.get('owner')), leaseUntil: orNull(r.get('until')),
  }));
}

/**
 * Take the lease on the pending erasure of `id` (`GraphStore.claimErasure`). Setting `_lock` first takes the node's
 * write lock, so the owner and lease are read as last committed: two servers claiming at once never both win.
 */
export async function claimErasure(db: Neo4jRunner, tenant: string, id: string, lease: ErasureLease): Promise<boolean> {
  const found = await db.write('claimErasure', (tx) => tx.run(`
    MATCH (e:PendingErasure {tenant: $tenant, participantId: $id})
    SET e._lock = true
    WITH e, (e.owner IS NULL OR e.owner = $owner OR e.leaseUntil <= $now) AS free
    FOREACH (_ IN CASE WHEN free THEN [1] ELSE [] END | SET e.owner = $owner, e.leaseUntil = $until)
    REMOVE e._lock
    RETURN free`, { tenant, id, ...lease }));
  return found.records.some((r) => r.get('free') === true);
}

/** Forget the pending erasure of `id` (done; unknown ids are ignored). */
export async function endErasure(db: Neo4jRunner, tenant: string, id: string): Promise<void> {
  await db.write('endErasure', (tx) => tx.run('MATCH (e:PendingErasure {tenant: $tenant, participantId: $id}) DELETE e', { tenant, id }));
}
