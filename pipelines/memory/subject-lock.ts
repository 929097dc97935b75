import type { TenantId } from '../../graph/types.js';

/**
 * The lock key of deciding and writing facts about one subject (`Stores.locks`): consolidation decides and writes under
 * it, and a rename rewrites the subject's memories under it, so the two never interleave.
 */
export function subjectLockKey(tenant: TenantId, subjectId: string): string {
  return `consolidate:${tenant}:subject:${subjectId}`;
}

/**
 * The lock key of writing what one speaker's utterance gives memory and the indexes (`Stores.locks`): consolidation checks
 * that the utterance is still stored and writes under it, one write at a time (never across a decision, which may be a
 * slow LLM call), and an erasure removes the speaker from the graph under it, so
 * a job that read their turn before the erasure never writes after they left the graph (its writes come first, and the
 * erasure's second pass removes them).
 */
export function speakerLockKey(tenant: TenantId, speakerId: string): string {
  return `consolidate:${tenant}:speaker:${speakerId}`;
}
