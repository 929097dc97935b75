import { ASKS_NAME, isSelfIntroduction } from './self-introduction.js';
import type { EntityIndex, EntityMemories } from '../../graph/entity-index.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import type { MemoryItem } from '../../graph/core/events.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import type { SecondDenseChannel } from './second-dense.js';
import { EntityMatcher, type EntityMatcherOptions } from './entity-matcher.js';
import { idsWithin, personaWithin, type MemoryScope } from './context-scope.js';
import { hydrate, personaCandidates } from './hydrate.js';
import { NameResolver } from './memory-items.js';
import { onePerSourceTurn } from './one-per-turn.js';
import { searchLists, type Pool, type SearchFilters, type SearchLayers } from './pool-search.js';
import { reciprocalRankFusion, type RankedList } from './rrf.js';
import { SchemaVectors } from './schema-vectors.js';
import { contentTurnIds, evidenceIds } from './turn-evidence.js';

/** Per-stage timings of one retrieval, milliseconds. */
export interface RetrievalTimings {
  match_ms: number;
  expand_ms: number;
  search_ms: number;
  total_ms: number;
}

/** One retrieval request. */
export interface RetrievalRequest extends SearchFilters {
  tenant: TenantId;
  /** The (partial) transcript or question. */
  text: string;
  /** Items returned; default 5. */
  k?: number;
  /** Who is asking: memories by, to or about them are boosted, and their persona is searched. */
  askerId?: string | null;
  /** Never return these ids (e.g. the utterance being answered). */
  excludeIds?: string[];
  layers?: SearchLayers;
  /**
   * Serve each source turn once (default true, as `memory.context` and `query.result` do): a turn and a
   * fact drawn from it take one place, as the fact (`onePerSourceTurn`). False: every fused item keeps
   * its place (the question path's staged tool, which maps items to their turns itself).
   */
  onePerTurn?: boolean;
  /**
   * Only memories of these people (`context_scope: participants`), filtered inside retrieval: every list is searched
   * `scopeDepthFactor` times deeper and the fused candidates are filtered before the top `k` are taken. Absent: all.
   */
  scope?: MemoryScope;
  signal?: AbortSignal;
}

/** What a retrieval found, with how. */
export interface RetrievalResult {
  items: MemoryItem[];
  timings: RetrievalTimings;
  /** Size of the candidate pool (memory ids of the zone). */
  poolSize: number;
  /** True when the pool was too small and a global search was fused in. */
  fallback: boolean;
  /** Entities in the zone and schemas hit. */
  zone: { entityIds: string[]; schemaIds: string[] };
}

/** Options for `Retriever`; every one has a default. */
export interface RetrieverOptions extends EntityMatcherOptions {
  /** Most memory ids in the pool; default 3000. */
  maxPool?: number;
  /** Below this pool size a global search is fused in; default 20. */
  minPool?: number;
  /** Most entities taken from each hit schema (most remembered first); default 30. */
  schemaEntities?: number;
  /** One-hop neighbours per entity and link strength; default 6. */
  neighbours?: number;
  /** Weight of the global lists when fused with a non-tiny pool; default 0 (pool only). */
  globalWeight?: number;
  /** Weight of dense lists relative to BM25 in the fusion; default 0.5 (USE-lite is weak on long turns). */
  denseWeight?: number;
  /** RRF bonus factor for memories by / to / about the asker; default 0.25. */
  askerBoost?: number;
  /** How many times deeper each list is searched for a scoped request (`RetrievalRequest.scope`); default 4. */
  scopeDepthFactor?: number;
  /** Called with the timings of every retrieval that completes (metrics). */
  onRetrieved?: (timings: RetrievalTimings) => void;
}

const now = (): number => performance.now();

/**
 * The left brain's staged retrieval (VoiceMem), with the right brain's persona in parallel:
 * match (entities by name and embedding, schemas by embedding) → expand (zone ∪ one hop over strong
 * and weak links) → pool (memory ids of the zone) → search only inside the pool (dense per layer +
 * BM25, fused by RRF), with a global fallback when the pool is tiny.
 */
export class Retriever {
  readonly matcher: EntityMatcher;
  readonly schemas: SchemaVectors;
  readonly #o: Required<Omit<RetrieverOptions, keyof EntityMatcherOptions | 'onRetrieved'>>;
  readonly #onRetrieved: ((timings: RetrievalTimings) => void) | undefined;
  readonly #vectorCache = new Map<string, Promise<Float32Array>>();
  /** The optional second dense channel over turns (`secondDenseWeight`); null: none, its searches return nothing. */
  secondDense: SecondDenseChannel | null = null;

