import type { SessionEvidence } from '../../pipelines/speaker/session-cannot-links.js';
import type { MergeRuleParams } from '../../pipelines/speaker/session-rules.js';
import { chosenRecluster, reclusterUtterances, type SessionUtterance } from '../../pipelines/speaker/utterance-reclustering.js';

/** What the live session kept of one identified turn for the re-clustering. */
export interface TurnEvidence {
  vector: Float32Array;
  seconds: number;
  /** The utterance stored for the turn (absent until stored, or when it never was). */
  utteranceId?: string;
}

/** The most turns kept (the newest): the clustering is cubic in them (`ReclusterOptions.maxUnits`). */
export const MAX_RECLUSTER_TURNS = 600;

/**
 * The end-of-session re-clustering's plan for a live session (`PARLEY_SPEAKER_RECLUSTER`): the stored utterances of the
 * kept turns, each under its speaker as `evidence` holds it (after merges, claims and revisions), fragments of one client
 * turn pooled, each utterance's named addressees (the vocative rule), and the session's cannot-links (ids that spoke at
 * the same time, named one another or hold different external ids) kept apart. Returns the moves (utterance ids) and the splits.
 */
export function planReclustering(
  turns: Iterable<TurnEvidence>, evidence: SessionEvidence, known: ReadonlySet<string>, merge: MergeRuleParams,
): ReturnType<typeof reclusterUtterances> {
  const { transcript, named } = evidence;
  const lines = new Map(transcript.map((u, i) => [u.id, { speakerId: u.speakerId, turnId: u.turnId, named: named[i]?.namedAddresseeIds ?? [] }]));
  const utterances: SessionUtterance[] = [];
  for (const t of turns) {
    const line = t.utteranceId ? lines.get(t.utteranceId) : undefined;
    if (!line || !(t.seconds > 0)) continue;
    // Fragments of one client turn (one `turnId`) under one id are pooled and move together.
    utterances.push({ key: t.utteranceId!, participantId: line.speakerId, vector: t.vector, seconds: t.seconds, namedAddressees: line.named, ...(line.turnId ? { turn: line.turnId } : {}) });
  }
  return reclusterUtterances(utterances, { ...chosenRecluster(merge), known, cannotLink: evidence.cannotLink, maxUnits: MAX_RECLUSTER_TURNS });
}
