import type { TenantId } from './types.js';

/** A stored voice prototype: the running mean embedding of one participant in one embedding space. */
export interface Voiceprint {
  /** Opaque id (`vp_…`). */
  id: string;
  participantId: string;
  /** Embedder that produced the vector; prototypes of other models are never compared. */
  modelId: string;
  /** L2-normalised prototype. */
  vector: Float32Array;
  /** How many embeddings have been folded into the prototype (1 when created). */
  updateCount: number;
  /** ISO-8601 times. */
  createdAt: string;
  updatedAt: string;
}

/** Fields written by `upsert`; the store fills in times (and `id` when absent). */
export interface VoiceprintInput {
  id?: string;
  participantId: string;
  modelId: string;
  vector: Float32Array;
  updateCount: number;
}

/**
 * Voice prototypes per tenant, persisted only with the tenant's consent (speaker identity decides).
 * Implementations: SQLite (embedded); a networked one (Redis / Qdrant) runs the same contract suite.
 */
export interface VoiceprintStore {
  /** All prototypes of a tenant, optionally only those of one embedder, oldest first. */
  list(tenant: TenantId, modelId?: string): Promise<Voiceprint[]>;
  get(tenant: TenantId, id: string): Promise<Voiceprint | null>;
  /** Insert, or replace the prototype with the same `id`. Returns the stored record. */
  upsert(tenant: TenantId, print: VoiceprintInput): Promise<Voiceprint>;
  /** Returns false when absent. */
  delete(tenant: TenantId, id: string): Promise<boolean>;
  /** Erase every prototype of a participant (participant deletion, consent withdrawn). Returns the count. */
  deleteByParticipant(tenant: TenantId, participantId: string): Promise<number>;
  /** Move every prototype of `fromId` to `intoId` (after a speaker merge). Returns the count. */
  reassign(tenant: TenantId, fromId: string, intoId: string): Promise<number>;
  /** Number of prototypes of a participant (the profile's voiceprint count). */
  countByParticipant(tenant: TenantId, participantId: string): Promise<number>;
  close(): Promise<void>;
}
