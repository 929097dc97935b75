import type { EntityIndex } from '../../graph/entity-index.js';
import type { TenantId } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import { ENTITY_COLLECTION } from './left-brain-job.js';
import type { SchemaVectors } from './schema-vectors.js';

/** Options for `EntityMatcher`. */
export interface EntityMatcherOptions {
  /** Most entities matched by embedding similarity; default 8. */
  vectorEntities?: number;
  /** Least cosine for an embedding entity hit; default 0.45. */
  minEntityScore?: number;
  /** Least cosine for a schema hit; default 0.3. */
  minSchemaScore?: number;
  /** Most schemas hit; default 2. */
  maxSchemas?: number;
}

/** What `match` found for a (partial) transcript. */
export interface MatchResult {
  /** Entity ids hit by name or alias in the text. */
  lexicalEntities: string[];
  /** Entity ids hit by embedding similarity. */
  vectorEntities: string[];
  schemaIds: string[];
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const MAX_NGRAM = 3;

/**
 * Stage 1 of retrieval: find entities named in the text (n-gram lookup in a per-tenant name table,
 * rebuilt only when the index's version changes) and entities and schemas close to the query
 * embedding.
 */
export class EntityMatcher {
  readonly #tables = new Map<TenantId, { version: number; byName: Map<string, string[]> }>();
  readonly #o: Required<EntityMatcherOptions>;

  constructor(
    private readonly index: EntityIndex,
    private readonly vectors: VectorStore,
    private readonly schemas: SchemaVectors,
    options: EntityMatcherOptions = {},
  ) {
    this.#o = {
      vectorEntities: options.vectorEntities ?? 8, minEntityScore: options.minEntityScore ?? 0.45,
      minSchemaScore: options.minSchemaScore ?? 0.3, maxSchemas: options.maxSchemas ?? 2,
    };
  }

  /** Erasure: drop the tenant's name table (it may hold an erased person's name); built again when next needed. */
  forget(tenant: TenantId): void {
    this.#tables.delete(tenant);
  }

  /** Entities whose name or alias occurs in `text` as a whole word sequence. */
  async lexical(tenant: TenantId, text: string): Promise<string[]> {
    const table = await this.#table(tenant);
    const words = (text.toLowerCase().match(WORD) ?? []).map((w) => w.replace(/['’]s$/, ''));
    const hits = new Set<string>();
    for (let i = 0; i < words.length; i++) {
      for (let n = 1; n <= MAX_NGRAM && i + n <= words.length; n++) {
        for (const id of table.byName.get(words.slice(i, i + n).join(' ')) ?? []) hits.add(id);
      }
    }
    return [...hits];
  }

  /** Entities and schemas close to the query vector. */
  async semantic(tenant: TenantId, vector: Float32Array): Promise<{ entityIds: string[]; schemaIds: string[] }> {
    const [entities, schemas] = await Promise.all([
      this.vectors.search(tenant, ENTITY_COLLECTION, vector, this.#o.vectorEntities),
      this.schemas.rank(tenant, vector),
    ]);
    return {
      entityIds: entities.filter((h) => h.score >= this.#o.minEntityScore).map((h) => h.id),
      schemaIds: schemas.filter((s) => s.score >= this.#o.minSchemaScore).slice(0, this.#o.maxSchemas).map((s) => s.schema.id),
    };
  }

  async #table(tenant: TenantId): Promise<{ version: number; byName: Map<string, string[]> }> {
    const version = await this.index.version(tenant);
    const cached = this.#tables.get(tenant);
    if (cached && cached.version === version) return cached;
    const byName = new Map<string, string[]>();
    const add = (name: string, id: string): void => {
      const list = byName.get(name);
      if (list) {
        if (!list.includes(id)) list.push(id);
      } else byName.set(name, [id]);
    };
    for (const e of await this.index.listNames(tenant)) {
      add(e.key, e.id);
      for (const a of e.aliases) add(a, e.id);
    }
    const table = { version, byName };
    this.#tables.set(tenant, table);
    return table;
  }
}
