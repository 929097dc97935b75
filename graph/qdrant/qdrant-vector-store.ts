import type { QdrantClient } from '@qdrant/js-client-rest';
import type { TenantId } from '../types.js';
import {
  assertPointDimensions, assertQueryDimension, assertSameSpace, collectionMissing,
  type EmbeddingSpace, type VectorFilter, type VectorHit, type VectorPayload, type VectorPoint, type VectorStore,
} from '../vector-store.js';
import {
  batches, createQdrantClient, pointId, qdrantCall, qdrantCallOr, qdrantReady, qdrantWrite, safeName, UPSERT_BATCH,
  type QdrantConnectionOptions,
} from './qdrant-common.js';
import { ID_KEY, KEYWORD_FIELDS, TENANT_KEY, toQdrantFilter } from './qdrant-filter.js';
import { createIfAbsent, QdrantRegistry, type CollectionBinding } from './qdrant-registry.js';

/** Strip Parley's bookkeeping keys from a stored payload. */
function toPayload(stored: Record<string, unknown> | null | undefined): VectorPayload {
  const { [TENANT_KEY]: _tenant, [ID_KEY]: _id, ...rest } = stored ?? {};
  return { layer: '', ...rest } as VectorPayload;
}

/**
 * Dense vectors in Qdrant. Each Parley collection bound to an embedding space lives in its own Qdrant
 * collection named `<prefix><collection>__<model>_<dimension>` (cosine distance), so re-embedding with
 * another model never mixes spaces; the binding is kept in a registry collection. All tenants share
 * a collection: `tenant` is a keyword payload index marked `is_tenant`, and every search, count and
 * delete is filtered by it. Point ids are name-based UUIDs of (tenant, Parley id).
 */
export class QdrantVectorStore implements VectorStore {
  private readonly client: QdrantClient;
  private readonly registry: QdrantRegistry;
  private readonly prefix: string;

  constructor(private readonly options: QdrantConnectionOptions) {
    this.client = createQdrantClient(options);
    this.prefix = options.collectionPrefix ?? 'parley_';
    this.registry = new QdrantRegistry(this.client, `${this.prefix}vectors_`);
  }

  async ensureCollection(collection: string, space: EmbeddingSpace): Promise<void> {
    const current = await this.registry.get(collection);
    if (current) {
      assertSameSpace(collection, current, space);
      return;
    }
    const qdrantName = `${this.prefix}${safeName(collection)}__${safeName(space.model)}_${space.dimension}`;
    await this.createQdrantCollection(qdrantName, space);
    await this.registry.set(collection, { ...space, qdrantName });
  }

  private async createQdrantCollection(qdrantName: string, space: EmbeddingSpace): Promise<void> {
    await qdrantCall(`creating collection ${qdrantName}`, async () => {
      await createIfAbsent(this.client, qdrantName, { vectors: { size: space.dimension, distance: 'Cosine' } });
      await this.client.createPayloadIndex(qdrantName, {
        wait: true, field_name: TENANT_KEY, field_schema: { type: 'keyword', is_tenant: true },
      });
      for (const field of KEYWORD_FIELDS) {
        await this.client.createPayloadIndex(qdrantName, { wait: true, field_name: field, field_schema: 'keyword' });
      }
    });
  }

  async collectionSpace(collection: string): Promise<EmbeddingSpace | null> {
    const binding = await this.registry.get(collection);
    return binding ? { model: binding.model, dimension: binding.dimension } : null;
  }

  async upsert(tenant: TenantId, collection: string, points: VectorPoint[]): Promise<void> {
    if (points.length === 0) return;
    let binding = await this.requireBinding(collection);
    assertPointDimensions(collection, points, binding.dimension);
    for (const batch of batches(points, UPSERT_BATCH)) {
      // `wait: true`: Qdrant answers once the batch is applied, so an acknowledged write is durable.
      const upsert = (into: CollectionBinding) => this.client.upsert(into.qdrantName, {
        wait: true,
        points: batch.map((p) => ({
          id: pointId(tenant, p.id),
          vector: Array.from(p.vector),
          payload: { ...p.payload, [TENANT_KEY]: tenant, [ID_KEY]: p.id },
        })),
      });
      // A stale binding (another process re-embedded the collection) or a Qdrant collection gone
      // under a live binding: read the binding again and create its collection if missing.
      await qdrantWrite(`upsert into ${binding.qdrantName}`, () => upsert(binding), async () => {
        this.registry.forget(collection);
        binding = await this.requireBinding(collection);
        assertPointDimensions(collection, points, binding.dimension);
        await this.createQdrantCollection(binding.qdrantName, binding);
      });
    }
  }

  async get(tenant: TenantId, collection: string, ids: string[]): Promise<VectorPoint[]> {
    const binding = await this.registry.get(collection);
    if (!binding || ids.length === 0) return [];
    const out: VectorPoint[] = [];
    for (const batch of batches(ids, UPSERT_BATCH)) {
      const points = await qdrantCall(`get from ${binding.qdrantName}`, () =>
        this.client.retrieve(binding.qdrantName, { ids: batch.map((id) => pointId(tenant, id)), with_payload: true, with_vector: true }));
      for (const p of points) {
        if (!Array.isArray(p.vector) || p.payload?.[TENANT_KEY] !== tenant) continue;
        out.push({ id: String(p.payload?.[ID_KEY] ?? ''), vector: Float32Array.from(p.vector as number[]), payload: toPayload(p.payload) });
      }
    }
    return out;
  }

  async search(tenant: TenantId, collection: string, vector: Float32Array, k: number, filter?: VectorFilter): Promise<VectorHit[]> {
    const binding = await this.registry.get(collection);
    if (!binding || k <= 0 || filter?.ids?.length === 0) return [];
    assertQueryDimension(collection, vector, binding.dimension);
    const result = await qdrantCall(`search in ${binding.qdrantName}`, () =>
      this.client.query(binding.qdrantName, {
        query: Array.from(vector), filter: toQdrantFilter(tenant, filter), limit: k, with_payload: true,
      }),
    );
    return result.points.map((p) => ({ id: String(p.payload?.[ID_KEY] ?? ''), score: p.score, payload: toPayload(p.payload) }));
  }

  async delete(tenant: TenantId, collection: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const binding = await this.registry.get(collection);
    if (!binding) return;
    for (const batch of batches(ids, UPSERT_BATCH)) {
      await qdrantCallOr(`delete from ${binding.qdrantName}`, async () => {
        await this.client.delete(binding.qdrantName, { wait: true, filter: toQdrantFilter(tenant, { ids: batch }) });
      }, undefined);
    }
  }

  async dropCollection(collection: string): Promise<void> {
    const binding = await this.registry.get(collection);
    if (binding) {
      await qdrantCallOr(`dropping ${binding.qdrantName}`, async () => {
        await this.client.deleteCollection(binding.qdrantName);
      }, undefined);
    }
    await this.registry.remove(collection);
  }

  async count(tenant: TenantId, collection: string): Promise<number> {
    const binding = await this.registry.get(collection);
    if (!binding) return 0;
    const result = await qdrantCall(`count in ${binding.qdrantName}`, () =>
      this.client.count(binding.qdrantName, { filter: toQdrantFilter(tenant), exact: true }),
    );
    return result.count;
  }

  ready(): Promise<boolean> {
    return qdrantReady(this.options);
  }

  async close(): Promise<void> {
    // The REST client holds no connections that need closing.
  }

  private async requireBinding(collection: string): Promise<CollectionBinding> {
    const binding = await this.registry.get(collection);
    if (!binding) throw collectionMissing(collection);
    return binding;
  }
}
