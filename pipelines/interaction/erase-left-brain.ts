import { entityKey } from '../../graph/core/ids.js';
import type { EntityIndex } from '../../graph/entity-index.js';
import type { TenantId } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { ENTITY_COLLECTION, ENTITY_CONTEXT_CHARS } from '../retrieval/left-brain-job.js';
import { FALLBACK_SCHEMA_ID } from '../retrieval/schemas.js';

/** What of an erased person the left brain may hold besides memory ids. */
export interface LeftBrainTraces {
  /** Their display name (and aliases): entities keyed by it, or by one of its words, go. */
  names: string[];
  /** Texts of their utterances: an entity description quoting one is rewritten, a schema quoting one goes. */
  texts: string[];
  /** Ids of what is erased (utterances, facts): an emergent schema holding an entity about one goes. */
  memoryIds: string[];
}

/** What the left-brain erasure needs. */
export interface LeftBrainErasureDeps {
  entities: EntityIndex;
  vectors: VectorStore;
  embedder: TextEmbedder;
}

/**
 * Remove an erased person's words and name from the left brain, beyond the memory ids `eraseMemories`
 * forgets (run it before that, so the schemas of their entities can still be found):
 * - an emergent schema whose name or description names them or quotes their words, or that holds an entity
 *   about an erased memory, is dropped (its text is queries and entity names, which cannot be rewritten
 *   without them); its entities move to the fallback shelf;
 * - an entity described by one of their utterances (`name: context`) is described by its name alone, and its
 *   vector embedded again (first, so a cut-short run finds the old description and does it again); every other
 *   entity about an erased memory is embedded again from its description too;
 * - an entity keyed by their name (or a word of it, or an alias) is deleted with its vector (vector first).
 * Each step is idempotent: an erasure repeated after a crash finishes the job.
 */
export async function eraseLeftBrainTraces(deps: LeftBrainErasureDeps, tenant: TenantId, traces: LeftBrainTraces): Promise<void> {
  const { entities, vectors, embedder } = deps;
  const keys = nameKeys(traces.names);
  const named = await entities.findByNames(tenant, keys);
  const touched = new Set([...named.map((e) => e.id), ...await entities.entitiesOfMemories(tenant, traces.memoryIds)]);
  const mentions = (text: string): boolean =>
    keys.some((k) => new RegExp(`(^|[^\\p{L}\\p{N}])${escape(k)}($|[^\\p{L}\\p{N}])`, 'iu').test(text))
    || traces.texts.some((t) => t.length > 0 && text.includes(t));
  for (const schema of (await entities.listSchemas(tenant)).filter((s) => s.origin === 'emergent')) {
    const holds = (await entities.entitiesOfSchemas(tenant, [schema.id], 10_000)).some((e) => touched.has(e.id));
    if (holds || mentions(`${schema.name}\n${schema.description}`)) await entities.deleteSchema(tenant, schema.id, FALLBACK_SCHEMA_ID);
  }
  const namedIds = new Set(named.map((e) => e.id));
  const quoting = (await entities.entitiesDescribedBy(tenant, traces.texts.map((t) => t.slice(0, ENTITY_CONTEXT_CHARS))))
    .filter((e) => !namedIds.has(e.id));
  const quotingIds = new Set(quoting.map((e) => e.id));
  // An entity about an erased memory may hold a vector of the erased words under another description (two
  // left-brain jobs that made it at once each wrote their own vector): it is embedded again from what it reads.
  const about = (await entities.getEntities(tenant, [...touched].filter((id) => !namedIds.has(id) && !quotingIds.has(id))));
  const again = [...quoting.map((e) => ({ ...e, description: e.name })), ...about];
  if (again.length > 0) {
    const fresh = await embedder.embed(again.map((e) => e.description));
    await vectors.upsert(tenant, ENTITY_COLLECTION, again.map((e, i) => ({
      id: e.id, vector: fresh[i] as Float32Array, payload: { layer: 'entity', schemaId: e.schemaId, name: e.key },
    })));
    for (const e of quoting) await entities.describe(tenant, e.id, e.name);
  }
  if (named.length > 0) {
    await vectors.delete(tenant, ENTITY_COLLECTION, [...namedIds]);
    await entities.deleteEntities(tenant, [...namedIds]);
  }
}

/** Normalised keys of the names and of each of their words of three letters or more. */
function nameKeys(names: string[]): string[] {
  const keys = names.filter((n) => n.trim().length > 0).flatMap((n) => [entityKey(n), ...entityKey(n).split(' ').filter((w) => w.length >= 3)]);
  return [...new Set(keys)];
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
