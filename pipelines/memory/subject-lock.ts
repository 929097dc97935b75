import type { TenantId } from '../../graph/types.js';

/**
 * The lock key of deciding and writing facts about one subject (`Stores.locks`): consolidation decides and writes under
 * it, and a rename rewrites the subject's memories under it, so the two never interleave.
 */
export function subjectLockKey(tenant: TenantId, subjectId: string): string {
  return `consolidate:${tenant}:subject:${subjectId}`;
}
