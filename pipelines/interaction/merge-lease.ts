import type { GraphStore } from '../../graph/graph-store.js';
import type { TenantId } from '../../graph/types.js';

/**
 * How long a merge may go without renewing its lease (`PendingMerge.touchedAt`) before a server starting, or sweeping,
 * takes it for abandoned and finishes it itself.
 */
export const MERGE_LEASE_MS = 10 * 60_000;

/** The lease a merge keeps and the clock it reads it by (tests give a short lease and a clock of their own). */
export interface MergeClock {
  leaseMs: number;
  /** The time now, ms since the epoch. */
  now(): number;
}

export const MERGE_CLOCK: MergeClock = { leaseMs: MERGE_LEASE_MS, now: () => Date.now() };

/**
 * The lease of one attempt at a pending merge (`GraphStore.renewMerge`), the one helper every part of a merge that runs
 * outside the graph's own batches renews it by: the memory tail (each relabel transaction, each re-indexing queued)
 * and the erasure of what a merged-away participant still owns, on every backend. `renew` is called per batch and
 * writes at once the first time (an attempt taking over an abandoned merge claims it so), then only once a third of the
 * lease has passed since its last write, so a batch per utterance costs no write each and a merge making progress is
 * never taken for abandoned by another server.
 */
export class MergeLease {
  #renewedAt = -Infinity;

  constructor(
    private readonly graph: Pick<GraphStore, 'renewMerge'>, private readonly tenant: TenantId,
    readonly fromId: string, readonly intoId: string, private readonly clock: MergeClock = MERGE_CLOCK,
  ) {}

  /** One batch done: renew the lease when a third of it has passed since this attempt last did (at once the first time). */
  async renew(): Promise<void> {
    const now = this.clock.now();
    if (now - this.#renewedAt < this.clock.leaseMs / 3) return;
    await this.graph.renewMerge(this.tenant, this.fromId, this.intoId, new Date(now).toISOString());
    this.#renewedAt = now;
  }

  /** Record `erasure` on the pending merge (`PendingMerge.erasure`), renewing its lease; false when none is recorded. */
  async record(erasure: string): Promise<boolean> {
    const now = this.clock.now();
    const recorded = await this.graph.renewMerge(this.tenant, this.fromId, this.intoId, new Date(now).toISOString(), erasure);
    this.#renewedAt = now;
    return recorded;
  }
}
