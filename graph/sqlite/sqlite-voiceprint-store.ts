import type { SqliteDatabase } from './database.js';
import type { TenantId } from '../types.js';
import type { Voiceprint, VoiceprintInput, VoiceprintStore } from '../voiceprint-store.js';
import { newId } from '../core/ids.js';

interface Row {
  id: string;
  participant_id: string;
  model_id: string;
  vector: Buffer;
  update_count: number;
  created_at: string;
  updated_at: string;
}

function toPrint(r: Row): Voiceprint {
  // Copy: the Buffer may be a view on a larger, unaligned allocation.
  const bytes = new Uint8Array(r.vector);
  return {
    id: r.id,
    participantId: r.participant_id,
    modelId: r.model_id,
    vector: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4),
    updateCount: r.update_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Voice prototypes in the embedded SQLite database (vectors as little-endian float32 BLOBs). */
export class SqliteVoiceprintStore implements VoiceprintStore {
  private readonly db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS voiceprints (
      tenant TEXT NOT NULL,
      id TEXT NOT NULL,
      participant_id TEXT NOT NULL,
      model_id TEXT NOT NULL,
      vector BLOB NOT NULL,
      update_count INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (tenant, id)
    );
    CREATE INDEX IF NOT EXISTS voiceprints_participant ON voiceprints (tenant, participant_id);`);
  }

  async list(tenant: TenantId, modelId?: string): Promise<Voiceprint[]> {
    const rows = (modelId === undefined
      ? this.db.prepare('SELECT * FROM voiceprints WHERE tenant = ? ORDER BY created_at, rowid').all(tenant)
      : this.db.prepare('SELECT * FROM voiceprints WHERE tenant = ? AND model_id = ? ORDER BY created_at, rowid').all(tenant, modelId)) as Row[];
    return rows.map(toPrint);
  }

  async get(tenant: TenantId, id: string): Promise<Voiceprint | null> {
    const row = this.db.prepare('SELECT * FROM voiceprints WHERE tenant = ? AND id = ?').get(tenant, id) as Row | undefined;
    return row ? toPrint(row) : null;
  }

  async upsert(tenant: TenantId, print: VoiceprintInput): Promise<Voiceprint> {
    const id = print.id ?? newId('vp');
    const now = new Date().toISOString();
    const blob = Buffer.from(print.vector.buffer, print.vector.byteOffset, print.vector.byteLength);
    this.db
      .prepare(`INSERT INTO voiceprints (tenant, id, participant_id, model_id, vector, update_count, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (tenant, id) DO UPDATE SET participant_id = excluded.participant_id, model_id = excluded.model_id,
          vector = excluded.vector, update_count = excluded.update_count, updated_at = excluded.updated_at`)
      .run(tenant, id, print.participantId, print.modelId, blob, print.updateCount, now, now);
    return (await this.get(tenant, id))!;
  }

  async delete(tenant: TenantId, id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM voiceprints WHERE tenant = ? AND id = ?').run(tenant, id).changes > 0;
  }

  async deleteByParticipant(tenant: TenantId, participantId: string): Promise<number> {
    return this.db.prepare('DELETE FROM voiceprints WHERE tenant = ? AND participant_id = ?').run(tenant, participantId).changes;
  }

  async reassign(tenant: TenantId, fromId: string, intoId: string): Promise<number> {
    return this.db
      .prepare('UPDATE voiceprints SET participant_id = ?, updated_at = ? WHERE tenant = ? AND participant_id = ?')
      .run(intoId, new Date().toISOString(), tenant, fromId).changes;
  }

  async countByParticipant(tenant: TenantId, participantId: string): Promise<number> {
    const row = this.db.prepare('SELECT COUNT(*) AS n FROM voiceprints WHERE tenant = ? AND participant_id = ?').get(tenant, participantId) as { n: number };
    return row.n;
  }

  /** The database belongs to the caller; nothing to release here. */
  async close(): Promise<void> {}
}
