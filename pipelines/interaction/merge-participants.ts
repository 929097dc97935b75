import { ParleyError } from '../../graph/core/errors.js';
import type { Stores } from '../../graph/stores.js';
import type { GraphStore } from '../../graph/graph-store.js';
import type { Participant, TenantId } from '../../graph/types.js';
import { CONSOLIDATION_JOB, type ConsolidationJob } from '../memory/consolidate.js';
import { pagedUtterances } from './erase-participant.js';
import { keepClientKeysAfterMerge } from './derived-attributes.js';
import { finishPendingRenames } from './finish-rename.js';
import { PENDING_RENAME, pendingRenameOf, type PendingRename } from './pending-rename.js';
import { factsOf } from './rename-facts.js';
import { MERGE_CLOCK, MergeLease, type MergeClock } from './merge-lease.js';

/** What a manual merge reports (`POST /v1/participants/{id}/merge`, MCP `merge_participants`). */
export interface MergeReport {
  /** The utterances re-pointed (spoken by or addressed to the merged-away participant). */
  utteranceIds: string[];
  /** The sessions those utterances belong to: each is sent `speaker.merged`. */
  sessionIds: string[];
  /** Voiceprints moved to `into`. */
  voiceprints: number;
}

/**
 * Merge participant `fromId` into `intoId` by hand, as the end-of-session speaker merge does
 * (`applyMerge`). `publish` tells each session the merged-away participant spoke or was addressed in
 * (`speaker.merged`; a live session's speaker tracker learns it there, on whichever process holds it).
 * The same merge sent again once the graph has retired `fromId` into `intoId` (a merge cut short after the graph's
 * part, in the memory relabel, the voiceprints or the re-index queue) runs that idempotent tail again
 * ({@link finishMergeTail}) rather than answering 404.
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` merging a person into themself, `PARLEY_ERR_NOT_FOUND`
 *   when either is unknown, `PARLEY_ERR_CONFLICT` when both hold different external ids.
 */
export async function mergeParticipantsByHand(
  stores: Stores, tenant: TenantId, fromId: string, intoId: string,
  publish: (sessionId: string, event: { from: string; into: string }) => void, clock: MergeClock = MERGE_CLOCK,
): Promise<MergeReport> {
  if (fromId === intoId) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `cannot merge participant ${fromId} into themself`);
  if (!(await stores.graph.getParticipant(tenant, intoId))) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${intoId}`);
  const report = await stores.graph.getParticipant(tenant, fromId)
    ? await applyMerge(stores, tenant, fromId, intoId, clock)
    : await (async () => {
      if (!await mergedAwayInto(stores.graph, tenant, fromId, intoId)) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${fromId}`);
      return finishMergeTail(stores, tenant, fromId, intoId, [], intoId, clock);
    })();
  for (const sessionId of report.sessionIds) publish(sessionId, { from: fromId, into: intoId });
  return report;
}

/**
 * The bookkeeping of one merge, the same by hand and at the end of a session: the graph re-points
 * utterances and interactions, joins names, aliases, attributes and external ids, and records `fromId`
 * as merged into `intoId`, so writes still naming `fromId` are attributed to `intoId`
 * (`GraphStore.mergeParticipants`); the memory store relabels facts and persona (`relabelFacts`); the
 * stored voiceprints move; the touched utterances are queued for re-indexing under the new ids (the graph records
 * them with the pending merge before it moves any, so an attempt cut short still owes them). The caller tells the
 * sessions (`speaker.merged`). `clock` is the lease the tail renews (`MergeLease`).
 */
