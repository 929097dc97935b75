import { externalIdCannotLinks } from '../../pipelines/speaker/merge.js';
import type { MergeRuleParams } from '../../pipelines/speaker/session-rules.js';
import { chosenRecluster, reclusterUtterances, type SessionUtterance } from '../../pipelines/speaker/utterance-reclustering.js';
import { withNamedAddressees } from '../../pipelines/speaker/vocative-links.js';
import type { Participant, Utterance } from '../../graph/types.js';

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
 * kept turns, each under its speaker as stored now (after merges and revisions), fragments of one client turn pooled,
 * named addressees from the transcript (the vocative rule), ids of different external ids kept apart. Returns the moves (utterance ids) and the splits.
 */
export function planReclustering(
  turns: Iterable<TurnEvidence>, transcript: readonly Utterance[], people: readonly Participant[],
  known: ReadonlySet<string>, merge: MergeRuleParams,
): ReturnType<typeof reclusterUtterances> {
  const named = withNamedAddressees(transcript, people);
  const lines = new Map(transcript.map((u, i) => [u.id, { speakerId: u.speakerId, turnId: u.turnId, named: named[i]?.namedAddresseeIds ?? [] }]));
  const utterances: SessionUtterance[] = [];
  for (const t of turns) {
    const line = t.utteranceId ? lines.get(t.utteranceId) : undefined;
    if (!line || !(t.seconds > 0)) continue;
    // Fragments of one client turn (one `turnId`) under one id are pooled and move together.
    utterances.push({ key: t.utteranceId!, participantId: line.speakerId, vector: t.vector, seconds: t.seconds, namedAddressees: line.named, ...(line.turnId ? { turn: line.turnId } : {}) });
  }
  return reclusterUtterances(utterances, { ...chosenRecluster(merge), known, cannotLink: externalIdCannotLinks([...people]), maxUnits: MAX_RECLUSTER_TURNS });
}
