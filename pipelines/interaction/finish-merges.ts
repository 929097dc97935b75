import { ParleyError } from '../../graph/core/errors.js';
import type { PendingMerge } from '../../graph/pending-merges.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import { finishMergeTail, mergeParticipantsByHand } from './merge-participants.js';
import { eraseLeftOfMerge, mergeStanding } from './pending-merge-standing.js';
import { MERGE_CLOCK, type MergeClock } from './merge-lease.js';

export { MERGE_LEASE_MS } from './merge-lease.js';

/** The log lines of `finishAbandonedMerges`: what it is about, and what happened. */
export interface MergeLog {
  info(about: object, message: string): void;
  warn(about: object, message: string): void;
  error(about: object, message: string): void;
}

/** What `finishAbandonedMerges` needs beside the stores. */
export interface AbandonedMergeOptions {
  /** A merge last begun (`PendingMerge.touchedAt`) longer ago than this is abandoned; a younger one may be running. */
  leaseMs: number;
  /** The time now (ms since the epoch). */
  now: number;
  /** Where each merge finished or rolled back is told (a pino logger). */
  log: MergeLog;
  /** Tell each session the merged-away participant spoke or was addressed in (`speaker.merged`). */
  publish: (sessionId: string, event: { from: string; into: string }) => void;
  /** The clock a merge taken over renews its lease by (`MergeLease`); default the time now and `leaseMs`. */
  clock?: MergeClock;
}

/** What became of one pending merge finished by {@link finishPendingMerge}. */
export type MergeOutcome = 'finished' | 'erased' | 'rolled back';

/**
 * Finish one pending merge, as the graph says it stands (`mergeStanding`): its graph part cut short goes on (the same
 * merge sent again, `mergeParticipantsByHand`); a merge whose graph part is done has its memory tail finished into the
 * participant `fromId` leads to now (`intoId`, or whoever `intoId` was merged into since), the sessions told; when
 * that participant was erased since, what `fromId` still owns goes (`eraseLeftOfMerge`); only when the pair is gone
 * (checked, not guessed from an error) is it rolled back (`GraphStore.endMerge`: its record and hold go). Errors
 * propagate, the merge staying pending. Each part renews the merge's lease as it goes (`MergeLease`, by `clock`).
 */
export async function finishPendingMerge(
  stores: Stores, tenant: TenantId, merge: Pick<PendingMerge, 'fromId' | 'intoId' | 'erasure'>, publish: AbandonedMergeOptions['publish'],
  clock: MergeClock = MERGE_CLOCK,
): Promise<MergeOutcome> {
  const { fromId, intoId } = merge;
  const standing = await mergeStanding(stores.graph, tenant, merge);
  if (standing.step === 'graph') {
    await mergeParticipantsByHand(stores, tenant, fromId, intoId, publish, clock);
    return 'finished';
  }
  if (standing.step === 'tail') {
    const report = await finishMergeTail(stores, tenant, fromId, standing.survivor, [], intoId, clock);
    for (const sessionId of report.sessionIds) publish(sessionId, { from: fromId, into: standing.survivor });
    return 'finished';
  }
  if (standing.step === 'erased') await eraseLeftOfMerge(stores, tenant, merge, clock);
  await stores.graph.endMerge(tenant, fromId, intoId);
  return standing.step === 'erased' ? 'erased' : 'rolled back';
}

const OUTCOME_LINES: Record<MergeOutcome, string> = {
  finished: 'a merge cut short before was finished (its re-indexing queued, its participants released)',
  erased: 'a merge cut short before led to a participant erased since: what the merged-away participant still owned was erased',
  'rolled back': 'a merge cut short was rolled back: a participant is gone; its participants are released',
};

/**
 * Finish the merges of `tenant` cut short by a crash (`GraphStore.pendingMerges` last begun more than `leaseMs` ago),
 * each by {@link finishPendingMerge}. One that fails is logged and stays pending for the next pass. Returns in how many
 * ms the youngest merge left alone (perhaps running on another server) is abandoned in its turn, or null.
 */
export async function finishAbandonedMerges(stores: Stores, tenant: TenantId, options: AbandonedMergeOptions): Promise<number | null> {
  const { leaseMs, now, log } = options;
  let next: number | null = null;
  for (const merge of await stores.graph.pendingMerges(tenant)) {
    const left = Date.parse(merge.touchedAt) + leaseMs - now;
    if (left > 0) {
      next = Math.min(next ?? Infinity, left);
      continue;
    }
    const about = { tenant, from: merge.fromId, into: merge.intoId, since: merge.startedAt };
    try {
      const outcome = await finishPendingMerge(stores, tenant, merge, options.publish, options.clock ?? { ...MERGE_CLOCK, leaseMs });
      (outcome === 'finished' ? log.info : log.warn).call(log, about, OUTCOME_LINES[outcome]);
    } catch (err) {
      log.error({ ...about, err }, 'a merge cut short could not be finished; it stays pending until the next pass or the same merge sent again');
    }
  }
  return next;
}

/**
 * Before participant `id` is erased: finish every pending merge naming them, or leading to them now (a merge into
 * someone merged into them since), so what the merged-away participant owned is theirs and goes with them, never left
 * behind under an id nobody can erase (`finishPendingMerge`). One whose graph part is unfinished and began less than
 * `leaseMs` before `now` may be running on another server: a `PARLEY_ERR_CONFLICT` (send the erasure again once it is
 * done; the graph holds both participants meanwhile).
 */
export async function finishMergesBeforeErasure(
  stores: Stores, tenant: TenantId, id: string, options: Pick<AbandonedMergeOptions, 'leaseMs' | 'now' | 'publish' | 'clock'>,
): Promise<void> {
  // Those naming `id`, and those into someone merged into `id` since (whose tail `id` is owed), by index.
  for (const merge of await stores.graph.pendingMergesOf(tenant, id)) {
    const standing = await mergeStanding(stores.graph, tenant, merge);
    const names = merge.fromId === id || merge.intoId === id || (standing.step === 'tail' && standing.survivor === id);
    if (!names) continue;
    if (standing.step === 'graph' && Date.parse(merge.touchedAt) + options.leaseMs > options.now) {
      throw new ParleyError('PARLEY_ERR_CONFLICT',
        `a merge of participant ${merge.fromId} into ${merge.intoId} is running; send the erasure again once it is done`);
    }
    await finishPendingMerge(stores, tenant, merge, options.publish, options.clock ?? { ...MERGE_CLOCK, leaseMs: options.leaseMs });
  }
}
