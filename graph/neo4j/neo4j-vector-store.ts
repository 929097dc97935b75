import { createHash } from 'node:crypto';
import type { ManagedTransaction } from 'neo4j-driver';
import { ParleyError } from '../core/errors.js';
import type { TenantId } from '../types.js';
import {
  assertPointDimensions, assertQueryDimension, assertSameSpace, collectionMissing,
  type EmbeddingSpace, type VectorFilter, type VectorHit, type VectorPayload, type VectorPoint, type VectorStore,
} from '../vector-store.js';
import { int, toNum, type Neo4jOptions } from './neo4j-connection.js';
import { Neo4jStoreBase, type Props } from './neo4j-store-base.js';

/** Schema statements run once at start-up; each is idempotent. */
export const VECTOR_SCHEMA = [
  'CREATE CONSTRAINT parley_vector_collection_key IF NOT EXISTS FOR (n:VectorCollection) REQUIRE n.name IS UNIQUE',
  'CREATE CONSTRAINT parley_vector_point_key IF NOT EXISTS FOR (n:VectorPoint) REQUIRE (n.tenant, n.collection, n.id) IS UNIQUE',
  'CREATE INDEX parley_vector_point_tenant IF NOT EXISTS FOR (n:VectorPoint) ON (n.tenant, n.collection)',
];

/**
 * Up to this many points passing the tenant and payload filters, search is exact (every candidate
 * scored with `vector.similarity.cosine`); above it, the collection's vector index (HNSW) is asked
 * for more neighbours than wanted and the filters applied to them.
 */
export const EXACT_MAX = 2000;
/** The most neighbours one index query asks for before the search falls back to the exact scan. */
export const ANN_MAX_FETCH = 16_384;
/** Points written per transaction. */
const WRITE_BATCH = 500;
/** How long a process trusts its cached binding before asking Neo4j again, ms. */
const CACHE_MS = 30_000;
/** Neo4j 5's largest vector index dimension. */
const MAX_DIMENSION = 4096;

/** Where a collection's points live: its label and its vector index (both derived names, safe to splice). */
interface Binding extends EmbeddingSpace {
  label: string;
  index: string;
}

const SAFE_NAME = /^[A-Za-z0-9_]+$/;

/** Neo4j's cosine index score is (1 + cos) / 2; the interface reports cos. */
const toCosine = (score: unknown): number => 2 * toNum(score) - 1;

function toPayload(json: unknown): VectorPayload {
  try {
    return { layer: '', ...(JSON.parse(String(json)) as object) } as VectorPayload;
  } catch {
    return { layer: '' };
  }
}

/**
 * `VectorStore` on Neo4j 5's native vector indexes. Each collection bound to an embedding space has
 * a registry node `(:VectorCollection {name, model, dimension, label, index})` and its own label and
 * cosine vector index (`parley_vectors_<hash>`, the hash of collection, model and dimension, so a
 * re-embedded collection never shares an index with its old space). Points are
 * `(:VectorPoint:<label> {tenant, collection, id, embedding, payload})`, with `layer`, `sessionId`,
 * `speakerId` and `addresseeIds` copied out of the JSON payload for filtering.
 *
 * Filters (tenant always, plus the payload filters): the filtered candidates are counted through
 * the `(tenant, collection)` index first. Up to `EXACT_MAX` of them, or with an id pool, every
 * candidate is scored exactly, so small tenants and filtered searches have full recall. Above it,
 * the vector index is queried for enough neighbours that about `4k` should pass (at least 100),
 * the filters applied, and the fetch grown fourfold until `k` hits pass or the index is exhausted;
 * past `ANN_MAX_FETCH` the exact scan answers instead. The vector index spans all tenants, so
 * over-fetching is what keeps a small tenant's search correct beside a big one. Above `EXACT_MAX`
 * the set of hits is approximate (HNSW) like any vector index's, and a filter correlated with
 * distance lowers its recall; scores are always exact (rescored with `vector.similarity.cosine`).
 * Indexes are built without quantisation: Neo4j 5.26 quantises to int8 by default, which in our
 * tests halved recall and clamped negative cosines.
 */
export class Neo4jVectorStore extends Neo4jStoreBase implements VectorStore {
  private readonly cache = new Map<string, { binding: Binding | null; at: number }>();
  private readonly indexed = new Map<string, Promise<void>>();

  constructor(options: Neo4jOptions) {
    super(options, VECTOR_SCHEMA);
  }

