import type { Logger } from 'pino';
import type { EntityIndex, EntityLinkWrite, EntityMemoryWrite, EntityRecord } from '../../graph/entity-index.js';
import { entityKey } from '../../graph/core/ids.js';
import { describesEarlier } from '../../graph/entity-merge.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Job, JobHandler } from '../../graph/job-queue.js';
import type { Fact, MemoryStore } from '../../graph/memory-store.js';
import type { TenantId, Utterance } from '../../graph/types.js';
import type { VectorStore } from '../../graph/vector-store.js';
import type { TextEmbedder } from '../embeddings/text-embedder.js';
import { EntityExtractor, type EntityMention } from './entity-extraction.js';
import { SchemaVectors } from './schema-vectors.js';
import { FALLBACK_SCHEMA_ID } from './schemas.js';

/** Job name the lead enqueues after each consolidation. */
export const LEFT_BRAIN_JOB = 'retrieval.left-brain';

/** Vector collection of entity description vectors (matched against queries). */
export const ENTITY_COLLECTION = 'left_brain_entity';

/** Characters of the utterance a new entity's description quotes after its name (`name: context`). */
export const ENTITY_CONTEXT_CHARS = 200;

/** Job data: index one consolidated utterance and the facts it produced. */
export interface LeftBrainJob {
  tenant: TenantId;
  utteranceId: string;
  factIds: string[];
}

/** What the left-brain handler needs. */
export interface LeftBrainDeps {
  graph: GraphStore;
  memory: MemoryStore;
  vectors: VectorStore;
  entities: EntityIndex;
  embedder: TextEmbedder;
  /** For diagnostics; optional. */
  logger?: Logger;
  /** Previous utterances of the session whose entities get weak links; default 4. */
  windowTurns?: number;
  /** Below this cosine to every schema an entity goes to the fallback shelf; default 0.15. */
  minSchemaScore?: number;
  /** Shared schema vectors (the retriever's), else a private cache. */
  schemaVectors?: SchemaVectors;
}

/**
 * A key that sorts turns in the order they were spoken (time, then place in the session): a new entity is described
 * by its earliest turn whichever job finishes first (`EntityInput.descriptionOrder`), so the same conversation gives
 * the same left brain however its jobs interleave.
 */
export function descriptionOrder(u: Pick<Utterance, 'time' | 'seq'>): string {
  const ms = Date.parse(u.time);
  return `${Number.isFinite(ms) ? new Date(ms).toISOString() : u.time}#${String(u.seq).padStart(9, '0')}`;
}

/**
 * The `retrieval.left-brain` job handler: extract entity mentions from the utterance and its facts
 * (proper and common noun runs, plus each fact's subject), create new entities with a description
 * and a schema chosen by embedding similarity, record which memories are about each entity, link
 * entities of one fact strongly and entities of the recent session window weakly. Idempotent:
 * memories and entities are upserts; a repeated job only strengthens links again (harmless).
 */
