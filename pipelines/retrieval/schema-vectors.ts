import type { EntityIndex, SchemaRecord } from '../../graph/entity-index.js';
import type { TenantId } from '../../graph/types.js';
import { cosine, type TextEmbedder } from '../embeddings/text-embedder.js';
import { SEED_SCHEMAS } from './schemas.js';

/** A schema with its description embedded. */
export interface EmbeddedSchema {
  schema: SchemaRecord;
  vector: Float32Array;
}

/**
 * Schema description vectors per tenant, embedded once and refreshed when the tenant's schema list
 * changes (emergent schemas). Seeds the fixed shelves on first use.
 */
export class SchemaVectors {
  readonly #cache = new Map<TenantId, { ids: string; schemas: EmbeddedSchema[] }>();
  readonly #vectors = new Map<string, Float32Array>();

  constructor(private readonly index: EntityIndex, private readonly embedder: TextEmbedder) {}

  async get(tenant: TenantId): Promise<EmbeddedSchema[]> {
    let schemas = await this.index.listSchemas(tenant);
    if (!schemas.some((s) => s.origin === 'seed')) {
      await this.index.ensureSchemas(tenant, [...SEED_SCHEMAS]);
      schemas = await this.index.listSchemas(tenant);
    }
    const ids = schemas.map((s) => s.id).join(',');
    const cached = this.#cache.get(tenant);
    if (cached && cached.ids === ids) return cached.schemas;
    const missing = schemas.filter((s) => !this.#vectors.has(`${tenant}\u0000${s.id}`));
    const vectors = await this.embedder.embed(missing.map((s) => `${s.name}: ${s.description}`));
    missing.forEach((s, i) => this.#vectors.set(`${tenant}\u0000${s.id}`, vectors[i] as Float32Array));
    const embedded = schemas.map((schema) => ({ schema, vector: this.#vectors.get(`${tenant}\u0000${schema.id}`) as Float32Array }));
    this.#cache.set(tenant, { ids, schemas: embedded });
    return embedded;
  }

  /**
   * Erasure: drop the tenant's schema vectors (an emergent schema erased with a person was embedded from their name or
   * words); they are embedded again from the schemas that remain when next asked for.
   */
  forget(tenant: TenantId): void {
    this.#cache.delete(tenant);
    for (const key of [...this.#vectors.keys()]) if (key.startsWith(`${tenant}\u0000`)) this.#vectors.delete(key);
  }

  /** How many schema vectors are kept for the tenant now. */
  held(tenant: TenantId): number {
    return [...this.#vectors.keys()].filter((key) => key.startsWith(`${tenant}\u0000`)).length;
  }

  /** Schemas by cosine similarity to `vector`, best first. */
  async rank(tenant: TenantId, vector: Float32Array): Promise<{ schema: SchemaRecord; score: number }[]> {
    return (await this.get(tenant))
      .map((s) => ({ schema: s.schema, score: cosine(vector, s.vector) }))
      .sort((a, b) => b.score - a.score);
  }
}