  async ensureCollection(collection: string, space: EmbeddingSpace): Promise<void> {
    if (!Number.isInteger(space.dimension) || space.dimension < 1 || space.dimension > MAX_DIMENSION) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `collection ${collection}: dimension ${space.dimension} is not an integer in 1..${MAX_DIMENSION} (Neo4j vector index limit)`);
    }
    await this.init();
    const name = this.c(collection);
    const hash = createHash('sha1').update(`${name}\u0000${space.model}\u0000${space.dimension}`).digest('hex').slice(0, 16);
    const wanted: Binding = { ...space, label: `VectorPoints_${hash}`, index: `parley_vectors_${hash}` };
    const stored = await this.db.write(`binding ${collection}`, async (tx) => {
      const result = await tx.run(`
        MERGE (c:VectorCollection {name: $name})
        ON CREATE SET c.model = $model, c.dimension = $dimension, c.label = $label, c.index = $index
        RETURN c {.*} AS c`, { name, model: wanted.model, dimension: int(wanted.dimension), label: wanted.label, index: wanted.index });
      return toBinding(result.records[0]!.get('c') as Props);
    });
    assertSameSpace(collection, stored, space);
    this.cache.set(collection, { binding: stored, at: Date.now() });
    await this.ensureIndex(stored);
  }

  async collectionSpace(collection: string): Promise<EmbeddingSpace | null> {
    const binding = await this.binding(collection);
    return binding ? { model: binding.model, dimension: binding.dimension } : null;
  }

  async upsert(tenant: TenantId, collection: string, points: VectorPoint[]): Promise<void> {
    if (points.length === 0) return;
    await this.write(tenant, collection, points, false);
  }

  /** `upsert`, with the binding read afresh when `fresh` (after the cached one proved stale). */
  private async write(tenant: TenantId, collection: string, points: VectorPoint[], fresh: boolean): Promise<void> {
    if (fresh) this.cache.delete(collection);
    const binding = await this.binding(collection);
    if (!binding) throw collectionMissing(collection);
    if (!fresh && points.some((p) => p.vector.length !== binding.dimension)) return this.write(tenant, collection, points, true);
    assertPointDimensions(collection, points, binding.dimension);
    await this.ensureIndex(binding);
    for (let i = 0; i < points.length; i += WRITE_BATCH) {
      const rows = points.slice(i, i + WRITE_BATCH).map((p) => ({
        id: p.id, vector: Array.from(p.vector), payload: JSON.stringify(p.payload), layer: p.payload.layer ?? null,
        sessionId: p.payload.sessionId ?? null, speakerId: p.payload.speakerId ?? null, addresseeIds: p.payload.addresseeIds ?? [],
      }));
      const params = { tenant: this.t(tenant), collection: this.c(collection), label: binding.label, rows };
      const written = await this.db.write(`upsert into ${collection}`, async (tx) => {
        // The cached binding may be stale (another process re-embedded the collection): write only
        // under the binding the registry holds now.
        const bound = await tx.run('MATCH (c:VectorCollection {name: $collection}) WHERE c.label = $label RETURN 1', params);
        if (bound.records.length === 0) return false;
        await tx.run(`
          UNWIND $rows AS row
          MERGE (n:VectorPoint {tenant: $tenant, collection: $collection, id: row.id})
          SET n:\`${binding.label}\`, n.payload = row.payload, n.layer = row.layer, n.sessionId = row.sessionId,
            n.speakerId = row.speakerId, n.addresseeIds = row.addresseeIds
          WITH n, row
          CALL db.create.setNodeVectorProperty(n, 'embedding', row.vector)`, params);
        return true;
      });
      if (!written) {
        if (fresh) throw collectionMissing(collection);
        return this.write(tenant, collection, points.slice(i), true);
      }
    }
  }

  async get(tenant: TenantId, collection: string, ids: string[]): Promise<VectorPoint[]> {
    if (ids.length === 0) return [];
    await this.init();
    const out: VectorPoint[] = [];
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      const rows = await this.db.read(`get from ${collection}`, async (tx) => (await tx.run(`
        UNWIND $ids AS id
        MATCH (n:VectorPoint {tenant: $tenant, collection: $collection, id: id})
        RETURN n.id AS id, n.embedding AS vector, n.payload AS payload`,
      { tenant: this.t(tenant), collection: this.c(collection), ids: ids.slice(i, i + WRITE_BATCH) })).records);
      for (const r of rows) {
        out.push({ id: String(r.get('id')), vector: Float32Array.from(r.get('vector') as number[], toNum), payload: toPayload(r.get('payload')) });
      }
    }
    return out;
  }

  async search(tenant: TenantId, collection: string, vector: Float32Array, k: number, filter: VectorFilter = {}): Promise<VectorHit[]> {
    if (k <= 0 || filter.ids?.length === 0) return [];
    const binding = await this.binding(collection);
    if (!binding) return [];
    assertQueryDimension(collection, vector, binding.dimension);
    await this.ensureIndex(binding);
    const { conditions, params } = filterClause(filter);
    Object.assign(params, { tenant: this.t(tenant), collection: this.c(collection), vector: Array.from(vector), k: int(k) });
    return this.db.read(`search in ${collection}`, async (tx) => {
      if (filter.ids !== undefined) return exact(tx, conditions, params);
      // One round trip when the candidates are few: counted, and scored in the same query.
      const counted = await countAndScore(tx, binding, conditions, params);
      if (counted.hits) return counted.hits;
      return (await this.approximate(tx, binding, conditions, params, k, counted.candidates, counted.total)) ?? exact(tx, conditions, params);
    });
  }

  async delete(tenant: TenantId, collection: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.init();
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      await this.db.write(`delete from ${collection}`, (tx) => tx.run(`
        UNWIND $ids AS id
        MATCH (n:VectorPoint {tenant: $tenant, collection: $collection, id: id}) DETACH DELETE n`,
      { tenant: this.t(tenant), collection: this.c(collection), ids: ids.slice(i, i + WRITE_BATCH) }));
    }
  }

  async dropCollection(collection: string): Promise<void> {
    await this.init();
    this.cache.delete(collection);
    const binding = await this.binding(collection);
    if (binding) {
      // Every tenant's points, 1000 per transaction, then the index and the binding.
      await this.db.autoCommit(`dropping ${collection}`, `
        MATCH (n:\`${binding.label}\`)
        CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 1000 ROWS`, {});
      await this.schemaQuery(`DROP INDEX \`${binding.index}\` IF EXISTS`);
      this.indexed.delete(binding.index);
    }
    await this.db.write(`dropping ${collection}`, (tx) => tx.run('MATCH (c:VectorCollection {name: $name}) DELETE c', { name: this.c(collection) }));
    this.cache.delete(collection);
  }

  async count(tenant: TenantId, collection: string): Promise<number> {
    await this.init();
    return this.db.read(`count in ${collection}`, async (tx) => {
      const result = await tx.run('MATCH (n:VectorPoint {tenant: $tenant, collection: $collection}) RETURN count(n) AS n',
        { tenant: this.t(tenant), collection: this.c(collection) });
      return toNum(result.records[0]!.get('n'));
    });
  }

  /** Drop every collection under this store's prefix (tests). */
  async dropAll(): Promise<void> {
    if (!this.prefix) throw new Error('dropAll needs a tenantPrefix');
    await this.init();
    const names = await this.db.read('listing collections', async (tx) => {
      const result = await tx.run('MATCH (c:VectorCollection) WHERE c.name STARTS WITH $prefix RETURN c.name AS name', { prefix: this.prefix });
      return result.records.map((r) => String(r.get('name')));
    });
    for (const name of names) await this.dropCollection(name.slice(this.prefix.length));
  }

  /**
   * The index's nearest neighbours, filtered, growing the fetch until `k` pass; null when the
   * fetch would pass `ANN_MAX_FETCH` (the caller scans exactly instead). The first fetch expects
   * `4k` of its neighbours to pass: `4k` divided by the share of the index's points that pass the
   * filters (`candidates` of `total`), so a selective filter starts with a deeper fetch, or goes
   * straight to the exact scan.
   */
  private async approximate(
    tx: ManagedTransaction, binding: Binding, conditions: string[], params: Props, k: number, candidates: number, total: number,
  ): Promise<VectorHit[] | null> {
    for (let fetch = Math.max(100, Math.ceil((4 * k * total) / candidates)); fetch <= ANN_MAX_FETCH; fetch *= 4) {
      const result = await tx.run(`
        CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node AS n
        WITH n WHERE n.tenant = $tenant AND n.collection = $collection ${conditions.map((c) => `AND ${c}`).join(' ')}
        WITH n, vector.similarity.cosine(n.embedding, $vector) AS score
        RETURN n.id AS id, score, n.payload AS payload ORDER BY score DESC, id LIMIT $k`,
      { ...params, index: binding.index, fetch: int(Math.min(fetch, total)) });
      const hits = result.records.map(toHit);
      if (hits.length >= k || fetch >= total) return hits;
    }
    return null;
  }

  /** Create the collection's vector index if missing and wait until it is online (once per process). */
  private ensureIndex(binding: Binding): Promise<void> {
    let pending = this.indexed.get(binding.index);
    if (!pending) {
      pending = (async () => {
        try {
          await this.schemaQuery(`
            CREATE VECTOR INDEX \`${binding.index}\` IF NOT EXISTS FOR (n:\`${binding.label}\`) ON (n.embedding)
            OPTIONS {indexConfig: {\`vector.dimensions\`: ${binding.dimension}, \`vector.similarity_function\`: 'cosine',
              \`vector.quantization.enabled\`: false}}`);
        } catch (err) {
          // Another process creating the same index at the same moment can make this one fail;
          // the index then exists, which the wait below confirms (or it rethrows this error).
          await this.schemaQuery('CALL db.awaitIndex($index, 300)', { index: binding.index }).catch(() => { throw err; });
          return;
        }
        await this.schemaQuery('CALL db.awaitIndex($index, 300)', { index: binding.index });
      })().catch((err: unknown) => {
        this.indexed.delete(binding.index);
        throw err;
      });
      this.indexed.set(binding.index, pending);
    }
    return pending;
  }

  /** The collection's binding, cached for `CACHE_MS`. */
  private async binding(collection: string): Promise<Binding | null> {
    const hit = this.cache.get(collection);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.binding;
    await this.init();
    const binding = await this.db.read(`reading the binding of ${collection}`, async (tx) => {
      const result = await tx.run('MATCH (c:VectorCollection {name: $name}) RETURN c {.*} AS c', { name: this.c(collection) });
      return result.records[0] ? toBinding(result.records[0].get('c') as Props) : null;
    });
    this.cache.set(collection, { binding, at: Date.now() });
    return binding;
  }

  /** The stored collection name. */
  private c(collection: string): string {
    return `${this.prefix}${collection}`;
  }
}