export function createLeftBrainHandler(deps: LeftBrainDeps): JobHandler<LeftBrainJob> {
  const extractor = new EntityExtractor();
  const schemas = deps.schemaVectors ?? new SchemaVectors(deps.entities, deps.embedder);
  const windowTurns = deps.windowTurns ?? 4;
  const minScore = deps.minSchemaScore ?? 0.15;
  let bound: Promise<void> | null = null;

  return async (job: Job<LeftBrainJob>, signal: AbortSignal): Promise<void> => {
    const { tenant, utteranceId, factIds } = job.data;
    const u = await deps.graph.getUtterance(tenant, utteranceId);
    if (!u) return;
    bound ??= deps.vectors.ensureCollection(ENTITY_COLLECTION, deps.embedder.space).catch((err: unknown) => {
      bound = null;
      throw err;
    });
    await bound;
    const facts = factIds.length > 0 ? await deps.memory.listFacts(tenant, { ids: factIds, includeHistory: true }) : [];
    const names = await participantNames(deps.graph, tenant, [u.speakerId, ...u.addresseeIds, ...facts.map((f) => f.subjectId)]);

    // Mentions per source: the utterance itself, then each fact (with its subject).
    const fromUtterance = extractor.extract(u.text);
    const fromFacts = facts.map((f) => ({ fact: f, mentions: withSubject(extractor.extract(f.content), f, names) }));
    const all = dedupe([...fromUtterance, ...fromFacts.flatMap((x) => x.mentions)]);
    if (all.length === 0) return;
    signal.throwIfAborted();

    const entities = await resolveEntities(deps, schemas, tenant, all, u, minScore);
    const idOf = (m: EntityMention): string | undefined => entities.get(m.name.toLowerCase())?.id;

    // Every memory and link of this utterance is written in one call (one commit on SQLite).
    const memories: EntityMemoryWrite[] = [];
    const links: EntityLinkWrite[] = [];
    for (const m of fromUtterance) {
      const id = idOf(m);
      if (id) memories.push({ entityId: id, utteranceIds: [u.id] });
    }
    for (const { fact, mentions } of fromFacts) {
      const ids = [...new Set(mentions.map(idOf).filter((x): x is string => x !== undefined))];
      for (const id of ids) memories.push({ entityId: id, factIds: [fact.id], utteranceIds: fact.referIds });
      for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) links.push({ a: ids[i]!, b: ids[j]!, strength: 'strong' });
    }
    // Mentions of one utterance are close too: strong when few, else weak.
    const uttIds = [...new Set(fromUtterance.map(idOf).filter((x): x is string => x !== undefined))];
    const uttStrength = uttIds.length <= 3 ? 'strong' : 'weak';
    for (let i = 0; i < uttIds.length; i++) for (let j = i + 1; j < uttIds.length; j++) links.push({ a: uttIds[i]!, b: uttIds[j]!, strength: uttStrength });

    // Weak links to entities of the session window. (Read before this utterance's memories are
    // written: those only add entities of `mine`, which get no weak link anyway.)
    const window = await deps.graph.recentUtterances(tenant, u.sessionId, windowTurns, u.seq);
    const near = await deps.entities.entitiesOfMemories(tenant, window.map((p) => p.id));
    const mine = new Set([...entities.values()].map((e) => e.id));
    for (const a of mine) for (const b of near) if (!mine.has(b)) links.push({ a, b, strength: 'weak' });
    await deps.entities.record(tenant, { memories, links, source: u.id });
  };
}

function dedupe(mentions: EntityMention[]): EntityMention[] {
  const seen = new Map<string, EntityMention>();
  for (const m of mentions) if (!seen.has(m.name.toLowerCase())) seen.set(m.name.toLowerCase(), m);
  return [...seen.values()];
}

/** A fact's subject is always one of its entities: a participant's name, or an `entity:` key. */
function withSubject(mentions: EntityMention[], fact: Fact, names: Map<string, string>): EntityMention[] {
  const subject = fact.subjectId.startsWith('entity:') ? fact.subjectId.slice('entity:'.length) : names.get(fact.subjectId);
  return subject ? dedupe([{ name: subject, proper: !fact.subjectId.startsWith('entity:') }, ...mentions]) : mentions;
}

async function participantNames(graph: GraphStore, tenant: TenantId, ids: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const id of new Set(ids)) {
    const p = id.startsWith('entity:') ? null : await graph.getParticipant(tenant, id);
    if (p?.name) out.set(id, p.name);
  }
  return out;
}

/**
 * Existing entities by name, new ones created with a description, a schema and a vector; one this turn precedes
 * (`descriptionOrder`) described anew from it.
 */
