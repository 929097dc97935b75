import type { TenantId } from './types.js';

/** Where a schema came from: the fixed seed set, or promoted from coherent query hits. */
export type SchemaOrigin = 'seed' | 'emergent';

/** A left-brain shelf (VoiceMem): "work", "health", or an emergent one such as "the job interview". */
export interface SchemaRecord {
  /** Opaque id; seed schemas use stable ids (`sch_work`), emergent ones `sch_…`. */
  id: string;
  name: string;
  /** Text the schema is matched by (embedding similarity to queries and entity descriptions). */
  description: string;
  origin: SchemaOrigin;
  /** ISO-8601. */
  createdAt: string;
}

/** Strong links join entities named in one fact; weak ones entities of one session window. */
export type LinkStrength = 'strong' | 'weak';

/** A left-brain spine: a thing memories are about ("the cat Miko"). Belongs to exactly one schema. */
export interface EntityRecord {
  id: string;
  /** Display name as first seen. */
  name: string;
  /** Lower-case normalised name the entity is keyed by within a tenant. */
  key: string;
  aliases: string[];
  description: string;
  /** The one schema this entity belongs to (stored on the entity, no edges to traverse). */
  schemaId: string;
  /** Number of memories (facts and utterances) about the entity. */
  memoryCount: number;
  /** ISO-8601. */
  updatedAt: string;
  /** `EntityInput.descriptionOrder` of the description kept; absent when none was given or the description was rewritten. */
  descriptionOrder?: string;
}

/** A new or refreshed entity; upserts by normalised `name` (or any alias). */
export interface EntityInput {
  name: string;
  aliases?: string[];
  description: string;
  schemaId: string;
  /**
   * Where the description comes from, as a key that sorts in turn order (`descriptionOrder` in
   * pipelines/retrieval/left-brain-job.ts). An upsert of an existing entity whose stored key sorts after this one
   * takes this input's name, description and schema: the entity is described by its earliest turn, whichever job
   * finished first. Without it (or on an entity stored without one) the stored description stays.
   */
  descriptionOrder?: string;
}

/** The ids of backend memories about an entity, split by layer. */
export interface EntityMemories {
  factIds: string[];
  utteranceIds: string[];
}

/** A neighbour reached over one link. */
export interface EntityNeighbour {
  entityId: string;
  neighbourId: string;
  strength: LinkStrength;
  /** How often the two co-occurred. */
  weight: number;
}

/** One `link` call, as data. */
export interface EntityLinkWrite {
  a: string;
  b: string;
  strength: LinkStrength;
  /** Default 1. */
  by?: number;
}

/** What `record` writes. */
export interface EntityWrites {
  memories: EntityMemoryWrite[];
  links: EntityLinkWrite[];
  /** What the writes come from (an utterance id): its links are added once however often it is recorded. */
  source?: string;
}

/**
 * The note `record` keeps of each link of a source, by position: the pair (either order), the
 * strength, and which repeat of them in the list it is, so a list recorded again matches its notes
 * whatever order its links come in.
 */
export function linkNotes(links: readonly EntityLinkWrite[]): string[] {
  const seen = new Map<string, number>();
  return links.map((l) => {
    const pair = `${l.a < l.b ? `${l.a}|${l.b}` : `${l.b}|${l.a}`}|${l.strength}`;
    const n = (seen.get(pair) ?? 0) + 1;
    seen.set(pair, n);
    return `${pair}#${n}`;
  });
}

/** One `addMemories` call, as data. */
export interface EntityMemoryWrite {
  entityId: string;
  factIds?: string[];
  utteranceIds?: string[];
}

/** Lightweight name entry for in-memory matching of partial transcripts. */
export interface EntityName {
  id: string;
  key: string;
  aliases: string[];
  schemaId: string;
}

/**
 * The left brain's schema–entity index: a light index over the memory backend, holding only ids of
 * memories, never their text. Implementations: SQLite (embedded), Neo4j (networked). Every call is
 * tenant-scoped.
 */
