import type { TenantId } from '../../graph/types.js';
import type { NameEvidence, NameEvidenceStore } from '../../pipelines/speaker/naming.js';

/** Address evidence kept in a map, for tests: copies in and out, like a real store. */
export class MemoryNameEvidenceStore implements NameEvidenceStore {
  private readonly map = new Map<string, NameEvidence>();
  async get(tenant: TenantId, id: string): Promise<NameEvidence> {
    return structuredClone(this.map.get(`${tenant}\u0000${id}`) ?? {});
  }
  async update(tenant: TenantId, id: string, update: (ev: NameEvidence) => NameEvidence): Promise<NameEvidence> {
    const next = structuredClone(update(await this.get(tenant, id)));
    this.map.set(`${tenant}\u0000${id}`, next);
    return structuredClone(next);
  }
}
