import type { QdrantClient } from '@qdrant/js-client-rest';
import type { LexicalDoc, LexicalFilter, LexicalHit, LexicalIndex } from '../lexical-index.js';
import type { TenantId } from '../types.js';
import {
  batches, createQdrantClient, pointId, qdrantCall, qdrantReady, statusOf, UPSERT_BATCH,
  type QdrantConnectionOptions,
} from './qdrant-common.js';
import { ID_KEY, KEYWORD_FIELDS, TENANT_KEY, toQdrantFilter } from './qdrant-filter.js';
import { createIfAbsent } from './qdrant-registry.js';
import { documentVector, queryVector } from './sparse-text.js';

/** Name of the sparse vector in the lexical collection. */
const SPARSE = 'bm25';

/**
 * BM25 keyword search on Qdrant sparse vectors (`modifier: idf`, so Qdrant supplies the inverse
 * document frequency from the collection's own statistics). One collection, `<prefix>lexical`, for all
 * tenants, with the same keyword payload indexes and tenant filter as the vector store. The text
 * itself is not stored. (The alternative, Neo4j's full-text index, would tie keyword search to the
 * graph backend; this keeps it beside the vectors, filtered the same way.)
 */
export class QdrantLexicalIndex implements LexicalIndex {
  private readonly client: QdrantClient;
  readonly collection: string;
  private created: Promise<void> | undefined;

  constructor(private readonly options: QdrantConnectionOptions) {
    this.client = createQdrantClient(options);
    this.collection = `${options.collectionPrefix ?? 'parley_'}lexical`;
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
            speakerId: d.speakerId ?? null, addresseeIds: d.addresseeIds ?? [],
          },
        })),
      });
      await qdrantCall(`index into ${this.collection}`, async () => {
        try {
          await upsert();
        } catch (err) {
          // A 404 means the collection this process created earlier is gone (deleted, or a server
          // restarted on empty storage): create it again and write, rather than drop the write.
          if (statusOf(err) !== 404) throw err;
          this.created = undefined;
          await this.ensure();
          await upsert();
        }
      });
    }
  }

  async search(tenant: TenantId, query: string, k: number, filter?: LexicalFilter): Promise<LexicalHit[]> {
    const vector = queryVector(query);
    if (vector.indices.length === 0 || k <= 0 || filter?.ids?.length === 0) return [];
    const result = await qdrantCall(`search in ${this.collection}`, async () => {
      try {
        return await this.client.query(this.collection, {
          query: vector, using: SPARSE, filter: toQdrantFilter(tenant, filter), limit: k, with_payload: [ID_KEY],
        });
      } catch (err) {
        if (statusOf(err) === 404) return { points: [] };
        throw err;
      }
    });
    return result.points
      .filter((p) => p.score > 0)
      .map((p) => ({ id: String(p.payload?.[ID_KEY] ?? ''), score: p.score }));
  }

  async delete(tenant: TenantId, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    for (const batch of batches(ids, UPSERT_BATCH)) {
      await qdrantCall(`delete from ${this.collection}`, async () => {
        try {
          await this.client.delete(this.collection, { wait: true, filter: toQdrantFilter(tenant, { ids: batch }) });
        } catch (err) {
          if (statusOf(err) !== 404) throw err;
        }
      });
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
      await createIfAbsent(this.client, this.collection, { sparse_vectors: { [SPARSE]: { modifier: 'idf' } } });
      await this.client.createPayloadIndex(this.collection, {
        wait: true, field_name: TENANT_KEY, field_schema: { type: 'keyword', is_tenant: true },
      });
      for (const field of KEYWORD_FIELDS) {
        await this.client.createPayloadIndex(this.collection, { wait: true, field_name: field, field_schema: 'keyword' });
      }
    }).catch((err: unknown) => {
      this.created = undefined;
      throw err;
    });
    return this.created;
  }
}
