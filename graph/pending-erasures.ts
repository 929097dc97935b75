/**
 * An erasure begun and not yet finished. Erasure runs in two passes around the removal of the participant from the
 * graph; once the participant is gone, a repeated request can no longer find what the second pass needs through it, so
 * the erasure records this first (`GraphStore.beginErasure`) and removes it when both passes are done
 * (`GraphStore.endErasure`). Found again at start (`GraphStore.pendingErasures`) or by a repeated request: it holds the
 * participant id and their words until then, and nothing after.
 */
export interface PendingErasure {
  participantId: string;
  /** What the passes need that the graph will no longer hold (names, quoted texts, memory ids), as the caller wrote it. */
  plan: string;
  /** Ids of the participant's utterances: those the caller recorded, and those `deleteParticipant` deleted. */
  utteranceIds: string[];
  /** When the erasure began (ISO 8601). */
  startedAt: string;
}
