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
  /**
   * Who finishes it now (`GraphStore.claimErasure`: one of several servers on the store, at its start), until
   * `leaseUntil` (ISO 8601); null when no one has claimed it. A lease past its end is anyone's to take (its owner crashed).
   */
  owner: string | null;
  leaseUntil: string | null;
}

/** A claim on a pending erasure: who takes it, the time now, and until when the lease holds (ISO 8601). */
export interface ErasureLease {
  owner: string;
  now: string;
  until: string;
}
