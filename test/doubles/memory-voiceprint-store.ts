import type { TenantId } from '../../graph/types.js';
import type { Voiceprint, VoiceprintInput, VoiceprintStore } from '../../graph/voiceprint-store.js';

/** A tiny in-memory VoiceprintStore for unit tests (the SQLite one is tested separately). */
export class MemoryVoiceprintStore implements VoiceprintStore {
  private readonly rows = new Map<string, Voiceprint & { tenant: string }>();
  private n = 0;
  async list(tenant: TenantId, modelId?: string): Promise<Voiceprint[]> {
    return [...this.rows.values()].filter((r) => r.tenant === tenant && (modelId === undefined || r.modelId === modelId));
  }
  async get(tenant: TenantId, id: string): Promise<Voiceprint | null> {
    const r = this.rows.get(id);
    return r && r.tenant === tenant ? r : null;
  }
  async upsert(tenant: TenantId, p: VoiceprintInput): Promise<Voiceprint> {
    const id = p.id ?? `vp_${++this.n}`;
    const now = new Date().toISOString();
    const row = { tenant, id, participantId: p.participantId, modelId: p.modelId, vector: Float32Array.from(p.vector), updateCount: p.updateCount, createdAt: this.rows.get(id)?.createdAt ?? now, updatedAt: now };
    this.rows.set(id, row);
    return row;
  }
  async delete(tenant: TenantId, id: string): Promise<boolean> {
    return (await this.get(tenant, id)) ? this.rows.delete(id) : false;
  }
  async deleteByParticipant(tenant: TenantId, pid: string): Promise<number> {
    const ids = (await this.list(tenant)).filter((r) => r.participantId === pid).map((r) => r.id);
    ids.forEach((i) => this.rows.delete(i));
    return ids.length;
  }
  async reassign(tenant: TenantId, from: string, into: string): Promise<number> {
    const rs = (await this.list(tenant)).filter((r) => r.participantId === from);
    rs.forEach((r) => (r.participantId = into));
    return rs.length;
  }
  async countByParticipant(tenant: TenantId, pid: string): Promise<number> {
    return (await this.list(tenant)).filter((r) => r.participantId === pid).length;
  }
  async close(): Promise<void> {}
}
