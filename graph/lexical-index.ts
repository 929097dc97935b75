import type { TenantId } from './types.js';

export interface LexicalDoc {
  id: string;
  text: string;
  layer: string;
  sessionId?: string;
  speakerId?: string;
  addresseeIds?: string[];
}

export interface LexicalFilter {
  layer?: string | string[];
  sessionId?: string;
  speakerId?: string;
  addresseeId?: string;
  ids?: string[];
}

export interface LexicalHit {
  id: string;
  /** BM25 relevance; higher is better. Comparable only within one result list. */
  score: number;
}

/**
 * BM25 keyword search. Implementations: SQLite FTS5 (embedded), Qdrant sparse vectors or Neo4j
 * full-text (networked).
 */
export interface LexicalIndex {
  /** Insert or replace documents by id. */
  index(tenant: TenantId, docs: LexicalDoc[]): Promise<void>;
  /** Free-text query; punctuation and operators in `query` are treated as plain words. */
  search(tenant: TenantId, query: string, k: number, filter?: LexicalFilter): Promise<LexicalHit[]>;
  delete(tenant: TenantId, ids: string[]): Promise<void>;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}