  constructor(
    readonly stores: Pick<Stores, 'graph' | 'memory' | 'vectors' | 'lexical'>,
    readonly entities: EntityIndex,
    readonly embedder: TextEmbedder,
    options: RetrieverOptions = {},
  ) {
    this.schemas = new SchemaVectors(entities, embedder);
    this.matcher = new EntityMatcher(entities, stores.vectors, this.schemas, options);
    this.#o = {
      maxPool: options.maxPool ?? 3000, minPool: options.minPool ?? 20, schemaEntities: options.schemaEntities ?? 30,
      neighbours: options.neighbours ?? 6, globalWeight: options.globalWeight ?? 0, denseWeight: options.denseWeight ?? 0.5, askerBoost: options.askerBoost ?? 0.25,
      scopeDepthFactor: options.scopeDepthFactor ?? 4,
    };
    this.#onRetrieved = options.onRetrieved;
  }

  /** The query vector, cached by text (speculative and final retrievals often share it). */
  embed(text: string): Promise<Float32Array> {
    const key = text.trim().toLowerCase();
    let v = this.#vectorCache.get(key);
    if (!v) {
      v = this.embedder.embed([text]).then((r) => r[0] as Float32Array);
      v.catch(() => this.#vectorCache.delete(key));
      this.#vectorCache.set(key, v);
      if (this.#vectorCache.size > 512) this.#vectorCache.delete(this.#vectorCache.keys().next().value as string);
    }
    return v;
  }

  /**
   * Erasure: forget what this retriever keeps that may hold an erased person of `tenant`: question vectors (first and
   * second dense channel; keyed by text alone, so every tenant's go), the tenant's schema vectors and entity-name table.
   */
  forget(tenant: TenantId): void {
    this.#vectorCache.clear();
    this.secondDense?.forget();
    this.schemas.forget(tenant);
    this.matcher.forget(tenant);
  }

  /** How many question vectors the first dense channel keeps now (what erasure clears). */
  get cachedQuestionVectors(): number {
    return this.#vectorCache.size;
  }

  async retrieve(req: RetrievalRequest): Promise<RetrievalResult> {
    const t0 = now();
    const k = req.k ?? 5;
    const signal = req.signal;
    const { tenant } = req;
    signal?.throwIfAborted();
    const filters: SearchFilters = {
      ...(req.speakerId ? { speakerId: req.speakerId } : {}), ...(req.addresseeId ? { addresseeId: req.addresseeId } : {}),
      ...(req.sessionId ? { sessionId: req.sessionId } : {}),
    };
    const layers = req.layers ?? ['interaction', 'fact', 'profile'];
    const names = new NameResolver(this.stores.graph, tenant);

    // Stage 1: match by name and by embedding at once; the right brain starts in parallel. (With
    // networked stores every call is a round trip, so independent ones never wait for each other.)
    const vectorP = this.embed(req.text).catch(() => null);
    const personaP = personaCandidates(this.stores, tenant, req.text, req.askerId ?? null);
    // Awaited in stage 3; marked handled now, so a failure while an earlier stage throws (an abort, a store closing at
    // shutdown) is no unhandled rejection.
    personaP.catch(() => undefined);
    const semanticP = vectorP.then((v) => (v ? this.matcher.semantic(tenant, v) : { entityIds: [], schemaIds: [] }));
    const [lexicalEntities, vector, semantic] = await Promise.all([this.matcher.lexical(tenant, req.text), vectorP, semanticP]);
    signal?.throwIfAborted();
    const t1 = now();

    // Stage 2: expand the zone one hop and collect the pool.
    const direct = [...new Set([...lexicalEntities, ...semantic.entityIds])];
    // The first tier's memories need only `direct`, so they are read alongside the hops.
    const [hops, schemaEntities, directMemories] = await Promise.all([
      this.entities.neighbours(tenant, direct, this.#o.neighbours),
      this.entities.entitiesOfSchemas(tenant, semantic.schemaIds, this.#o.schemaEntities),
      this.entities.memoriesOf(tenant, direct, this.#o.maxPool),
    ]);
    const neighbourIds = [...new Set(hops.map((h) => h.neighbourId))].filter((id) => !direct.includes(id));
    const ofSchemas = schemaEntities.map((e) => e.id).filter((id) => !direct.includes(id) && !neighbourIds.includes(id));
    const pool = await this.#pool(tenant, directMemories, [neighbourIds, ofSchemas]);
    const poolSize = pool.utteranceIds.length + pool.factIds.length;
    signal?.throwIfAborted();
    const t2 = now();

    // Stage 3: search inside the pool; fuse a global search in when the pool is tiny.
    // A scope leaves out what other people said: searched deeper, it still finds k of its own.
    const depth = Math.max(k * 4, 20) * (req.scope ? this.#o.scopeDepthFactor : 1);
    const query = { text: req.text, vector };
    const fallback = poolSize < this.#o.minPool;
    const globalWeight = fallback ? 1 : this.#o.globalWeight;
    const lists: RankedList[] = [];
    const [inPool, global, allPersona] = await Promise.all([
      poolSize > 0 ? searchLists(this.stores, tenant, query, pool, depth, layers, filters, 1, this.#o.denseWeight) : Promise.resolve([]),
      globalWeight > 0 ? searchLists(this.stores, tenant, query, null, depth, layers, filters, globalWeight, this.#o.denseWeight) : Promise.resolve([]),
      personaP,
    ]);
    lists.push(...inPool, ...global);
    const persona = req.scope ? personaWithin(allPersona, req.scope) : allPersona;
    if (persona.length > 0) lists.push({ ids: persona.map((p) => p.id), weight: 1 });
    signal?.throwIfAborted();
    const exclude = new Set(req.excludeIds ?? []);
    let ranked = reciprocalRankFusion(lists).filter((f) => !exclude.has(f.id));
    if (req.scope) {
      // Before any top-k: what falls outside the scope never takes a place.
      const personaIds = new Set(persona.map((p) => p.id));
      const within = await idsWithin(this.stores, tenant, ranked.map((f) => f.id).filter((id) => !personaIds.has(id)), req.scope);
      ranked = ranked.filter((f) => personaIds.has(f.id) || within.has(f.id));
      signal?.throwIfAborted();
    }
    const fused = ranked.slice(0, k * 3);
    // A self-introduction ("The speaker's name is Sarah") serves only a question about names (fix9).
    const introductions = ASKS_NAME.test(req.text) ? undefined : isSelfIntroduction;
    const items = await hydrate(this.stores, names, tenant, fused, persona, req.askerId ?? null, this.#o.askerBoost, undefined, introductions);
    signal?.throwIfAborted();
    const t3 = now();
    const timings = { match_ms: t1 - t0, expand_ms: t2 - t1, search_ms: t3 - t2, total_ms: t3 - t0 };
    this.#onRetrieved?.(timings);
    // The same rule as an explicit question's: a turn with no content word is no evidence, unless it answers a question.
    // People's names are no content ("Okay, bye Ben!"): the store is asked only for turns short enough to be names alone.
    const turns = items.filter((i) => i.layer === 'interaction');
    const said = await contentTurnIds(this.stores.graph, tenant, turns);
    const bare = turns.filter((i) => !said.has(i.id)).map((i) => i.id);
    const answering = bare.length > 0
      ? await evidenceIds(this.stores.graph, tenant, await this.stores.graph.getUtterances(tenant, bare)) : new Set<string>();
    const evidence = items.filter((i) => i.layer !== 'interaction' || said.has(i.id) || answering.has(i.id));
    return {
      items: ((req.onePerTurn ?? true) ? onePerSourceTurn(evidence) : evidence).slice(0, k),
      timings,
      poolSize, fallback,
      zone: { entityIds: [...direct, ...neighbourIds, ...ofSchemas], schemaIds: semantic.schemaIds },
    };
  }

  /**
   * Memory ids of the zone, nearest tiers first, up to `maxPool`: the first tier's memories (read
   * with the whole `maxPool` as its room), then each further tier's in the room left.
   */
  async #pool(tenant: TenantId, first: EntityMemories, tiers: string[][]): Promise<Pool> {
    const pool: Pool = { utteranceIds: [], factIds: [] };
    const seen = new Set<string>();
    const add = (m: EntityMemories): void => {
      for (const id of m.utteranceIds) if (!seen.has(id)) { seen.add(id); pool.utteranceIds.push(id); }
      for (const id of m.factIds) if (!seen.has(id)) { seen.add(id); pool.factIds.push(id); }
    };
    add(first);
    for (const tier of tiers) {
      const room = this.#o.maxPool - seen.size;
      if (room <= 0 || tier.length === 0) continue;
      add(await this.entities.memoriesOf(tenant, tier, room));
    }
    return pool;
  }
}
