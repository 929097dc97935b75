import type { QdrantClient } from '@qdrant/js-client-rest';
import type { LexicalDoc, LexicalFilter, LexicalHit, LexicalIndex } from '../lexical-index.js';
import type { TenantId } from '../types.js';
import {
  batches, createQdrantClient, pointId, qdrantCall, qdrantCallOr, qdrantReady, qdrantWrite, UPSERT_BATCH,
  type QdrantConnectionOptions,
} from './qdrant-common.js';
import { ID_KEY, KEYWORD_FIELDS, TENANT_KEY, toQdrantFilter } from './qdrant-filter.js';
import { createIfAbsent } from './qdrant-registry.js';
import { bm25Idf } from '../lexical-terms.js';
import { documentVector, queryVector } from './sparse-text.js';

/** Name of the sparse vector in the lexical collection. */
const SPARSE = 'bm25';

/** Payload key of a document's distinct term indices (integer index: per-tenant document frequencies). */
const TERMS_KEY = 'term_ids';

/**
 * BM25 keyword search on Qdrant sparse vectors. One collection, `<prefix>lexical_tenant_bm25`, for all
 * tenants, with the same keyword payload indexes and tenant filter as the vector store. The text
 * itself is not stored. Documents carry BM25's saturated term frequency (`sparse-text.ts`); the
 * inverse document frequency is the tenant's own: each search counts the tenant's documents and,
 * per query term, those holding it (the `term_ids` integer payload index), and sends those idf
 * values as the query's weights. Qdrant's `modifier: idf` would take them from the whole
 * collection, so one tenant's words would change another tenant's ranking. A search costs one
 * count request per query term (up to 64), made in parallel, plus the query.
 * (Collections of the earlier layout, `<prefix>lexical`, with collection-wide idf, are no longer
 * read: re-index into the new one.)
 */
export class QdrantLexicalIndex implements LexicalIndex {
  private readonly client: QdrantClient;
  readonly collection: string;
  private created: Promise<void> | undefined;

  constructor(private readonly options: QdrantConnectionOptions) {
    this.client = createQdrantClient(options);
    this.collection = `${options.collectionPrefix ?? 'parley_'}lexical_tenant_bm25`;
  }

  async index(tenant: TenantId, docs: LexicalDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await this.ensure();
    for (const batch of batches(docs, UPSERT_BATCH)) {
      const upsert = () => this.client.upsert(this.collection, {
        wait: true,
        points: batch.map((d) => ({
          id: pointId(tenant, d.id),
          vector: { [SPARSE]: documentVector(d.text) },
          payload: {
            [TENANT_KEY]: tenant, [ID_KEY]: d.id, layer: d.layer, sessionId: d.sessionId ?? null,
            speakerId: d.speakerId ?? null, addresseeIds: d.addresseeIds ?? [], [TERMS_KEY]: documentVector(d.text).indices,
          },
        })),
      });
      await qdrantWrite(`index into ${this.collection}`, upsert, async () => {
        this.created = undefined;
        await this.ensure();
      });
    }
  }

  async search(tenant: TenantId, query: string, k: number, filter?: LexicalFilter): Promise<LexicalHit[]> {
    const terms = queryVector(query).indices;
    if (terms.length === 0 || k <= 0 || filter?.ids?.length === 0) return [];
    const result = await qdrantCallOr(`search in ${this.collection}`, async () => {
      const vector = await this.tenantIdf(tenant, terms);
      if (vector.indices.length === 0) return { points: [] };
      return this.client.query(this.collection, {
        query: vector, using: SPARSE, filter: toQdrantFilter(tenant, filter), limit: k, with_payload: [ID_KEY],
      });
    }, { points: [] });
    return result.points
      .filter((p) => p.score > 0)
      .map((p) => ({ id: String(p.payload?.[ID_KEY] ?? ''), score: p.score }));
  }

  /**
   * The query's sparse vector: each term weighted by its BM25 idf among the tenant's documents
   * (`ln(1 + (N - n + 0.5) / (n + 0.5))`, as Qdrant's idf modifier computes it); terms no document
   * of the tenant holds are left out.
   */
  private async tenantIdf(tenant: string, terms: number[]): Promise<{ indices: number[]; values: number[] }> {
    const tenantOnly = toQdrantFilter(tenant);
    const count = async (filter: typeof tenantOnly) => (await this.client.count(this.collection, { filter, exact: true })).count;
    const [docs, ...frequencies] = await Promise.all([
      count(tenantOnly),
      ...terms.map((term) => count({ must: [...(tenantOnly.must as object[]), { key: TERMS_KEY, match: { value: term } }] } as typeof tenantOnly)),
    ]);
    const indices: number[] = [];
    const values: number[] = [];
    terms.forEach((term, i) => {
      const df = frequencies[i]!;
      if (df === 0) return;
      indices.push(term);
      values.push(bm25Idf(docs!, df));
    });
    return { indices, values };
  }

  async delete(tenant: TenantId, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    for (const batch of batches(ids, UPSERT_BATCH)) {
      await qdrantCallOr(`delete from ${this.collection}`, async () => {
        await this.client.delete(this.collection, { wait: true, filter: toQdrantFilter(tenant, { ids: batch }) });
      }, undefined);
    }
  }

  ready(): Promise<boolean> {
    return qdrantReady(this.options);
  }

  async close(): Promise<void> {}

  private ensure(): Promise<void> {
    this.created ??= qdrantCall(`creating ${this.collection}`, async () => {
      const { exists } = await this.client.collectionExists(this.collection);
      if (exists) return;
      await createIfAbsent(this.client, this.collection, { sparse_vectors: { [SPARSE]: {} } });
      await this.client.createPayloadIndex(this.collection, {
        wait: true, field_name: TENANT_KEY, field_schema: { type: 'keyword', is_tenant: true },
      });
      for (const field of KEYWORD_FIELDS) {
        await this.client.createPayloadIndex(this.collection, { wait: true, field_name: field, field_schema: 'keyword' });
      }
      await this.client.createPayloadIndex(this.collection, { wait: true, field_name: TERMS_KEY, field_schema: 'integer' });
    }).catch((err: unknown) => {
      this.created = undefined;
      throw err;
    });
    return this.created;
  }
}