async function resolveEntities(
  deps: LeftBrainDeps, schemas: SchemaVectors, tenant: TenantId, mentions: EntityMention[], u: Utterance,
  minScore: number,
): Promise<Map<string, EntityRecord>> {
  const out = new Map<string, EntityRecord>();
  for (const e of await deps.entities.findByNames(tenant, mentions.map((m) => m.name))) {
    out.set(e.key, e);
    for (const a of e.aliases) out.set(a, e);
  }
  // "Poor Miko", "Dr Smith": a multi-word proper name containing a known entity's name is that entity.
  const multi = mentions.filter((m) => m.proper && !out.has(m.name.toLowerCase()) && m.name.includes(' '));
  if (multi.length > 0) {
    const words = multi.flatMap((m) => m.name.toLowerCase().split(' ').filter((w) => w.length >= 3));
    const known = new Map((await deps.entities.findByNames(tenant, words)).map((e) => [e.key, e]));
    for (const m of multi) {
      const hit = m.name.toLowerCase().split(' ').map((w) => known.get(w)).find((e) => e !== undefined);
      if (hit) out.set(m.name.toLowerCase(), await deps.entities.upsertEntity(tenant, { name: hit.key, aliases: [m.name], description: hit.description, schemaId: hit.schemaId }));
    }
  }
  const order = descriptionOrder(u);
  const fresh = mentions.filter((m) => {
    const e = out.get(m.name.toLowerCase());
    return !e || (e.key === entityKey(m.name) && describesEarlier(e.descriptionOrder, order));
  });
  if (fresh.length === 0) return out;
  const descriptions = fresh.map((m) => `${m.name}: ${u.text.slice(0, ENTITY_CONTEXT_CHARS)}`);
  const vectors = await deps.embedder.embed(descriptions);
  const schemaIds: string[] = [];
  for (const vector of vectors) {
    const best = (await schemas.rank(tenant, vector))[0];
    schemaIds.push(best && best.score >= minScore ? best.schema.id : FALLBACK_SCHEMA_ID);
  }
  const written: EntityVector[] = [];
  for (const [i, m] of fresh.entries()) {
    const description = descriptions[i] as string;
    const e = await deps.entities.upsertEntity(tenant, { name: m.name, description, schemaId: schemaIds[i] as string, descriptionOrder: order });
    out.set(m.name.toLowerCase(), e);
    // Described by an earlier turn (another job meanwhile, or an alias of one): its description and vector stay together.
    if (e.description === description) written.push({ entity: e, vector: vectors[i] as Float32Array });
  }
  await settleVectors(deps, tenant, written);
  return out;
}

interface EntityVector { entity: EntityRecord; vector: Float32Array }

/**
 * Write entity vectors, then read the entities again: one another job described from an earlier turn meanwhile (whose
 * vector may have been written before this one) gets its description's vector written again, until each read after a
 * write finds the description written. Descriptions only move to earlier turns and a text's vector does not depend on
 * other texts, so the vector left is the description's whichever job writes last; no lock is held.
 */
async function settleVectors(deps: LeftBrainDeps, tenant: TenantId, written: EntityVector[]): Promise<void> {
  let pending = written;
  while (pending.length > 0) {
    await deps.vectors.upsert(tenant, ENTITY_COLLECTION, pending.map(({ entity: e, vector }) => ({
      id: e.id, vector, payload: { layer: 'entity', schemaId: e.schemaId, name: e.key },
    })));
    const wrote = new Map(pending.map((p) => [p.entity.id, p.entity.description]));
    const moved = (await deps.entities.getEntities(tenant, [...wrote.keys()])).filter((e) => e.description !== wrote.get(e.id));
    const vectors = moved.length > 0 ? await deps.embedder.embed(moved.map((e) => e.description)) : [];
    pending = moved.map((entity, i) => ({ entity, vector: vectors[i] as Float32Array }));
  }
}

/**
 * The left-brain update as a post-consolidation step (`afterConsolidation` in pipelines/jobs.ts): runs
 * at the end of the consolidation job, and in a `memory.after-consolidation` job the queue retries
 * when it failed there (store outages waited out, crashes survived). Idempotent: links are recorded
 * once per utterance (`EntityIndex.record`'s `source`).
 */
export function leftBrainStep(deps: LeftBrainDeps): (job: { tenant: TenantId; utteranceId: string }, factIds: string[]) => Promise<void> {
  const handler = createLeftBrainHandler(deps);
  let n = 0;
  return async (job, factIds) => {
    n += 1;
    await handler({ id: `left-brain-${n}`, name: LEFT_BRAIN_JOB, attempt: 1, data: { tenant: job.tenant, utteranceId: job.utteranceId, factIds } },
      new AbortController().signal);
  };
}
