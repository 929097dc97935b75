import type { Logger } from 'pino';
import type { EntityIndex } from '../../graph/entity-index.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { MemoryStore } from '../../graph/memory-store.js';
import type { TenantId } from '../../graph/types.js';
import type { VectorPoint, VectorStore } from '../../graph/vector-store.js';
import { collectionFor, MEMORY_LAYERS, type IndexedLayer } from '../memory/collections.js';
import { textHash } from '../memory/memory-indexer.js';
import { ENTITY_COLLECTION } from '../retrieval/left-brain-job.js';
import type { TextEmbedder } from './text-embedder.js';

/** What re-embedding reads the stored texts from. */
export interface ReembedDeps {
  vectors: VectorStore;
  embedder: TextEmbedder;
  memory: MemoryStore;
  graph: GraphStore;
  /** The left brain's entities, whose descriptions are embedded in `left_brain_entity`; absent: that collection is left alone. */
  entities?: EntityIndex;
  logger?: Logger;
  /** Texts embedded per call; default 64. */
  batch?: number;
}

/**
 * When a memory collection is bound to another embedding space than `embedder.space`, drop it and
 * re-embed every stored text of that layer (utterances from the graph store, current facts from the
 * memory store, entity descriptions from the entity index) for each tenant, instead of mixing spaces.
 * Returns the points written per collection; those already in the right space (or empty) are left
 * alone and report 0.
 */
export async function reembedIfNeeded(deps: ReembedDeps, tenants: TenantId[]): Promise<Record<IndexedLayer | 'entity', number>> {
  const written: Record<IndexedLayer | 'entity', number> = { interaction: 0, fact: 0, profile: 0, entity: 0 };
  for (const layer of MEMORY_LAYERS) {
    if (!(await rebind(deps, collectionFor(layer)))) continue;
    for (const tenant of tenants) written[layer] += await reembedLayer(deps, tenant, layer);
  }
  if (deps.entities && (await rebind(deps, ENTITY_COLLECTION))) {
    for (const tenant of tenants) written.entity += await reembedEntities(deps, deps.entities, tenant);
  }
  return written;
}

/** Drop and re-create `collection` in the embedder's space when it holds another one; whether it did. */
async function rebind(deps: ReembedDeps, collection: string): Promise<boolean> {
  const space = await deps.vectors.collectionSpace(collection);
  const want = deps.embedder.space;
  if (space === null || (space.model === want.model && space.dimension === want.dimension)) return false;
  deps.logger?.warn({ collection, from: space, to: want }, 're-embedding collection for a new embedding space');
  await deps.vectors.dropCollection(collection);
  await deps.vectors.ensureCollection(collection, want);
  return true;
}

/** Every entity of the tenant, its description embedded as the left-brain job embeds it. */
async function reembedEntities(deps: ReembedDeps, entities: EntityIndex, tenant: TenantId): Promise<number> {
  const batch = deps.batch ?? 64;
  const ids = (await entities.listNames(tenant)).map((e) => e.id);
  let n = 0;
  for (let i = 0; i < ids.length; i += batch) {
    const records = await entities.getEntities(tenant, ids.slice(i, i + batch));
    const vectors = await deps.embedder.embed(records.map((e) => e.description));
    await deps.vectors.upsert(tenant, ENTITY_COLLECTION, records.map((e, j) => ({
      id: e.id, vector: vectors[j] as Float32Array, payload: { layer: 'entity', schemaId: e.schemaId, name: e.key },
    })));
    n += records.length;
  }
  return n;
}

async function reembedLayer(deps: ReembedDeps, tenant: TenantId, layer: IndexedLayer): Promise<number> {
  const batch = deps.batch ?? 64;
  const collection = collectionFor(layer);
  let n = 0;
  const write = async (items: Array<Omit<VectorPoint, 'vector'> & { text: string }>): Promise<void> => {
    for (let i = 0; i < items.length; i += batch) {
      const slice = items.slice(i, i + batch);
      const vectors = await deps.embedder.embed(slice.map((s) => s.text));
      // With the text's digest, as `MemoryIndexer` writes it, so a later re-index reuses these vectors.
      await deps.vectors.upsert(tenant, collection, slice.map((s, j) => ({ id: s.id, payload: { ...s.payload, textHash: textHash(s.text) }, vector: vectors[j] as Float32Array })));
      n += slice.length;
    }
  };
  if (layer === 'interaction') {
    const seen = new Set<string>();
    let until: string | undefined;
    for (;;) {
      const page = await deps.graph.queryInteractions(tenant, { limit: 1000, ...(until ? { until } : {}) });
      const fresh = page.filter((u) => !seen.has(u.id));
      if (fresh.length === 0) break;
      for (const u of fresh) seen.add(u.id);
      await write(fresh.map((u) => ({ id: u.id, text: u.text, payload: { layer, sessionId: u.sessionId, speakerId: u.speakerId, addresseeIds: u.addresseeIds, time: u.time } })));
      until = page[page.length - 1]?.time;
      if (page.length < 1000) break;
    }
    return n;
  }
  for (let offset = 0; ; offset += 1000) {
    const facts = await deps.memory.listFacts(tenant, { layer, limit: 1000, offset });
    await write(facts.map((f) => ({ id: f.id, text: f.content, payload: { layer, sessionId: f.sessionId, speakerId: f.speakerId,
      addresseeIds: f.addresseeIds, time: f.time, subjectId: f.subjectId, kind: f.kind } })));
    if (facts.length < 1000) break;
  }
  return n;
}