export async function applyMerge(stores: Stores, tenant: TenantId, fromId: string, intoId: string, clock: MergeClock = MERGE_CLOCK): Promise<MergeReport> {
  // An older version's merge of the pair, cut short with no record of what it re-pointed (`PendingMerge.unrecorded`):
  // those turns are among the survivor's now, so all of theirs are owed re-indexing.
  const unrecorded = (await stores.graph.pendingMergesOf(tenant, intoId)).some((m) => m.unrecorded && m.fromId === fromId && m.intoId === intoId);
  const touched = [...new Set([...await turnsOf(stores, tenant, fromId), ...(unrecorded ? await turnsOf(stores, tenant, intoId) : [])])];
  const [from, into] = [await stores.graph.getParticipant(tenant, fromId), await stores.graph.getParticipant(tenant, intoId)];
  // Recorded before the merge: a crash after it is finished at start, like a rename's.
  if (from && into) await oweMergeRename(stores, tenant, from, into);
  await stores.graph.mergeParticipants(tenant, fromId, intoId, touched);
  if (from && into) await keepClientKeysAfterMerge(stores.graph, tenant, from, into);
  return finishMergeTail(stores, tenant, fromId, intoId, touched, intoId, clock);
}

/** The ids of the utterances `id` spoke or was addressed in, each once. */
async function turnsOf(stores: Stores, tenant: TenantId, id: string): Promise<string[]> {
  return [...new Set([...await pagedUtterances(stores, tenant, { speakerId: id }), ...await pagedUtterances(stores, tenant, { addresseeId: id })])];
}

/** Whether the graph holds `fromId` as merged into `intoId` (what a merge of the two leaves once the graph's part is done). */
export async function mergedAwayInto(graph: GraphStore, tenant: TenantId, fromId: string, intoId: string): Promise<boolean> {
  const retired = await graph.retiredParticipant(tenant, fromId);
  return retired !== null && 'mergedInto' in retired && retired.mergedInto === intoId;
}

/**
 * What a merge does after the graph retired `fromId` into `intoId`, every step idempotent, so a merge cut short in it is
 * finished by the same merge sent again (or at start, `finishAbandonedMerges`): the memory store relabels facts and
 * persona (`relabelFacts`), the stored voiceprints move, and `touched` (the utterances this attempt re-pointed) are
 * queued for re-indexing under the new ids, with those an earlier attempt re-pointed: the graph recorded them before it
 * moved any (`GraphStore.pendingMerges`). Then the pending merge is ended (`GraphStore.endMerge`). `recordedInto` is
 * the survivor the pending merge names, when `intoId` is whoever that one was merged into since (the start-up pass
 * finishes the tail into the last survivor). The report names this attempt's `touched` only. The pending merge's lease
 * is renewed as the tail goes (`MergeLease`, by `clock`): at its start, by each relabel transaction and re-indexing
 * queued, so a long tail is never taken for abandoned and finished a second time by another server meanwhile.
 */
export async function finishMergeTail(
  stores: Stores, tenant: TenantId, fromId: string, intoId: string, touched: string[], recordedInto = intoId, clock: MergeClock = MERGE_CLOCK,
): Promise<MergeReport> {
  const lease = new MergeLease(stores.graph, tenant, fromId, recordedInto, clock);
  const batch = (): Promise<void> => lease.renew();
  await batch();
  await relabelFacts(stores, tenant, fromId, intoId, batch);
  const voiceprints = await stores.voiceprints.reassign(tenant, fromId, intoId);
  if (voiceprints > 0) await stores.graph.setVoiceprintCount(tenant, intoId, await stores.voiceprints.countByParticipant(tenant, intoId));
  await batch();
  // The search indexes carry speaker and addressee ids: refresh what the merged id touched.
  const sessionIds = await queueReindex(stores, tenant, touched, batch);
  const pending = (await stores.graph.pendingMergesOf(tenant, intoId)).find((m) => m.fromId === fromId && m.intoId === recordedInto);
  if (pending) {
    const now = new Set(touched);
    // An older version's merge recorded none (`PendingMerge.unrecorded`): every turn of the survivor is owed.
    const owed = pending.unrecorded ? await turnsOf(stores, tenant, intoId) : pending.utteranceIds;
    await queueReindex(stores, tenant, owed.filter((id) => !now.has(id)), batch);
    await stores.graph.endMerge(tenant, fromId, recordedInto);
  }
  return { utteranceIds: touched, sessionIds, voiceprints };
}

