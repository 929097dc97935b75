import { entityKey } from '../../graph/core/ids.js';
import type { EntityIndex, EntityRecord } from '../../graph/entity-index.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { ENTITY_COLLECTION, ENTITY_CONTEXT_CHARS } from '../retrieval/left-brain-job.js';
import { FALLBACK_SCHEMA_ID } from '../retrieval/schemas.js';

/** What of an erased person the left brain may hold besides memory ids. */
export interface LeftBrainTraces {
  /**
   * Their display name (and aliases): an entity keyed by one of them goes; one keyed by a word of them goes only
   * when every memory on it is erased (another "Ben", the city "Paris" of "Paris Hilton" stay).
   */
  names: string[];
  /** Names and aliases of other, living participants: a word of theirs never deletes an entity. */
  living?: string[];
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
 * - an emergent schema whose name or description names them (a full name or alias) or quotes their words (a
 *   quote of 20 characters and 3 words or more), or that holds an entity about an erased memory, is dropped (its text is queries and entity names, which cannot be rewritten
 *   without them); its entities move to the fallback shelf;
 * - an entity described by one of their utterances (exactly `name: context`, as the left-brain job writes it) is described by its name alone, and its
 *   vector embedded again (first, so a cut-short run finds the old description and does it again); every other
 *   entity about an erased memory is embedded again from its description too;
 * - an entity keyed by their name or an alias is deleted with its vector (vector first); one keyed by a word of
 *   them (not a living participant's) only when every memory on it is erased.
 * Each step is idempotent: an erasure repeated after a crash finishes the job.
 */
export async function eraseLeftBrainTraces(deps: LeftBrainErasureDeps, tenant: TenantId, traces: LeftBrainTraces): Promise<void> {
  const { entities, vectors, embedder } = deps;
  const { full, words } = nameKeys(traces.names, traces.living ?? []);
  const named = await namedEntities(entities, tenant, full, words, new Set(traces.memoryIds));
  const touched = new Set([...named.map((e) => e.id), ...await entities.entitiesOfMemories(tenant, traces.memoryIds)]);
  const quotes = traces.texts.filter(isQuote);
  const mentions = (text: string): boolean =>
    full.some((k) => new RegExp(`(^|[^\\p{L}\\p{N}])${escape(k)}($|[^\\p{L}\\p{N}])`, 'iu').test(text))
    || quotes.some((t) => text.includes(t));
  for (const schema of (await entities.listSchemas(tenant)).filter((s) => s.origin === 'emergent')) {
    const holds = (await entities.entitiesOfSchemas(tenant, [schema.id], 10_000)).some((e) => touched.has(e.id));
    if (holds || mentions(`${schema.name}\n${schema.description}`)) await entities.deleteSchema(tenant, schema.id, FALLBACK_SCHEMA_ID);
  }
  const namedIds = new Set(named.map((e) => e.id));
  const quoting = (await entities.entitiesDescribedBy(tenant, traces.texts.map((t) => t.slice(0, ENTITY_CONTEXT_CHARS))))
    .filter((e) => !namedIds.has(e.id) && quotesErased(e, traces.texts, quotes));
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

/**
 * Names and aliases of the participants other than `personId` who share a word with `names` (for
 * {@link LeftBrainTraces.living}): "Ben Jones" when "Ben Smith" is erased.
 */
export async function livingNamesLike(graph: Pick<GraphStore, 'findParticipantsByWords'>, tenant: TenantId, personId: string, names: string[]): Promise<string[]> {
  const words = names.flatMap((n) => n.split(/\s+/)).filter((w) => w.length > 0);
  const others = words.length > 0 ? await graph.findParticipantsByWords(tenant, words) : [];
  return others.filter((p) => p.id !== personId).flatMap((p) => [p.name ?? '', ...p.aliases]);
}

/** A quote long enough to be the erased person's words wherever it appears: 20 characters and 3 words or more. */
function isQuote(text: string): boolean {
  return text.length >= 20 && text.trim().split(/\s+/).length >= 3;
}

/** Whether the entity's description is one of the texts as the left-brain job quotes it, or holds a long quote. */
function quotesErased(e: EntityRecord, texts: string[], quotes: string[]): boolean {
  return texts.some((t) => e.description === `${e.name}: ${t.slice(0, ENTITY_CONTEXT_CHARS)}`) || quotes.some((q) => e.description.includes(q));
}

/**
 * Keys of the full names and aliases not also a living participant's (`full`), and the rest: words of three letters
 * or more of them not held by a living participant, and full names a living participant shares (`words`).
 */
function nameKeys(names: string[], living: string[]): { full: string[]; words: string[] } {
  const keysOf = (ns: string[]): string[] => ns.filter((n) => n.trim().length > 0).map(entityKey);
  const wordsOf = (ks: string[]): string[] => ks.flatMap((k) => k.split(' ').filter((w) => w.length >= 3));
  const livingKeys = keysOf(living);
  const taken = new Set([...livingKeys, ...wordsOf(livingKeys)]);
  const all = [...new Set(keysOf(names))];
  const full = all.filter((k) => !livingKeys.includes(k));
  const shared = all.filter((k) => livingKeys.includes(k));
  const words = [...new Set([...shared, ...wordsOf(all).filter((w) => !taken.has(w) && !all.includes(w))])];
  return { full, words };
}

/** Entities to delete: keyed by a full name, or by a word of one when every memory on the entity is erased. */
async function namedEntities(
  entities: EntityIndex, tenant: TenantId, full: string[], words: string[], erased: Set<string>,
): Promise<EntityRecord[]> {
  const named = await entities.findByNames(tenant, full);
  const ids = new Set(named.map((e) => e.id));
  // Every entity's memories are read before any is removed: `removeMemories` takes a memory off every entity, so
  // removing while reading would leave a later entity holding none and keep it.
  const toRemove = new Set<string>();
  for (const e of await entities.findByNames(tenant, words)) {
    if (ids.has(e.id)) continue;
    const { factIds, utteranceIds } = await entities.memoriesOf(tenant, [e.id], 100_000);
    const memories = [...factIds, ...utteranceIds];
    if (memories.length > 0 && memories.every((id) => erased.has(id))) named.push(e);
    else for (const id of memories) if (erased.has(id)) toRemove.add(id);
  }
  if (toRemove.size > 0) await entities.removeMemories(tenant, [...toRemove]);
  return named;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
