import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import { queueReindex } from './merge-participants.js';

/** One stored utterance given to another speaker. */
export interface UtteranceMove {
  utteranceId: string;
  from: string;
  into: string;
  /** Why the re-indexing could not be queued (the move itself is stored); absent when it was queued. */
  reindexError?: Error;
}

/**
 * Give ONE stored utterance to another speaker (the live session's first-turn revision,
 * `PARLEY_SPEAKER_REVISE`): the graph moves it (`GraphStore.setUtteranceSpeaker`: atomic, a refused move
 * changes nothing), then it is queued for re-indexing under its new speaker, as a merge re-indexes the
 * merged-away id's utterances (`queueReindex`). An utterance not yet consolidated is then extracted under
 * its new speaker; one already consolidated has its facts follow it: that job withdraws what it gave the old speaker
 * and extracts it again under the new one (`pipelines/memory/revised-speaker.ts`; docs/ARCHITECTURE.md, "Speaker
 * identity"). A queue that fails after the move does not undo or hide it: the
 * move is returned with `reindexError`. Null when the utterance is gone or already `intoId`'s.
 * @throws ParleyError `PARLEY_ERR_NOT_FOUND` when `intoId` names no participant (nothing changes).
 */
export async function moveUtterance(
  stores: Pick<Stores, 'graph' | 'queue'>, tenant: TenantId, utteranceId: string, intoId: string,
): Promise<UtteranceMove | null> {
  const before = await stores.graph.getUtterance(tenant, utteranceId);
  if (!before || before.speakerId === intoId) return null;
  if (!(await stores.graph.setUtteranceSpeaker(tenant, utteranceId, intoId))) return null;
  const move: UtteranceMove = { utteranceId, from: before.speakerId, into: intoId };
  try {
    await queueReindex(stores, tenant, [utteranceId]);
  } catch (err) {
    move.reindexError = err instanceof Error ? err : new Error(String(err));
  }
  return move;
}