/**
 * Queue stored utterances for re-indexing under their speaker and addressee ids as stored now (a
 * consolidation job: one not yet processed is extracted then; a processed one is only re-indexed, unless it was
 * given to another speaker who still exists since it was consolidated (`moveUtterance`): then its facts follow it,
 * withdrawn from the old speaker and extracted again; a merged-away speaker is no longer held, so a merge only re-indexes).
 * Returns the sessions they belong to. `onBatch` runs after each one queued (a merge renews its lease there).
 */
export async function queueReindex(
  stores: Pick<Stores, 'graph' | 'queue'>, tenant: TenantId, utteranceIds: string[], onBatch?: () => Promise<void>,
): Promise<string[]> {
  const sessionIds = new Set<string>();
  for (const u of await stores.graph.getUtterances(tenant, utteranceIds)) {
    sessionIds.add(u.sessionId);
    const data: ConsolidationJob = { tenant, sessionId: u.sessionId, utteranceId: u.id };
    await stores.queue.enqueue(CONSOLIDATION_JOB, data, { jobId: `reindex-${tenant}-${u.id}-${Date.now()}` });
    await onBatch?.();
  }
  return [...sessionIds];
}

/**
 * The rewrite a merge of `from` into `into` owes, recorded on `into` (`PENDING_RENAME`) before the merge: when only one
 * of them has a name, the survivor holds it after and the memories of the unnamed one ("An unnamed speaker enjoys green
 * tea" said by a voice merged into Xena) say it (`relabelFacts` finishes it). When the survivor is the named one, only
 * the merged voice's facts (listed now, before they move) are rewritten: in the survivor's own facts, written while it
 * had its name, "an unnamed speaker" is always someone else. A rewrite the named one still owed is kept (finished first
 * when the survivor owed it, so the limit to the voice's facts never cuts it short).
 */
export async function oweMergeRename(stores: Pick<Stores, 'graph' | 'memory'>, tenant: TenantId, from: Participant, into: Participant): Promise<void> {
  const name = into.name ?? from.name;
  if (!name || (into.name !== null && from.name !== null)) return;
  if (into.name !== null) {
    if (pendingRenameOf(into.attributes)?.to === into.name) await finishPendingRenames(stores, tenant, [into.id]);
    const facts = (await factsOf(stores.memory, tenant, from.id)).map((f) => f.id);
    await stores.graph.updateParticipantAttribute(tenant, into.id, PENDING_RENAME, () => ({ from: [null], to: name, facts }));
    return;
  }
  const owedBefore = [from, into].flatMap((p) => {
    const owed = pendingRenameOf(p.attributes);
    return owed && owed.to === name && owed.facts === undefined ? owed.from : [];
  });
  const owed: PendingRename = { from: [...new Set([...owedBefore, null])], to: name };
  await stores.graph.updateParticipantAttribute(tenant, into.id, PENDING_RENAME, () => owed);
}

/**
 * Move `fromId`'s facts to `intoId` (`MemoryStore.relabelParticipant`), then finish the rewrite `intoId` owes
 * (`oweMergeRename`, `finishPendingRenames`): a fact that names more than one unnamed speaker is left as it is (which
 * one was merged is not in its words). The fact's index entries keep the words they were indexed with until the fact
 * is next re-indexed (the merge queues that). `onBatch` runs after each relabel transaction.
 */
export async function relabelFacts(
  stores: Pick<Stores, 'graph' | 'memory'>, tenant: TenantId, fromId: string, intoId: string, onBatch?: () => Promise<void>,
): Promise<void> {
  await stores.memory.relabelParticipant(tenant, fromId, intoId, onBatch);
  await finishPendingRenames(stores, tenant, [intoId]);
}