function toBinding(c: Props): Binding {
  const label = String(c.label);
  const index = String(c.index);
  if (!SAFE_NAME.test(label) || !SAFE_NAME.test(index)) throw new Error(`vector collection ${String(c.name)} has a malformed label or index name`);
  return { model: String(c.model), dimension: toNum(c.dimension), label, index };
}

function toHit(r: { get(key: string): unknown }): VectorHit {
  return { id: String(r.get('id')), score: toCosine(r.get('score')), payload: toPayload(r.get('payload')) };
}

/**
 * The number of candidates passing the filters and of the collection's points (all tenants), and,
 * when the candidates are at most `EXACT_MAX`, the exact hits (else null): one query.
 */
async function countAndScore(tx: ManagedTransaction, binding: Binding, conditions: string[], params: Props): Promise<{ candidates: number; total: number; hits: VectorHit[] | null }> {
  const result = await tx.run(`
    MATCH (n:VectorPoint {tenant: $tenant, collection: $collection}) ${where(conditions)}
    WITH count(n) AS candidates
    CALL { MATCH (m:\`${binding.label}\`) RETURN count(m) AS total }
    CALL {
      WITH candidates
      WITH candidates WHERE candidates <= $exactMax
      MATCH (n:VectorPoint {tenant: $tenant, collection: $collection}) ${where(conditions)}
      WITH n, vector.similarity.cosine(n.embedding, $vector) AS score WHERE score IS NOT NULL
      WITH n.id AS id, score, n.payload AS payload ORDER BY score DESC, id LIMIT $k
      RETURN collect({id: id, score: score, payload: payload}) AS hits
    }
    RETURN candidates, total, hits`, { ...params, exactMax: int(EXACT_MAX) });
  const row = result.records[0]!;
  const candidates = toNum(row.get('candidates'));
  const hits = (row.get('hits') as Props[]).map((h) => toHit({ get: (key: string) => h[key] }));
  return { candidates, total: toNum(row.get('total')), hits: candidates <= EXACT_MAX ? hits : null };
}

