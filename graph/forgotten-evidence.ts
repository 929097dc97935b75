import type { PersonaNode } from './memory-store.js';

/** What forgetting utterances changes of a persona node (`MemoryStore.forgetPersonaEvidence`). */
export type EvidenceHeld = Pick<PersonaNode, 'evidenceCount' | 'evidenceIds' | 'sessionIds'>;

/**
 * A persona node without the forgotten utterances and sessions: null when it holds none of them, `'gone'` when all its
 * evidence was forgotten (every evidence id it counts, or every session it came from), else what it keeps. The ids
 * listed are capped (50), so a node counting more evidence than it lists keeps the difference.
 *
 * Valence, strength and the per-label counts are running means and tallies of per-observation values the store never
 * kept (`addPersonaEvidence`): they cannot be recomputed without the forgotten observations, so they stay as they were.
 */
export function withoutForgotten(node: EvidenceHeld, utteranceIds: ReadonlySet<string>, sessionIds: ReadonlySet<string>): EvidenceHeld | 'gone' | null {
  const evidenceIds = node.evidenceIds.filter((id) => !utteranceIds.has(id));
  const sessions = node.sessionIds.filter((id) => !sessionIds.has(id));
  const dropped = node.evidenceIds.length - evidenceIds.length;
  if (dropped === 0 && sessions.length === node.sessionIds.length) return null;
  const evidenceCount = node.evidenceCount - dropped;
  if (evidenceCount <= 0 || (node.sessionIds.length > 0 && sessions.length === 0)) return 'gone';
  return { evidenceCount, evidenceIds, sessionIds: sessions };
}
