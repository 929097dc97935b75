import { ParleyError } from '../../graph/core/errors.js';
import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';
import { mergeParticipantsByHand } from './merge-participants.js';

/** How long a merge's attempt may run before a server starting, or sweeping, takes it for abandoned. */
export const MERGE_LEASE_MS = 10 * 60_000;

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
}

/**
 * Finish the merges of `tenant` cut short by a crash (`GraphStore.pendingMerges` last begun more than `leaseMs` ago):
 * each is the same merge sent again (`mergeParticipantsByHand`), which goes on where the graph stopped, clears its
 * `merging` marker, relabels the memories and queues the re-indexing the merge owes, then ends it. One that cannot go
 * on because either participant is gone is rolled back (`GraphStore.endMerge`: its record and marker go; what it had
 * moved stays, as the merge asked). One that fails otherwise is logged and stays pending for the next pass. Returns in
 * how many ms the youngest merge left alone (perhaps running on another server) is abandoned in its turn, or null.
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
      await mergeParticipantsByHand(stores, tenant, merge.fromId, merge.intoId, options.publish);
      log.info(about, 'a merge cut short before was finished (its re-indexing queued, its participants released)');
    } catch (err) {
      if (!(err instanceof ParleyError && err.code === 'PARLEY_ERR_NOT_FOUND')) {
        log.error({ ...about, err }, 'a merge cut short could not be finished; it stays pending until the next pass or the same merge sent again');
        continue;
      }
      await stores.graph.endMerge(tenant, merge.fromId, merge.intoId);
      log.warn({ ...about, reason: err.message }, 'a merge cut short was rolled back: a participant is gone; its participants are released');
    }
  }
  return next;
}
