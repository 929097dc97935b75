import type { TenantId } from '../types.js';
import {
  assertPointDimensions, assertQueryDimension, assertSameSpace, collectionMissing,
  type EmbeddingSpace, type VectorFilter, type VectorHit, type VectorPayload, type VectorPoint, type VectorStore,
} from '../vector-store.js';
import { addMissingColumns, fromJson, toJson, type SqliteDatabase } from './database.js';
import { VectorMatrix } from './vector-matrix.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS vector_collections (
  name TEXT PRIMARY KEY, model TEXT NOT NULL, dimension INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS vectors (
  tenant TEXT NOT NULL, collection TEXT NOT NULL, id TEXT NOT NULL, vector BLOB NOT NULL,
  payload TEXT NOT NULL, PRIMARY KEY (tenant, collection, id));
CREATE TABLE IF NOT EXISTS vector_revisions (
  tenant TEXT NOT NULL, collection TEXT NOT NULL, rev INTEGER NOT NULL, deleted_rev INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, collection));
`;

interface VectorRow { id: string; vector: Buffer; payload: string }

/** A tenant's collection in memory, with the revision of the table it reflects. */
interface Mirror {
  matrix: VectorMatrix<VectorPayload>;
  /** `vector_revisions.rev` of the rows loaded. */
  rev: number;
  /** The connection's `PRAGMA data_version` when `rev` was last compared with the table. */
  seen: number;
}

/**
 * Exact cosine search over vectors kept in SQLite and mirrored in memory per tenant and collection
 * (loaded on first use). Exact search keeps recall at 100 %; the candidate-pool searches of the
 * retrieval path touch only a few hundred rows, and a full scan of 100k 512-d vectors takes about
 * 7 ms (a WebAssembly SIMD pre-pass, then exact float64 rescoring of the few rows near the cut; see
 * `VectorMatrix` and `bench/store-search.ts`). Filters are answered from integer columns kept
 * beside the matrix, never from payload objects.
 *
 * Another process on the same file (a separate `npm run worker`) writes rows this process's mirror
 * does not hold. Each write bumps a revision per tenant and collection and stamps its rows (a delete
 * records its revision as `deleted_rev`, keeping no id: an erased person's ids must not linger);
 * before a search, `PRAGMA data_version` (which changes only when another connection committed, and
 * costs no table read) says whether to look, and if the revision moved, the rows written after the
 * mirror's revision are applied, and after a delete the ids still stored (ids only, from the primary
 * key) tell which to drop. A process alone on its file never reads more than that pragma.
 */
export class SqliteVectorStore implements VectorStore {
  private readonly mirrors = new Map<string, Mirror>();

  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
    addMissingColumns(db, 'vectors', [{ column: 'rev', decl: 'INTEGER NOT NULL DEFAULT 0' }]);
    db.exec('CREATE INDEX IF NOT EXISTS vectors_rev ON vectors (tenant, collection, rev)');
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
    const stmt = this.db.prepare(`INSERT INTO vectors (tenant, collection, id, vector, payload, rev)
      VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, collection, id)
      DO UPDATE SET vector = excluded.vector, payload = excluded.payload, rev = excluded.rev`);
    const rev = this.db.transaction(() => {
      const next = this.bump(tenant, collection);
      for (const p of points) {
        stmt.run(tenant, collection, p.id, Buffer.from(p.vector.buffer, p.vector.byteOffset, p.vector.byteLength), toJson(p.payload), next);
      }
      return next;
    })();
    const mirror = this.mirrors.get(this.key(tenant, collection));
    if (mirror) {
      for (const p of points) mirror.matrix.set(p.id, p.vector, p.payload);
      // Only when nothing of another process came in between; else the next search fetches the gap.
      if (mirror.rev === rev - 1) mirror.rev = rev;
    }
  }

  async get(tenant: TenantId, collection: string, ids: string[]): Promise<VectorPoint[]> {
    if (ids.length === 0) return [];
    // From the table, not the mirror: it holds every process's writes.
    const rows = this.db.prepare(`SELECT id, vector, payload FROM vectors WHERE tenant = ? AND collection = ?
      AND id IN (SELECT value FROM json_each(?))`).all(tenant, collection, JSON.stringify(ids)) as VectorRow[];
    return rows.map((row) => ({ id: row.id, vector: toVector(row.vector), payload: fromJson<VectorPayload>(row.payload, { layer: '' }) }));
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
    return this.current(tenant, collection, space.dimension).topK(vector, k, filter);
  }

  async delete(tenant: TenantId, collection: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const stmt = this.db.prepare('DELETE FROM vectors WHERE tenant = ? AND collection = ? AND id = ?');
    const rev = this.db.transaction(() => {
      const next = this.bump(tenant, collection, true);
      for (const id of ids) stmt.run(tenant, collection, id);
      return next;
    })();
    const mirror = this.mirrors.get(this.key(tenant, collection));
    if (mirror) {
      for (const id of ids) mirror.matrix.remove(id);
      if (mirror.rev === rev - 1) mirror.rev = rev;
    }
  }

  async dropCollection(collection: string): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM vectors WHERE collection = ?').run(collection);
      this.db.prepare('DELETE FROM vector_revisions WHERE collection = ?').run(collection);
      this.db.prepare('DELETE FROM vector_collections WHERE name = ?').run(collection);
    })();
    for (const key of [...this.mirrors.keys()]) {
      if (key.endsWith(`\u0000${collection}`)) this.mirrors.delete(key);
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
    this.mirrors.clear();
  }

  private async requireSpace(collection: string): Promise<EmbeddingSpace> {
    const space = await this.collectionSpace(collection);
    if (!space) throw collectionMissing(collection);
    return space;
  }

  private key(tenant: TenantId, collection: string): string {
    return `${tenant}\u0000${collection}`;
  }

  /** The next revision of a tenant's collection (a deletion's too, with `deleting`), inside the caller's write transaction. */
  private bump(tenant: TenantId, collection: string, deleting = false): number {
    const row = this.db.prepare(`INSERT INTO vector_revisions (tenant, collection, rev, deleted_rev) VALUES (?, ?, 1, ?)
      ON CONFLICT (tenant, collection) DO UPDATE SET rev = rev + 1, deleted_rev = CASE WHEN ? THEN rev + 1 ELSE deleted_rev END
      RETURNING rev`).get(tenant, collection, deleting ? 1 : 0, deleting ? 1 : 0) as { rev: number };
    return row.rev;
  }

  private revision(tenant: TenantId, collection: string): { rev: number; deletedRev: number } {
    const row = this.db.prepare('SELECT rev, deleted_rev AS deletedRev FROM vector_revisions WHERE tenant = ? AND collection = ?')
      .get(tenant, collection) as { rev: number; deletedRev: number } | undefined;
    return row ?? { rev: 0, deletedRev: 0 };
  }

  /** The mirror of a tenant's collection, loaded on first use and brought up to date with other processes' writes. */
  private current(tenant: TenantId, collection: string, dimension: number): VectorMatrix<VectorPayload> {
    const key = this.key(tenant, collection);
    const seen = this.db.pragma('data_version', { simple: true }) as number;
    const mirror = this.mirrors.get(key);
    if (mirror && mirror.seen === seen) return mirror.matrix;
    if (!mirror) return this.load(tenant, collection, dimension, seen).matrix;
    const { rev, deletedRev } = this.revision(tenant, collection);
    // Dropped and created again elsewhere: the revisions started over.
    if (rev < mirror.rev) return this.load(tenant, collection, dimension, seen).matrix;
    if (rev > mirror.rev) {
      if (deletedRev > mirror.rev) {
        const stored = new Set((this.db.prepare('SELECT id FROM vectors WHERE tenant = ? AND collection = ?')
          .pluck().all(tenant, collection) as string[]));
        for (const id of mirror.matrix.keys()) if (!stored.has(id)) mirror.matrix.remove(id);
      }
      // After the deletions: a point deleted and written again is in `vectors` with the later revision.
      this.fill(mirror.matrix, this.db.prepare('SELECT id, vector, payload FROM vectors WHERE tenant = ? AND collection = ? AND rev > ?')
        .iterate(tenant, collection, mirror.rev) as IterableIterator<VectorRow>);
      mirror.rev = rev;
    }
    mirror.seen = seen;
    return mirror.matrix;
  }

  private load(tenant: TenantId, collection: string, dimension: number, seen: number): Mirror {
    // One read transaction, so the revision matches the rows.
    return this.db.transaction(() => {
      const { rev } = this.revision(tenant, collection);
      const { n } = this.db
        .prepare('SELECT COUNT(*) AS n FROM vectors WHERE tenant = ? AND collection = ?')
        .get(tenant, collection) as { n: number };
      const matrix = new VectorMatrix<VectorPayload>(dimension, Math.max(1024, n));
      this.fill(matrix, this.db.prepare('SELECT id, vector, payload FROM vectors WHERE tenant = ? AND collection = ?')
        .iterate(tenant, collection) as IterableIterator<VectorRow>);
      const mirror = { matrix, rev, seen };
      this.mirrors.set(this.key(tenant, collection), mirror);
      return mirror;
    })();
  }

  private fill(matrix: VectorMatrix<VectorPayload>, rows: IterableIterator<VectorRow>): void {
    for (const row of rows) matrix.set(row.id, toVector(row.vector), fromJson<VectorPayload>(row.payload, { layer: '' }));
  }
}

/** A stored vector blob as a Float32Array of its own (copied out of the driver's buffer). */
function toVector(blob: Buffer): Float32Array {
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}
