import type { Logger } from 'pino';
import type { JobQueue } from '../../graph/job-queue.js';
import type { TenantId } from '../../graph/types.js';
import { STATES_ENDED_JOB, statesEndedJobId, type StatesEndedJob } from './temporary-states.js';

/** Queues the sweeps of ended temporary states (`memory.states-ended`), one per tenant per period. */
export interface StateSweeps {
  /**
   * Queue a sweep of every tenant now: the window runs from the previous sweep's end (none at the first: every
   * state ended so far) to now, rounded down to the period. Resolves once the jobs are queued.
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

/**
 * Queue a sweep at once and then every `everyMs` (a timer that does not keep the process alive). Window ends
 * are rounded down to the period, so servers that share a queue queue the same job ids and each sweep runs
 * once; a window a stopped server missed is covered by the first sweep after its start, which takes every state
 * ended so far.
 */
export function scheduleStateSweeps(opts: StateSweepOptions): StateSweeps {
  const now = opts.now ?? Date.now;
  let last: number | null = null;
  const once = async (): Promise<void> => {
    const by = Math.floor(now() / opts.everyMs) * opts.everyMs;
    if (last !== null && by <= last) return;
    const endedAfter = last === null ? null : new Date(last).toISOString();
    for (const tenant of opts.tenants) {
      const job: StatesEndedJob = { tenant, endedAfter, endedBy: new Date(by).toISOString() };
      await opts.queue.enqueue(STATES_ENDED_JOB, job, { jobId: statesEndedJobId(job) });
    }
    last = by;
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
