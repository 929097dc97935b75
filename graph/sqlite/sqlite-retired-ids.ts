import { erasedIdKey, type RetiredParticipant } from '../retired-ids.js';
import type { TenantId } from '../types.js';
import type { SqliteDatabase } from './database.js';

/**
 * Participant ids the graph no longer holds, one row each: `key` is the merged-away id with the survivor in
 * `merged_into`, or `erasedIdKey(id)` (a SHA-256, never the id) with `merged_into` null. Created by the graph
 * store's migration on a database of any older version (no existing row changes).
 */
export const RETIRED_IDS_SCHEMA = `
CREATE TABLE IF NOT EXISTS retired_participants (
  tenant TEXT NOT NULL, key TEXT NOT NULL, merged_into TEXT, retired_at TEXT NOT NULL,
  PRIMARY KEY (tenant, key));
CREATE INDEX IF NOT EXISTS retired_participants_by_survivor ON retired_participants (tenant, merged_into)
  WHERE merged_into IS NOT NULL;
`;

/**
 * Record that `fromId` was merged into `intoId`: ids merged into `fromId` before now lead to `intoId` too,
 * so a lookup is one step however long the chain. Runs inside the merge's transaction.
 */
export function recordMerge(db: SqliteDatabase, tenant: TenantId, fromId: string, intoId: string, at: string): void {
  db.prepare('UPDATE retired_participants SET merged_into = ? WHERE tenant = ? AND merged_into = ?').run(intoId, tenant, fromId);
  db.prepare(`INSERT INTO retired_participants (tenant, key, merged_into, retired_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (tenant, key) DO UPDATE SET merged_into = excluded.merged_into, retired_at = excluded.retired_at`)
    .run(tenant, fromId, intoId, at);
}

/**
 * Record that `id` was erased, by its SHA-256 only. The ids merged into it earlier were its data: they are
 * kept as erased too, by their hashes, and their rows (which named `id` as survivor) go. Runs inside the
 * erasure's transaction.
 */
export function recordErasure(db: SqliteDatabase, tenant: TenantId, id: string, at: string): void {
  const merged = db.prepare('SELECT key FROM retired_participants WHERE tenant = ? AND merged_into = ?').all(tenant, id) as { key: string }[];
  const insert = db.prepare(`INSERT INTO retired_participants (tenant, key, merged_into, retired_at) VALUES (?, ?, NULL, ?)
    ON CONFLICT (tenant, key) DO UPDATE SET merged_into = NULL, retired_at = excluded.retired_at`);
  for (const { key } of merged) insert.run(tenant, erasedIdKey(key), at);
  db.prepare('DELETE FROM retired_participants WHERE tenant = ? AND (merged_into = ? OR key = ?)').run(tenant, id, id);
  insert.run(tenant, erasedIdKey(id), at);
}

/** What became of `id`, when it was merged away or erased; null otherwise. */
export function lookupRetired(db: SqliteDatabase, tenant: TenantId, id: string): RetiredParticipant | null {
  const rows = db.prepare('SELECT key, merged_into FROM retired_participants WHERE tenant = ? AND key IN (?, ?)')
    .all(tenant, id, erasedIdKey(id)) as { key: string; merged_into: string | null }[];
  const merged = rows.find((r) => r.key === id && r.merged_into !== null);
  if (merged?.merged_into) return { mergedInto: merged.merged_into };
  return rows.length > 0 ? { erased: true } : null;
}
