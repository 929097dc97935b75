import { createHash } from 'node:crypto';

/**
 * What became of a participant id no store holds any more: merged into another participant (a write
 * naming it is attributed to `mergedInto`, the survivor at the end of any chain of merges), or erased
 * (the store keeps only the SHA-256 of the id, so the id itself is gone; a write naming it is refused).
 */
export type RetiredParticipant = { mergedInto: string } | { erased: true };

/** How an erased id is kept: `sha256:` and the hex SHA-256 of the id, never the id itself. */
export function erasedIdKey(id: string): string {
  return `sha256:${createHash('sha256').update(id, 'utf8').digest('hex')}`;
}
