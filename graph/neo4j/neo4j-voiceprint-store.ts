import type { TenantId } from '../types.js';
import type { Voiceprint, VoiceprintInput, VoiceprintStore } from '../voiceprint-store.js';
import { newId } from '../core/ids.js';
import { int, toNum, type Neo4jOptions } from './neo4j-connection.js';
import { Neo4jStoreBase, propRows, type Props } from './neo4j-store-base.js';

/** Schema statements run once at start-up; each is idempotent. */
export const VOICEPRINT_SCHEMA = [
  'CREATE CONSTRAINT parley_voiceprint_key IF NOT EXISTS FOR (n:Voiceprint) REQUIRE (n.tenant, n.id) IS UNIQUE',
  'CREATE INDEX parley_voiceprint_participant IF NOT EXISTS FOR (n:Voiceprint) ON (n.tenant, n.participantId)',
  'CREATE INDEX parley_voiceprint_model IF NOT EXISTS FOR (n:Voiceprint) ON (n.tenant, n.modelId)',
];

let lastOrd = 0;

/** Insertion number: microseconds since the epoch, strictly increasing in this process (list order tie-break). */
function nextOrd(): number {
  lastOrd = Math.max(Date.now() * 1000, lastOrd + 1);
  return lastOrd;
}

function toPrint(n: Props): Voiceprint {
  return {
    id: String(n.id), participantId: String(n.participantId), modelId: String(n.modelId),
    // Stored as the float32 values widened to float64, so narrowing gives back the exact vector.
    vector: Float32Array.from((n.vector as unknown[]).map(Number)),
    updateCount: toNum(n.updateCount), createdAt: String(n.createdAt), updatedAt: String(n.updatedAt),
  };
}

/**
 * `VoiceprintStore` in Neo4j: one `(:Voiceprint)` node per prototype, the vector a list property.
 * Prototypes are compared in the client (speaker identity lists a tenant's prints of one model), so
 * no vector index is needed. Every MATCH names the tenant; participant and model lookups seek
 * `(tenant, participantId)` / `(tenant, modelId)` indexes. Same semantics as `SqliteVoiceprintStore`.
 */
export class Neo4jVoiceprintStore extends Neo4jStoreBase implements VoiceprintStore {
  constructor(options: Neo4jOptions) {
    super(options, VOICEPRINT_SCHEMA);
  }

  async list(tenant: TenantId, modelId?: string): Promise<Voiceprint[]> {
    await this.init();
    const rows = await this.db.read('listing voiceprints', (tx) => propRows(tx, `
      MATCH (n:Voiceprint {tenant: $tenant}) WHERE $modelId IS NULL OR n.modelId = $modelId
      RETURN n {.*} AS n ORDER BY n.createdAt, n.ord`, { tenant: this.t(tenant), modelId: modelId ?? null }));
    return rows.map(toPrint);
  }

  async get(tenant: TenantId, id: string): Promise<Voiceprint | null> {
    await this.init();
    const rows = await this.db.read('reading a voiceprint', (tx) => propRows(tx,
      'MATCH (n:Voiceprint {tenant: $tenant, id: $id}) RETURN n {.*} AS n', { tenant: this.t(tenant), id }));
    return rows[0] ? toPrint(rows[0]) : null;
  }

  async upsert(tenant: TenantId, print: VoiceprintInput): Promise<Voiceprint> {
    await this.init();
    const id = print.id ?? newId('vp');
    const now = new Date().toISOString();
    const rows = await this.db.write('storing a voiceprint', (tx) => propRows(tx, `
      MERGE (n:Voiceprint {tenant: $tenant, id: $id})
      ON CREATE SET n.createdAt = $now, n.ord = $ord
      SET n.participantId = $participantId, n.modelId = $modelId, n.vector = $vector,
        n.updateCount = $updateCount, n.updatedAt = $now
      RETURN n {.*} AS n`, {
      tenant: this.t(tenant), id, now, ord: int(nextOrd()), participantId: print.participantId, modelId: print.modelId,
      vector: Array.from(print.vector), updateCount: int(print.updateCount),
    }));
    return toPrint(rows[0]!);
  }

  async delete(tenant: TenantId, id: string): Promise<boolean> {
    await this.init();
    return (await this.countingWrite('deleting a voiceprint',
      'MATCH (n:Voiceprint {tenant: $tenant, id: $id}) DETACH DELETE n RETURN count(*) AS n', { tenant: this.t(tenant), id })) > 0;
  }

  async deleteByParticipant(tenant: TenantId, participantId: string): Promise<number> {
    await this.init();
    return this.countingWrite('erasing voiceprints',
      'MATCH (n:Voiceprint {tenant: $tenant, participantId: $participantId}) DETACH DELETE n RETURN count(*) AS n',
      { tenant: this.t(tenant), participantId });
  }

  async reassign(tenant: TenantId, fromId: string, intoId: string): Promise<number> {
    await this.init();
    return this.countingWrite('reassigning voiceprints', `
      MATCH (n:Voiceprint {tenant: $tenant, participantId: $fromId})
      SET n.participantId = $intoId, n.updatedAt = $now RETURN count(*) AS n`,
    { tenant: this.t(tenant), fromId, intoId, now: new Date().toISOString() });
  }

  async countByParticipant(tenant: TenantId, participantId: string): Promise<number> {
    await this.init();
    return this.db.read('counting voiceprints', async (tx) => {
      const result = await tx.run('MATCH (n:Voiceprint {tenant: $tenant, participantId: $participantId}) RETURN count(n) AS n',
        { tenant: this.t(tenant), participantId });
      return toNum(result.records[0]?.get('n') ?? 0);
    });
  }

  private countingWrite(what: string, cypher: string, params: Props): Promise<number> {
    return this.db.write(what, async (tx) => {
      const result = await tx.run(cypher, params);
      return toNum(result.records[0]?.get('n') ?? 0);
    });
  }
}
