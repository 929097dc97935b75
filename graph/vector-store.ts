import { ParleyError } from './core/errors.js';
import type { TenantId } from './types.js';

/** Payload fields every implementation indexes for filtering. Extra fields are stored as given. */
export interface VectorPayload {
  /** Which layer the point belongs to: `interaction`, `fact`, `profile`, `persona`, `entity`… */
  layer: string;
  sessionId?: string;
  speakerId?: string;
  addresseeIds?: string[];
  /** ISO-8601. */
  time?: string;
  [key: string]: unknown;
}

export interface VectorPoint {
  id: string;
  vector: Float32Array;
  payload: VectorPayload;
}

export interface VectorFilter {
  layer?: string | string[];
  sessionId?: string;
  speakerId?: string;
  /** Matches points whose `addresseeIds` contain this id. */
  addresseeId?: string;
  /** Restrict the search to these point ids (the candidate pool). */
  ids?: string[];
}

export interface VectorHit {
  id: string;
  /** Cosine similarity in [-1, 1]. */
  score: number;
  payload: VectorPayload;
}

/** Identifies the embedding space of a collection; vectors from another model are rejected. */
export interface EmbeddingSpace {
  model: string;
  dimension: number;
}

/**
 * Dense vectors with payload filters. Implementations: SQLite (embedded, exact cosine),
 * Qdrant (networked). Each collection is bound to one embedding space.
 */
export interface VectorStore {
  /**
   * Bind `collection` to `space`. Throws `PARLEY_ERR_EMBEDDING_MISMATCH` if it already holds vectors
   * of another model or dimension (re-embed instead of mixing).
   */
  ensureCollection(collection: string, space: EmbeddingSpace): Promise<void>;
  /** The space a collection is bound to, or null. */
  collectionSpace(collection: string): Promise<EmbeddingSpace | null>;
  /** Insert or replace points by id. */
  upsert(tenant: TenantId, collection: string, points: VectorPoint[]): Promise<void>;
  /**
   * The stored points of `ids` (vector and payload), in no particular order; ids with no point are left out. Lets a
   * re-index reuse the vector of a text that did not change instead of embedding it again.
   */
  get(tenant: TenantId, collection: string, ids: string[]): Promise<VectorPoint[]>;
  /** Top `k` points by cosine similarity, best first. */
  search(
    tenant: TenantId,
    collection: string,
    vector: Float32Array,
    k: number,
    filter?: VectorFilter,
  ): Promise<VectorHit[]>;
  /** Delete by id; ids that do not exist are ignored. */
  delete(tenant: TenantId, collection: string, ids: string[]): Promise<void>;
  /** Remove every point of a collection (all tenants), e.g. before re-embedding. */
  dropCollection(collection: string): Promise<void>;
  count(tenant: TenantId, collection: string): Promise<number>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The checks every `VectorStore` makes, written once. A collection keeps one embedding space:
 * `PARLEY_ERR_EMBEDDING_MISMATCH` when `wanted` differs from the `current` one.
 */
export function assertSameSpace(collection: string, current: EmbeddingSpace, wanted: EmbeddingSpace): void {
  if (current.model !== wanted.model || current.dimension !== wanted.dimension) {
    throw new ParleyError(
      'PARLEY_ERR_EMBEDDING_MISMATCH',
      `collection ${collection} holds ${current.model}/${current.dimension} vectors, not ` +
        `${wanted.model}/${wanted.dimension}: re-embed it instead of mixing models`,
    );
  }
}

/** `PARLEY_ERR_EMBEDDING_MISMATCH` unless every point has the collection's `dimension`. */
export function assertPointDimensions(collection: string, points: VectorPoint[], dimension: number): void {
  for (const p of points) {
    if (p.vector.length !== dimension) {
      throw new ParleyError(
        'PARLEY_ERR_EMBEDDING_MISMATCH',
        `vector ${p.id} has dimension ${p.vector.length}; collection ${collection} expects ${dimension}`,
      );
    }
  }
}

/** `PARLEY_ERR_EMBEDDING_MISMATCH` unless the query has the collection's `dimension`. */
export function assertQueryDimension(collection: string, vector: Float32Array, dimension: number): void {
  if (vector.length !== dimension) {
    throw new ParleyError('PARLEY_ERR_EMBEDDING_MISMATCH', `query has dimension ${vector.length}, collection ${collection} has ${dimension}`);
  }
}

/** The error for a write to a collection never created. */
export function collectionMissing(collection: string): ParleyError {
  return new ParleyError('PARLEY_ERR_NOT_FOUND', `collection ${collection} does not exist: call ensureCollection first`);
}
