import type { EntityIndex, SchemaRecord } from '../../graph/entity-index.js';
import type { TenantId } from '../../graph/types.js';
import type { SchemaJudge } from './schema-judge.js';

/** Options for `QueryCoherence`. */
export interface QueryCoherenceOptions {
  /** Recent queries remembered per tenant; default 12. */
  window?: number;
  /** Related queries needed before a subgraph is considered; default 3. */
  minQueries?: number;
  /** ρ(H) must exceed this (VoiceMem's α); default 0.5. */
  alpha?: number;
  /** Smallest subgraph promoted, in memories; default 2. */
  minMemories?: number;
  /** Entities with more memories than this many times |H| are hubs (people), left where they are; default 4. */
  hubFactor?: number;
  /** Memory texts kept for the judge across all tenants together (least recently used go first); default 20,000. */
  maxTexts?: number;
}

interface Recorded {
  query: string;
  hits: Set<string>;
}

/** ρ(H) = mean over queries q of |A_q ∩ H| / |A_q ∪ H|. */
export function queryCoherence(hitSets: ReadonlySet<string>[], h: ReadonlySet<string>): number {
  if (hitSets.length === 0) return 0;
  let sum = 0;
  for (const a of hitSets) {
    let inter = 0;
    for (const id of a) if (h.has(id)) inter += 1;
    const union = a.size + h.size - inter;
    sum += union > 0 ? inter / union : 0;
  }
  return sum / hitSets.length;
}

/**
 * Schema emergence (VoiceMem): records which memories each query hits; when the queries related to
 * the latest one keep hitting one subgraph H (ρ(H) > α) and the judge approves, the entities of H
 * move to a new emergent schema. Entities already on an emergent shelf never move again (no splits).
 */
export class QueryCoherence {
  readonly #recent = new Map<TenantId, Recorded[]>();
  /** Texts of the memories recent queries hit, per tenant, for the judge. */
  readonly #texts = new Map<TenantId, Map<string, string>>();
  /** Texts held in `#texts`, all tenants together. */
  #textCount = 0;
  readonly #o: Required<QueryCoherenceOptions>;

  constructor(private readonly entities: EntityIndex, private readonly judge: SchemaJudge, options: QueryCoherenceOptions = {}) {
    this.#o = {
      window: options.window ?? 12, minQueries: options.minQueries ?? 3, alpha: options.alpha ?? 0.5,
      minMemories: options.minMemories ?? 2, hubFactor: options.hubFactor ?? 4, maxTexts: options.maxTexts ?? 20_000,
    };
  }

  /**
   * Erasure: forget the tenant's recent queries (they may name the erased person, and a schema promoted later
   * would quote them in its description) and the memory texts they hit (the erased person's words among them).
   */
  forget(tenant: TenantId): void {
    this.#recent.delete(tenant);
    this.#textCount -= this.#texts.get(tenant)?.size ?? 0;
    this.#texts.delete(tenant);
  }

  /** How many recent queries and memory texts are kept for the tenant (what erasure must clear). */
  held(tenant: TenantId): { queries: number; texts: number } {
    return { queries: this.#recent.get(tenant)?.length ?? 0, texts: this.#texts.get(tenant)?.size ?? 0 };
  }

  /** Record a query's hits (with their texts, for the judge); returns the schema promoted, if any. */
  async record(tenant: TenantId, query: string, hits: { id: string; text: string }[]): Promise<SchemaRecord | null> {
    if (hits.length === 0) return null;
    const texts = this.#keepTexts(tenant, hits);
    const recent = this.#recent.get(tenant) ?? [];
    const current: Recorded = { query, hits: new Set(hits.map((h) => h.id)) };
    recent.push(current);
    while (recent.length > this.#o.window) recent.shift();
    this.#recent.set(tenant, recent);

    const related = recent.filter((r) => [...r.hits].some((id) => current.hits.has(id)));
    if (related.length < this.#o.minQueries) return null;
    const counts = new Map<string, number>();
    for (const r of related) for (const id of r.hits) counts.set(id, (counts.get(id) ?? 0) + 1);
    const h = new Set([...counts].filter(([, n]) => n >= Math.ceil(related.length / 2)).map(([id]) => id));
    if (h.size < this.#o.minMemories) return null;
    const rho = queryCoherence(related.map((r) => r.hits), h);
    if (rho <= this.#o.alpha) return null;

    const schemas = new Map((await this.entities.listSchemas(tenant)).map((s) => [s.id, s]));
    const candidates = (await this.entities.getEntities(tenant, await this.entities.entitiesOfMemories(tenant, [...h])))
      .filter((e) => schemas.get(e.schemaId)?.origin !== 'emergent' && e.memoryCount <= this.#o.hubFactor * h.size);
    if (candidates.length === 0) return null;
    const verdict = await this.judge.judge({
      queries: related.map((r) => r.query), entities: candidates,
      memories: [...h].map((id) => ({ id, text: texts.get(id) ?? '' })),
    });
    if (!verdict.approve) return null;
    const schema = await this.entities.addSchema(tenant, { name: verdict.name, description: verdict.description, origin: 'emergent' });
    await this.entities.setSchema(tenant, candidates.map((e) => e.id), schema.id);
    this.#recent.set(tenant, recent.filter((r) => !related.includes(r)));
    return schema;
  }

  /**
   * Keep the hits' texts, most recently used last (tenants and texts alike), then drop the least recently used texts
   * of any tenant past `maxTexts`: a bound for the process, however many tenants query it.
   */
  #keepTexts(tenant: TenantId, hits: { id: string; text: string }[]): Map<string, string> {
    const texts = this.#texts.get(tenant) ?? new Map<string, string>();
    this.#texts.delete(tenant);
    this.#texts.set(tenant, texts);
    for (const h of hits) {
      if (texts.delete(h.id)) this.#textCount -= 1;
      texts.set(h.id, h.text);
      this.#textCount += 1;
    }
    for (const [owner, kept] of this.#texts) {
      for (const id of kept.keys()) {
        if (this.#textCount <= this.#o.maxTexts) return texts;
        kept.delete(id);
        this.#textCount -= 1;
      }
      if (kept.size === 0 && owner !== tenant) this.#texts.delete(owner);
    }
    return texts;
  }
}
