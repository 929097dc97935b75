import type { QdrantClient } from '@qdrant/js-client-rest';
import type { EmbeddingSpace } from '../vector-store.js';
import { pointId, qdrantCall, qdrantCallOr, qdrantWrite, statusOf } from './qdrant-common.js';

/** Where a Parley collection lives in Qdrant and which embedding space it is bound to. */
export interface CollectionBinding extends EmbeddingSpace {
  /** The Qdrant collection holding the points. */
  qdrantName: string;
}

/** How long a process trusts its cached binding before asking Qdrant again, ms. */
const CACHE_MS = 30_000;

/**
 * The collection → embedding-space bindings, kept in a small Qdrant collection of their own
 * (`<prefix>registry`, one 1-d point per Parley collection, the binding in its payload), so every
 * process sees the same bindings without another backend.
 */
export class QdrantRegistry {
  private readonly cache = new Map<string, { binding: CollectionBinding | null; at: number }>();
  private created: Promise<void> | undefined;
  readonly name: string;

  constructor(private readonly client: QdrantClient, prefix: string) {
    this.name = `${prefix}registry`;
  }

  async get(collection: string): Promise<CollectionBinding | null> {
    const hit = this.cache.get(collection);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.binding;
    const points = await qdrantCallOr('reading the collection registry',
      () => this.client.retrieve(this.name, { ids: [pointId('', collection)], with_payload: true }), []);
    const payload = points[0]?.payload as Partial<CollectionBinding> | undefined;
    const binding = payload?.model && payload.dimension && payload.qdrantName
      ? { model: payload.model, dimension: Number(payload.dimension), qdrantName: payload.qdrantName }
      : null;
    this.cache.set(collection, { binding, at: Date.now() });
    return binding;
  }

  /** Drop the cached binding, so the next `get` asks Qdrant. */
  forget(collection: string): void {
    this.cache.delete(collection);
  }

  async set(collection: string, binding: CollectionBinding): Promise<void> {
    await this.ensure();
    const upsert = () => this.client.upsert(this.name, {
      wait: true,
      points: [{ id: pointId('', collection), vector: [1], payload: { collection, ...binding } }],
    });
    await qdrantWrite('writing the collection registry', upsert, async () => {
      this.created = undefined;
      await this.ensure();
    });
    this.cache.set(collection, { binding, at: Date.now() });
  }

  async remove(collection: string): Promise<void> {
    this.cache.delete(collection);
    await qdrantCallOr('writing the collection registry', async () => {
      await this.client.delete(this.name, { wait: true, points: [pointId('', collection)] });
    }, undefined);
  }

  private ensure(): Promise<void> {
    this.created ??= qdrantCall('creating the collection registry', async () => {
      const { exists } = await this.client.collectionExists(this.name);
      if (!exists) await createIfAbsent(this.client, this.name, { vectors: { size: 1, distance: 'Dot' } });
    }).catch((err: unknown) => {
      this.created = undefined;
      throw err;
    });
    return this.created;
  }
}

/** Create a collection, treating "already exists" (another process won the race) as success. */
export async function createIfAbsent(
  client: QdrantClient,
  name: string,
  config: Parameters<QdrantClient['createCollection']>[1],
): Promise<boolean> {
  try {
    await client.createCollection(name, config);
    return true;
  } catch (err) {
    if (statusOf(err) === 409) return false;
    if (/already exists/i.test(err instanceof Error ? err.message : '')) return false;
    throw err;
  }
}
