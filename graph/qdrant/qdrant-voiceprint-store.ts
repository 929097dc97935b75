import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import type { TenantId } from '../types.js';
import type { Voiceprint, VoiceprintInput, VoiceprintStore } from '../voiceprint-store.js';
import {
  createQdrantClient, pointId, qdrantCall, qdrantCallOr, qdrantWrite, safeName, type QdrantConnectionOptions,
} from './qdrant-common.js';
import { ID_KEY, TENANT_KEY } from './qdrant-filter.js';
import { createIfAbsent } from './qdrant-registry.js';
import { newId } from '../core/ids.js';

interface PrintPayload {
  participantId: string;
  modelId: string;
  updateCount: number;
  createdAt: string;
  updatedAt: string;
}

type Point = { payload?: Record<string, unknown> | null; vector?: unknown };

function toPrint(point: Point): Voiceprint {
  const p = point.payload as unknown as PrintPayload & { [ID_KEY]: string };
  return {
    id: p[ID_KEY], participantId: p.participantId, modelId: p.modelId,
    vector: Float32Array.from(point.vector as number[]),
    updateCount: p.updateCount, createdAt: p.createdAt, updatedAt: p.updatedAt,
  };
}

/**
 * Voice prototypes in Qdrant: the prototype is the point's vector. One collection per embedder and
 * dimension (`<prefix>voiceprints__<model>_<dim>`), dot-product distance (prototypes are
 * L2-normalised, and dot keeps the stored vector exactly as given, where cosine would renormalise it).
 * Tenant, participant and model are indexed payload keywords; every call is filtered by tenant.
 */
export class QdrantVoiceprintStore implements VoiceprintStore {
  private readonly client: QdrantClient;
  private readonly base: string;
  private readonly created = new Map<string, Promise<void>>();

  constructor(options: QdrantConnectionOptions) {
    this.client = createQdrantClient(options);
    this.base = `${options.collectionPrefix ?? 'parley_'}voiceprints__`;
  }

