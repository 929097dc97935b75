import type { TenantId } from '../types.js';
import {
  assertPointDimensions, assertQueryDimension, assertSameSpace, collectionMissing,
  type EmbeddingSpace, type VectorFilter, type VectorHit, type VectorPayload, type VectorPoint, type VectorStore,
} from '../vector-store.js';
import { fromJson, toJson, type SqliteDatabase } from './database.js';
import { VectorMatrix } from './vector-matrix.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS vector_collections (
  name TEXT PRIMARY KEY, model TEXT NOT NULL, dimension INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS vectors (
  tenant TEXT NOT NULL, collection TEXT NOT NULL, id TEXT NOT NULL, vector BLOB NOT NULL,
  payload TEXT NOT NULL, PRIMARY KEY (tenant, collection, id));
`;

interface VectorRow { id: string; vector: Buffer; payload: string }

/**
 * Exact cosine search over vectors kept in SQLite and mirrored in memory per tenant and collection
 * (loaded on first use). Exact search keeps recall at 100 %; the candidate-pool searches of the
 * retrieval path touch only a few hundred rows, and a full scan of 100k 512-d vectors takes about
 * 7 ms (a WebAssembly SIMD pre-pass, then exact float64 rescoring of the few rows near the cut; see
 * `VectorMatrix` and `bench/store-search.ts`). Filters are answered from integer columns kept
 * beside the matrix, never from payload objects.
 */
export class SqliteVectorStore implements VectorStore {
  private readonly matrices = new Map<string, VectorMatrix<VectorPayload>>();

  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
  }

  async ensureCollection(collection: string, space: EmbeddingSpace): Promise<void> {
    const current = await this.collectionSpace(collection);
    if (!current) {
      this.db
        .prepare('INSERT OR IGNORE INTO vector_collections (name, model, dimension) VALUES (?, ?, ?)')
        .run(collection, space.model, space.dimension);
      return;
    }
    assertSameSpace(collection, current, space);
  }

  async collectionSpace(collection: string): Promise<EmbeddingSpace | null> {
    const row = this.db
      .prepare('SELECT model, dimension FROM vector_collections WHERE name = ?')
      .get(collection) as EmbeddingSpace | undefined;
    return row ?? null;
  }

  async upsert(tenant: TenantId, collection: string, points: VectorPoint[]): Promise<void> {
    if (points.length === 0) return;
    const space = await this.requireSpace(collection);
    assertPointDimensions(collection, points, space.dimension);
    const stmt = this.db.prepare(`INSERT INTO vectors (tenant, collection, id, vector, payload)
      VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant, collection, id)
      DO UPDATE SET vector = excluded.vector, payload = excluded.payload`);
    this.db.transaction(() => {
      for (const p of points) {
        stmt.run(tenant, collection, p.id, Buffer.from(p.vector.buffer, p.vector.byteOffset, p.vector.byteLength), toJson(p.payload));
      }
    })();
    const matrix = this.matrices.get(this.key(tenant, collection));
    if (matrix) for (const p of points) matrix.set(p.id, p.vector, p.payload);
  }

  async search(
    tenant: TenantId,
    collection: string,
    vector: Float32Array,
    k: number,
    filter?: VectorFilter,
  ): Promise<VectorHit[]> {
    const space = await this.collectionSpace(collection);
    if (!space) return [];
    assertQueryDimension(collection, vector, space.dimension);
    const matrix = this.load(tenant, collection, space.dimension);
    return matrix.topK(vector, k, filter);
  }

  async delete(tenant: TenantId, collection: string, ids: string[]): Promise<void> {
    const stmt = this.db.prepare('DELETE FROM vectors WHERE tenant = ? AND collection = ? AND id = ?');
    this.db.transaction(() => {
      for (const id of ids) stmt.run(tenant, collection, id);
    })();
    const matrix = this.matrices.get(this.key(tenant, collection));
    if (matrix) for (const id of ids) matrix.remove(id);
  }

  async dropCollection(collection: string): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM vectors WHERE collection = ?').run(collection);
      this.db.prepare('DELETE FROM vector_collections WHERE name = ?').run(collection);
    })();
    for (const key of [...this.matrices.keys()]) {
      if (key.endsWith(`\u0000${collection}`)) this.matrices.delete(key);
    }
  }

  async count(tenant: TenantId, collection: string): Promise<number> {
    const row = this.db
      .prepare('SELECT COUNT(*) AS n FROM vectors WHERE tenant = ? AND collection = ?')
      .get(tenant, collection) as { n: number };
    return row.n;
  }

  async ready(): Promise<boolean> {
    return this.db.open;
  }

  async close(): Promise<void> {
    this.matrices.clear();
  }

  private async requireSpace(collection: string): Promise<EmbeddingSpace> {
    const space = await this.collectionSpace(collection);
    if (!space) throw collectionMissing(collection);
    return space;
  }

  private key(tenant: TenantId, collection: string): string {
    return `${tenant}\u0000${collection}`;
  }

  private load(tenant: TenantId, collection: string, dimension: number): VectorMatrix<VectorPayload> {
    const key = this.key(tenant, collection);
    let matrix = this.matrices.get(key);
    if (matrix) return matrix;
    const { n } = this.db
      .prepare('SELECT COUNT(*) AS n FROM vectors WHERE tenant = ? AND collection = ?')
      .get(tenant, collection) as { n: number };
    matrix = new VectorMatrix<VectorPayload>(dimension, Math.max(1024, n));
    const rows = this.db
      .prepare('SELECT id, vector, payload FROM vectors WHERE tenant = ? AND collection = ?')
      .iterate(tenant, collection) as IterableIterator<VectorRow>;
    for (const row of rows) {
      const vec = new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength));
      matrix.set(row.id, vec, fromJson<VectorPayload>(row.payload, { layer: '' }));
    }
    this.matrices.set(key, matrix);
    return matrix;
  }
}
