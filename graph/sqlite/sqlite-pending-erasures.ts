import type { ErasureLease, PendingErasure } from '../pending-erasures.js';
import type { TenantId } from '../types.js';
import { columnStep, createStep, type SchemaStep, type SqliteDatabase } from './database.js';

/**
 * Erasures begun and not finished, one row per participant (`PendingErasure`); `utterance_ids` a JSON array.
 * Created by the graph store's migration on a database of any older version (`PENDING_ERASURES_STEPS`).
 */
const PENDING_ERASURES_SCHEMA = `
CREATE TABLE IF NOT EXISTS pending_erasures (
  tenant TEXT NOT NULL, participant_id TEXT NOT NULL, plan TEXT NOT NULL, utterance_ids TEXT NOT NULL, started_at TEXT NOT NULL,
  owner TEXT, lease_until TEXT,
  PRIMARY KEY (tenant, participant_id));
`;

/** The graph migration's steps (`migrateSchema`): create the table, or add the lease columns to one of an older version. */
export const PENDING_ERASURES_STEPS: SchemaStep[] = [
  createStep(PENDING_ERASURES_SCHEMA),
  columnStep('pending_erasures', 'owner', 'TEXT'),
  columnStep('pending_erasures', 'lease_until', 'TEXT'),
];

/** Record the erasure of `id`, or replace its plan and add `utteranceIds` to those recorded (the start time stays). */
export function beginErasure(db: SqliteDatabase, tenant: TenantId, id: string, plan: string, utteranceIds: string[], at: string): void {
  db.transaction(() => {
    db.prepare(`INSERT INTO pending_erasures (tenant, participant_id, plan, utterance_ids, started_at) VALUES (?, ?, ?, '[]', ?)
      ON CONFLICT (tenant, participant_id) DO UPDATE SET plan = excluded.plan`).run(tenant, id, plan, at);
    addErasedUtterances(db, tenant, id, utteranceIds);
  })();
}

/**
 * Record a new erasure of `id`, claimed by `lease.owner`, in one transaction (`GraphStore.beginClaimedErasure`): only
 * while the participant is in the graph and no erasure of them is recorded; false, and nothing written, otherwise.
 */
export function beginClaimedErasure(db: SqliteDatabase, tenant: TenantId, id: string, plan: string, utteranceIds: string[], lease: ErasureLease): boolean {
  return db.transaction(() => {
    const created = db.prepare(`INSERT INTO pending_erasures (tenant, participant_id, plan, utterance_ids, started_at, owner, lease_until)
      SELECT ?, ?, ?, '[]', ?, ?, ? WHERE EXISTS (SELECT 1 FROM participants WHERE tenant = ? AND id = ?)
      ON CONFLICT (tenant, participant_id) DO NOTHING`).run(tenant, id, plan, lease.now, lease.owner, lease.until, tenant, id).changes > 0;
    if (created) addErasedUtterances(db, tenant, id, utteranceIds);
    return created;
  })();
}

/**
 * Add utterance ids to the pending erasure of `id`, if one is recorded (inside `deleteParticipant`'s transaction, so
 * ids deleted there are never lost to a crash before the second pass).
 */
export function addErasedUtterances(db: SqliteDatabase, tenant: TenantId, id: string, utteranceIds: string[]): void {
  if (utteranceIds.length === 0) return;
  db.prepare(`UPDATE pending_erasures SET utterance_ids = (
      SELECT json_group_array(value) FROM (SELECT value FROM json_each(utterance_ids) UNION SELECT value FROM json_each(?)))
    WHERE tenant = ? AND participant_id = ?`).run(JSON.stringify(utteranceIds), tenant, id);
}

/** The tenant's pending erasures, oldest first. */
export function pendingErasures(db: SqliteDatabase, tenant: TenantId): PendingErasure[] {
  const rows = db.prepare(`SELECT participant_id, plan, utterance_ids, started_at, owner, lease_until FROM pending_erasures WHERE tenant = ?
    ORDER BY started_at, participant_id`).all(tenant) as {
    participant_id: string; plan: string; utterance_ids: string; started_at: string; owner: string | null; lease_until: string | null;
  }[];
  return rows.map((r) => ({
    participantId: r.participant_id, plan: r.plan, utteranceIds: JSON.parse(r.utterance_ids) as string[], startedAt: r.started_at,
    owner: r.owner, leaseUntil: r.lease_until,
  }));
}

/** Take the lease on the pending erasure of `id` (`GraphStore.claimErasure`): one statement, so atomic. */
export function claimErasure(db: SqliteDatabase, tenant: TenantId, id: string, lease: ErasureLease): boolean {
  return db.prepare(`UPDATE pending_erasures SET owner = ?, lease_until = ? WHERE tenant = ? AND participant_id = ?
    AND (owner IS NULL OR owner = ? OR lease_until <= ?)`).run(lease.owner, lease.until, tenant, id, lease.owner, lease.now).changes > 0;
}

/** Forget the pending erasure of `id` (done; unknown ids are ignored). */
export function endErasure(db: SqliteDatabase, tenant: TenantId, id: string): void {
  db.prepare('DELETE FROM pending_erasures WHERE tenant = ? AND participant_id = ?').run(tenant, id);
}