  async list(tenant: TenantId, modelId?: string): Promise<Voiceprint[]> {
    const out: Voiceprint[] = [];
    for (const name of await this.collections(modelId)) {
      const filter = this.filter(tenant, modelId === undefined ? {} : { modelId });
      let offset: Schemas['ExtendedPointId'] | undefined;
      do {
        const page = await qdrantCall(`listing ${name}`, () =>
          this.client.scroll(name, { filter, limit: 1000, with_payload: true, with_vector: true, ...(offset !== undefined ? { offset } : {}) }),
        );
        out.push(...page.points.map(toPrint));
        const next = page.next_page_offset;
        offset = typeof next === 'string' || typeof next === 'number' ? next : undefined;
      } while (offset !== undefined);
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async get(tenant: TenantId, id: string): Promise<Voiceprint | null> {
    return (await this.locate(tenant, id))?.print ?? null;
  }

  async upsert(tenant: TenantId, print: VoiceprintInput): Promise<Voiceprint> {
    const id = print.id ?? newId('vp');
    const now = new Date().toISOString();
    const name = `${this.base}${safeName(print.modelId)}_${print.vector.length}`;
    const existing = print.id === undefined ? null : await this.locate(tenant, id);
    if (existing && existing.collection !== name) await this.delete(tenant, id);
    await this.ensure(name, print.vector.length);
    const payload: PrintPayload & Record<string, unknown> = {
      [TENANT_KEY]: tenant, [ID_KEY]: id, participantId: print.participantId, modelId: print.modelId,
      updateCount: print.updateCount, createdAt: existing?.print.createdAt ?? now, updatedAt: now,
    };
    const upsert = () => this.client.upsert(name, { wait: true, points: [{ id: pointId(tenant, id), vector: Array.from(print.vector), payload }] });
    await qdrantWrite(`upsert into ${name}`, upsert, async () => {
      this.created.delete(name);
      await this.ensure(name, print.vector.length);
    });
    return { id, participantId: print.participantId, modelId: print.modelId, vector: Float32Array.from(print.vector), updateCount: print.updateCount, createdAt: payload.createdAt, updatedAt: now };
  }

  async delete(tenant: TenantId, id: string): Promise<boolean> {
    const found = await this.locate(tenant, id);
    if (!found) return false;
    await qdrantCall(`delete from ${found.collection}`, () =>
      this.client.delete(found.collection, { wait: true, filter: this.filter(tenant, {}, [pointId(tenant, id)]) }),
    );
    return true;
  }

  async deleteByParticipant(tenant: TenantId, participantId: string): Promise<number> {
    let n = 0;
    for (const name of await this.collections()) {
      const filter = this.filter(tenant, { participantId });
      const { count } = await qdrantCall(`count in ${name}`, () => this.client.count(name, { filter, exact: true }));
      if (count > 0) await qdrantCall(`delete from ${name}`, () => this.client.delete(name, { wait: true, filter }));
      n += count;
    }
    return n;
  }

  async reassign(tenant: TenantId, fromId: string, intoId: string): Promise<number> {
    let n = 0;
    for (const name of await this.collections()) {
      const filter = this.filter(tenant, { participantId: fromId });
      const { count } = await qdrantCall(`count in ${name}`, () => this.client.count(name, { filter, exact: true }));
      if (count > 0) {
        await qdrantCall(`reassign in ${name}`, () =>
          this.client.setPayload(name, { wait: true, filter, payload: { participantId: intoId, updatedAt: new Date().toISOString() } }),
        );
      }
      n += count;
    }
    return n;
  }

  async countByParticipant(tenant: TenantId, participantId: string): Promise<number> {
    let n = 0;
    for (const name of await this.collections()) {
      const { count } = await qdrantCall(`count in ${name}`, () =>
        this.client.count(name, { filter: this.filter(tenant, { participantId }), exact: true }),
      );
      n += count;
    }
    return n;
  }

  async close(): Promise<void> {}

  private filter(tenant: string, fields: Record<string, string>, pointIds?: string[]): Schemas['Filter'] {
    return {
      must: [
        { key: TENANT_KEY, match: { value: tenant } },
        ...Object.entries(fields).map(([key, value]) => ({ key, match: { value } })),
        ...(pointIds ? [{ has_id: pointIds }] : []),
      ],
    };
  }

  /** The voiceprint collections, optionally only those of one embedder. */
  private async collections(modelId?: string): Promise<string[]> {
    const { collections } = await qdrantCall('listing collections', () => this.client.getCollections());
    const start = modelId === undefined ? this.base : `${this.base}${safeName(modelId)}_`;
    return collections.map((c) => c.name).filter((n) => n.startsWith(start)).sort();
  }

  private async locate(tenant: string, id: string): Promise<{ collection: string; print: Voiceprint } | null> {
    for (const name of await this.collections()) {
      const points = await qdrantCallOr(`reading ${name}`,
        () => this.client.retrieve(name, { ids: [pointId(tenant, id)], with_payload: true, with_vector: true }), []);
      const point = points.find((p) => p.payload?.[TENANT_KEY] === tenant);
      if (point) return { collection: name, print: toPrint(point) };
    }
    return null;
  }

  private ensure(name: string, dimension: number): Promise<void> {
    let created = this.created.get(name);
    if (!created) {
      created = qdrantCall(`creating ${name}`, async () => {
        const { exists } = await this.client.collectionExists(name);
        if (exists) return;
        await createIfAbsent(this.client, name, { vectors: { size: dimension, distance: 'Dot' } });
        await this.client.createPayloadIndex(name, { wait: true, field_name: TENANT_KEY, field_schema: { type: 'keyword', is_tenant: true } });
        for (const field of ['participantId', 'modelId']) {
          await this.client.createPayloadIndex(name, { wait: true, field_name: field, field_schema: 'keyword' });
        }
      }).catch((err: unknown) => {
        this.created.delete(name);
        throw err;
      });
      this.created.set(name, created);
    }
    return created;
  }
}
