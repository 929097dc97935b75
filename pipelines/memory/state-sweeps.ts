import type { Logger } from 'pino';
import type { JobQueue } from '../../graph/job-queue.js';
import type { TenantId } from '../../graph/types.js';
import { STATES_ENDED_JOB, statesEndedJobId, type StatesEndedJob } from './temporary-states.js';

/** Queues the sweeps of ended temporary states (`memory.states-ended`), one per tenant per period. */
export interface StateSweeps {
  /**
   * Queue a sweep of every tenant now: the window runs from the end of the tenant's last queued window (recorded
   * with the queue, so it outlives a restart; none recorded: every state ended so far) to now, rounded down to the
   * period. Resolves once the jobs are queued and their windows recorded.
   */
  sweep(): Promise<void>;
  /** Stop the timer. */
  stop(): void;
}

export interface StateSweepOptions {
  queue: JobQueue;
  tenants: readonly TenantId[];
  /** Period, ms. */
  everyMs: number;
  /** Clock in ms since the epoch (tests); default `Date.now`. */
  now?: () => number;
  logger: Logger;
}

/** The queue marker holding the end of `tenant`'s last queued sweep window (ISO 8601). */
export function sweepMarkerKey(tenant: TenantId): string {
  return `states-ended:${tenant}`;
}

/**
 * Queue a sweep at once and then every `everyMs` (a timer that does not keep the process alive). Window ends
 * are rounded down to the period, so servers that share a queue queue the same job ids and each sweep runs
 * once. A tenant's window starts where its last queued one ended, recorded with the queue once that job is
 * queued (`JobQueue.setMarker`): a restart resumes from there instead of sweeping every state that ever ended
 * again, and a crash between queueing and recording queues the same window again (the same job id: a no-op)
 * or a wider one. A tenant with no record takes every state ended so far.
 */
export function scheduleStateSweeps(opts: StateSweepOptions): StateSweeps {
  const now = opts.now ?? Date.now;
  // Per tenant: the end of its last queued window, ms (null: none recorded); read from the queue at the first sweep.
  const last = new Map<TenantId, number | null>();
  const recorded = async (tenant: TenantId): Promise<number | null> => {
    if (!last.has(tenant)) {
      const at = Date.parse((await opts.queue.marker(sweepMarkerKey(tenant))) ?? '');
      last.set(tenant, Number.isFinite(at) ? at : null);
    }
    return last.get(tenant) ?? null;
  };
  const once = async (): Promise<void> => {
    const by = Math.floor(now() / opts.everyMs) * opts.everyMs;
    for (const tenant of opts.tenants) {
      const after = await recorded(tenant);
      if (after !== null && by <= after) continue;
      const job: StatesEndedJob = { tenant, endedAfter: after === null ? null : new Date(after).toISOString(), endedBy: new Date(by).toISOString() };
      await opts.queue.enqueue(STATES_ENDED_JOB, job, { jobId: statesEndedJobId(job) });
      await opts.queue.setMarker(sweepMarkerKey(tenant), job.endedBy);
      last.set(tenant, by);
    }
  };
  // One at a time, so two calls in one period queue one window.
  let chain: Promise<void> = Promise.resolve();
  const sweep = (): Promise<void> => {
    const next = chain.then(once);
    chain = next.catch(() => undefined);
    return next;
  };
  const run = (): void => {
    sweep().catch((err: Error) => opts.logger.warn({ err: err.message }, 'could not queue the sweep of ended temporary states; tried next period'));
  };
  run();
  const timer = setInterval(run, opts.everyMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
