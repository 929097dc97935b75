/**
 * A merge begun and not yet finished (`GraphStore.mergeParticipants` records it in the transaction that claims the
 * pair, before any turn moves; `GraphStore.endMerge` forgets it once the merge's memory tail is done). It names the
 * pair and the utterances whose re-indexing the merge owes: the turns it re-points keep `fromId` in the search
 * indexes until they are queued, and once moved they can no longer be told from `intoId`'s own. Found again by the
 * same merge sent again and at start (`GraphStore.pendingMerges`), which finish it.
 */
export interface PendingMerge {
  fromId: string;
  intoId: string;
  /** The utterances spoken by or addressed to `fromId` when the merge was (last) begun, to re-index once it is done. */
  utteranceIds: string[];
  /** When the merge was first begun, and last begun again (a resend, the start-up pass), ISO 8601. */
  startedAt: string;
  touchedAt: string;
  /**
   * Found by a hold an older version left on the participants, with no record (Neo4j's `merging` marker alone): which
   * turns it re-pointed before it stopped is unknown (once moved they cannot be told from `intoId`'s own), so finishing
   * it re-indexes every turn of the survivor.
   */
  unrecorded?: true;
  /**
   * When the participant the merge led to was erased since: the plan of erasing what `fromId` still owns (JSON, as
   * `eraseLeftOfMerge` writes it: the ids it deletes and what it works out again), recorded before anything goes, so an
   * erasure cut short is finished from it (`GraphStore.renewMerge`).
   */
  erasure?: string;
}
