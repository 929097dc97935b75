import type { PendingMerge } from '../pending-merges.js';
import type { TenantId } from '../types.js';
import { columnStep, createStep, fromJson, toJson, type SchemaStep, type SqliteDatabase } from './database.js';

/**
 * Merges begun and not finished, one row per merged-away participant (`PendingMerge`); `utterance_ids` a JSON array,
 * `erasure` the plan of erasing what the merged-away one still owns (`PendingMerge.erasure`), null until one is recorded.
 */
const PENDING_MERGES_TABLE = `
CREATE TABLE IF NOT EXISTS pending_merges (
  tenant TEXT NOT NULL, from_id TEXT NOT NULL, into_id TEXT NOT NULL, utterance_ids TEXT NOT NULL,
  started_at TEXT NOT NULL, touched_at TEXT NOT NULL, erasure TEXT,
  PRIMARY KEY (tenant, from_id));
CREATE INDEX IF NOT EXISTS pending_merges_by_survivor ON pending_merges (tenant, into_id);
`;

/** The graph migration's steps (`migrateSchema`): create the table, or add the `erasure` column to one of an older version. */
export const PENDING_MERGES_STEPS: SchemaStep[] = [createStep(PENDING_MERGES_TABLE), columnStep('pending_merges', 'erasure', 'TEXT')];

/**
 * Record the merge of `fromId` into `intoId` owing the re-indexing of `utteranceIds` (inside the merge's transaction):
 * a record already there for `fromId` keeps its start time and takes the pair and ids given.
 */
export function beginMerge(db: SqliteDatabase, tenant: TenantId, fromId: string, intoId: string, utteranceIds: string[], at: string): void {
  db.prepare(`INSERT INTO pending_merges (tenant, from_id, into_id, utterance_ids, started_at, touched_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (tenant, from_id) DO UPDATE SET into_id = excluded.into_id, utterance_ids = excluded.utterance_ids, touched_at = excluded.touched_at`)
    .run(tenant, fromId, intoId, toJson(utteranceIds), at, at);
}

type PendingMergeRow = { from_id: string; into_id: string; utterance_ids: string; started_at: string; touched_at: string; erasure: string | null };

/** The tenant's merges begun and not ended, oldest first. */
export function pendingMerges(db: SqliteDatabase, tenant: TenantId): PendingMerge[] {
  return toMerges(db.prepare('SELECT * FROM pending_merges WHERE tenant = ? ORDER BY started_at, from_id').all(tenant) as PendingMergeRow[]);
}

/**
 * The pending merges from or into participant `id`, or into one merged into `id` since (retired ids lead to their
 * survivor in one step), oldest first: `GraphStore.pendingMergesOf`, by index, not the tenant's whole list.
 */
export function pendingMergesOf(db: SqliteDatabase, tenant: TenantId, id: string): PendingMerge[] {
  return toMerges(db.prepare(`SELECT * FROM pending_merges WHERE tenant = @tenant AND from_id = @id
    UNION SELECT * FROM pending_merges WHERE tenant = @tenant AND into_id = @id
    UNION SELECT p.* FROM retired_participants r JOIN pending_merges p ON p.tenant = r.tenant AND p.into_id = r.key
      WHERE r.tenant = @tenant AND r.merged_into = @id
    ORDER BY started_at, from_id`).all({ tenant, id }) as PendingMergeRow[]);
}

function toMerges(rows: PendingMergeRow[]): PendingMerge[] {
  return rows.map((r) => ({
    fromId: r.from_id, intoId: r.into_id, utteranceIds: fromJson<string[]>(r.utterance_ids, []), startedAt: r.started_at, touchedAt: r.touched_at,
    ...(r.erasure === null ? {} : { erasure: r.erasure }),
  }));
}

/** `GraphStore.renewMerge`: one statement; false when no merge of the pair is pending. */
export function renewMerge(db: SqliteDatabase, tenant: TenantId, fromId: string, intoId: string, at: string, erasure?: string): boolean {
  return db.prepare('UPDATE pending_merges SET touched_at = ?, erasure = coalesce(?, erasure) WHERE tenant = ? AND from_id = ? AND into_id = ?')
    .run(at, erasure ?? null, tenant, fromId, intoId).changes > 0;
}

/** Forget the pending merge of `fromId` into `intoId` (none, or one of another pair, is left as it is). */
export function endMerge(db: SqliteDatabase, tenant: TenantId, fromId: string, intoId: string): void {
  db.prepare('DELETE FROM pending_merges WHERE tenant = ? AND from_id = ? AND into_id = ?').run(tenant, fromId, intoId);
}

/** Forget the pending merges naming participant `id` (erased: the turns they owed re-indexing are gone with them). */
export function forgetMergesOf(db: SqliteDatabase, tenant: TenantId, id: string): void {
  db.prepare('DELETE FROM pending_merges WHERE tenant = ? AND (from_id = ? OR into_id = ?)').run(tenant, id, id);
}