/** Every candidate that passes the filters, scored exactly, best `$k` first. */
async function exact(tx: ManagedTransaction, conditions: string[], params: Props): Promise<VectorHit[]> {
  const result = await tx.run(`
    MATCH (n:VectorPoint {tenant: $tenant, collection: $collection}) ${where(conditions)}
    WITH n, vector.similarity.cosine(n.embedding, $vector) AS score WHERE score IS NOT NULL
    RETURN n.id AS id, score, n.payload AS payload ORDER BY score DESC, id LIMIT $k`, params);
  return result.records.map(toHit);
}

function where(conditions: string[]): string {
  return conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
}

/** The payload filters as Cypher conditions on `n` (only fixed text is spliced; values are parameters). */
function filterClause(filter: VectorFilter): { conditions: string[]; params: Props } {
  const conditions: string[] = [];
  const params: Props = {};
  if (filter.layer !== undefined) {
    conditions.push('n.layer IN $layers');
    params.layers = Array.isArray(filter.layer) ? filter.layer : [filter.layer];
  }
  if (filter.sessionId !== undefined) {
    conditions.push('n.sessionId = $sessionId');
    params.sessionId = filter.sessionId;
  }
  if (filter.speakerId !== undefined) {
    conditions.push('n.speakerId = $speakerId');
    params.speakerId = filter.speakerId;
  }
  if (filter.addresseeId !== undefined) {
    conditions.push('$addresseeId IN n.addresseeIds');
    params.addresseeId = filter.addresseeId;
  }
  if (filter.ids !== undefined) {
    conditions.push('n.id IN $ids');
    params.ids = filter.ids;
  }
  return { conditions, params };
}