export interface EntityIndex {
  /** Insert the given schemas where absent (by id); existing ones are left untouched. */
  ensureSchemas(tenant: TenantId, schemas: Omit<SchemaRecord, 'createdAt'>[]): Promise<void>;
  listSchemas(tenant: TenantId): Promise<SchemaRecord[]>;
  /** Create a schema (an emergent one when promoted); returns it as stored. */
  addSchema(tenant: TenantId, schema: Omit<SchemaRecord, 'createdAt' | 'id'> & { id?: string }): Promise<SchemaRecord>;

  /** Create the entity, or merge aliases into the one with the same key; the schema is kept once set. */
  upsertEntity(tenant: TenantId, input: EntityInput): Promise<EntityRecord>;
  getEntities(tenant: TenantId, ids: string[]): Promise<EntityRecord[]>;
  /** Entities whose key or an alias equals one of `names` (case-insensitive). */
  findByNames(tenant: TenantId, names: string[]): Promise<EntityRecord[]>;
  /** Every entity's key, aliases and schema (for matching); ordered by id. */
  listNames(tenant: TenantId): Promise<EntityName[]>;
  /** Entities of these schemas, most memories first, at most `limit`. */
  entitiesOfSchemas(tenant: TenantId, schemaIds: string[], limit: number): Promise<EntityRecord[]>;
  /** Move entities to another schema (emergence promotes them; they are never split again). */
  setSchema(tenant: TenantId, entityIds: string[], schemaId: string): Promise<void>;

  /** Record memories about an entity (idempotent). */
  addMemories(tenant: TenantId, entityId: string, memories: Partial<EntityMemories>): Promise<void>;
  /** Memories of these entities, de-duplicated, newest first, at most `limit` ids in total. */
  memoriesOf(tenant: TenantId, entityIds: string[], limit: number): Promise<EntityMemories>;
  /** Entities with a memory among `memoryIds`. */
  entitiesOfMemories(tenant: TenantId, memoryIds: string[]): Promise<string[]>;
  /** Forget memory ids (erasure, closed facts); entities stay. */
  removeMemories(tenant: TenantId, memoryIds: string[]): Promise<void>;
  /**
   * Erasure: remove these memory ids, then delete the entities they leave with no memory at all
   * (with their aliases and links), since such an entity only repeats the erased words.
   * Returns the deleted entities' ids.
   */
  eraseMemories(tenant: TenantId, memoryIds: string[]): Promise<string[]>;
  /** Erasure: entities whose description contains one of `texts` (verbatim, case-sensitive), ordered by id. */
  entitiesDescribedBy(tenant: TenantId, texts: string[]): Promise<EntityRecord[]>;
  /** Replace an entity's description (erasure rewrites one that quoted erased words); absent ids are ignored. */
  describe(tenant: TenantId, entityId: string, description: string): Promise<void>;
  /** Delete entities with their aliases, memory records and links (erasure: one named after the person). Idempotent. */
  deleteEntities(tenant: TenantId, entityIds: string[]): Promise<void>;
  /** Move a schema's entities to `moveTo`, then delete the schema (erasure: one naming the person). Idempotent. */
  deleteSchema(tenant: TenantId, schemaId: string, moveTo: string): Promise<void>;

  /** Add `by` (default 1) to the link between two distinct entities, in both directions. */
  link(tenant: TenantId, a: string, b: string, strength: LinkStrength, by?: number): Promise<void>;
  /**
   * The same as `addMemories` for each of `memories`, then `link` for each of `links`, in order
   * (ranks and weights come out as those calls would leave them), written together: the embedded
   * backend commits them in one transaction, so indexing one utterance costs one commit, not one per
   * call.
   *
   * `source` names what the writes come from (the utterance id): memories are idempotent anyway,
   * and a link the source has recorded before (`linkNotes`) is not added again, so a job run again
   * after a crash, or cut short between links, leaves every link weight as one run would; a re-index
   * of the utterance adds only the links it did not have.
   * Erasing the source's memories (`eraseMemories` with its id) forgets the source.
   */
  record(tenant: TenantId, writes: EntityWrites): Promise<void>;
  /** One-hop neighbours of `ids`, strongest first, at most `limitPerEntity` per entity and strength. */
  neighbours(tenant: TenantId, ids: string[], limitPerEntity: number): Promise<EntityNeighbour[]>;

  /** Increases on every write of the tenant, so callers can cache `listNames` safely. */
  version(tenant: TenantId): Promise<number>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
