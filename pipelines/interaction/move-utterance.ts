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
 * move is returned with `reindexError`, and stays pending in the graph until {@link requeuePendingMoves} queues it at
 * the next start. Null when the utterance is gone or already `intoId`'s.
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
    await stores.graph.clearPendingMoves(tenant, [utteranceId]);
  } catch (err) {
    move.reindexError = err instanceof Error ? err : new Error(String(err));
  }
  return move;
}

/**
 * Queue the re-indexing of every move of `tenant` stored but not confirmed queued (`GraphStore.pendingMoves`: the
 * process stopped between the move and the queue, or the queue failed), then forget them. Run at start, before jobs
 * are taken; a crash before the forget queues them again next start (a second job only re-indexes). Returns how many.
 */
export async function requeuePendingMoves(stores: Pick<Stores, 'graph' | 'queue'>, tenant: TenantId): Promise<number> {
  const pending = await stores.graph.pendingMoves(tenant);
  if (pending.length === 0) return 0;
  await queueReindex(stores, tenant, pending);
  await stores.graph.clearPendingMoves(tenant, pending);
  return pending.length;
}
