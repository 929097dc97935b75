import type { Logger } from 'pino';
import type { JobQueue, QueueStats } from '../graph/job-queue.js';

/** The background jobs of every queue, as `/readyz` reports them. */
export interface JobsSummary {
  /** Jobs not running yet (due, delayed for a retry, or waiting out an outage), all queues. */
  waiting: number;
  running: number;
  /** How long the oldest due job of any queue has waited to start, ms; null when none is due. */
  oldestWaitingMs: number | null;
  /** `unclaimed` when that wait is `afterMs` or more: no worker takes jobs, or they fall far behind. */
  status: 'ok' | 'unclaimed';
  afterMs: number;
  /** Per queue, its stats (null when the queue did not answer for it). */
  byQueue: Record<string, QueueStats | null>;
}

/** Read the stats of `names` on `queue` and sum them up; the queue's errors propagate. */
export async function summariseJobs(queue: JobQueue, names: readonly string[], afterMs: number): Promise<JobsSummary> {
  const byQueue: Record<string, QueueStats | null> = {};
  let waiting = 0;
  let running = 0;
  let oldest: number | null = null;
  for (const name of names) {
    const stats = await queue.stats(name);
    byQueue[name] = stats;
    waiting += stats.waiting;
    running += stats.running;
    if (stats.oldestWaitingMs !== null) oldest = Math.max(oldest ?? 0, stats.oldestWaitingMs);
  }
  return { waiting, running, oldestWaitingMs: oldest, status: (oldest ?? 0) >= afterMs ? 'unclaimed' : 'ok', afterMs, byQueue };
}

export interface UnclaimedJobsOptions {
  queue: JobQueue;
  /** The job queues to watch (`JOB_NAMES`). */
  names: readonly string[];
  logger: Logger;
  /** A due job waiting this long says no worker is taking jobs, ms; default 60,000. */
  afterMs?: number;
  /** How often to look, ms; default 30,000. */
  everyMs?: number;
}

/** What the unclaimed-jobs watcher saw at one look, summed over its queues. */
export interface JobsLook {
  /** When it looked, ms (any monotonic clock). */
  at: number;
  waiting: number;
  running: number;
  /** The oldest due job's wait, ms; 0 when none is due. */
  oldestWaitingMs: number;
}

/** How far the oldest due job's wait may fall short of the time between two looks before that says it was taken, ms. */
const CLAIM_SLACK_MS = 1_000;

/**
 * Whether a worker took a job up to `now` since `prev`: one runs now, fewer wait than before, or the
 * oldest due job was taken (the oldest now has waited less than the previous oldest would have).
 */
export function claimedSince(prev: JobsLook | null, now: JobsLook): boolean {
  if (now.running > 0) return true;
  if (!prev) return false;
  if (now.waiting < prev.waiting) return true;
  return prev.oldestWaitingMs > 0 && now.oldestWaitingMs < prev.oldestWaitingMs + (now.at - prev.at) - CLAIM_SLACK_MS;
}

/**
 * What to say of the jobs now: `ok` while the oldest due job has waited less than `afterMs`; past it,
 * `no-worker` when no job was seen taken within `afterMs` (`lastClaimAt`: when one last was, null if
 * never), else `behind` (workers take jobs but do not keep up).
 */
export function jobsState(now: JobsLook, lastClaimAt: number | null, afterMs: number): 'ok' | 'behind' | 'no-worker' {
  if (now.oldestWaitingMs < afterMs) return 'ok';
  return lastClaimAt !== null && now.at - lastClaimAt < afterMs ? 'behind' : 'no-worker';
}

/**
 * For a server that runs no jobs itself (`PARLEY_RUN_JOBS=false`): warns when a due job has waited
 * `afterMs`, once per state until jobs move again: "no worker" when none took a job within `afterMs`
 * (start `npm run worker`), "workers are behind" when workers take jobs but a backlog grows, so memories
 * that never form, or form late, are not silent. Returns a function that stops watching.
 */
export function watchUnclaimedJobs(options: UnclaimedJobsOptions): () => void {
  const afterMs = options.afterMs ?? 60_000;
  let state: 'ok' | 'behind' | 'no-worker' = 'ok';
  let prev: JobsLook | null = null;
  let lastClaimAt: number | null = null;
  let looking = false;
  const look = async (): Promise<void> => {
    const now: JobsLook = { at: performance.now(), waiting: 0, running: 0, oldestWaitingMs: 0 };
    for (const name of options.names) {
      const stats = await options.queue.stats(name);
      now.oldestWaitingMs = Math.max(now.oldestWaitingMs, stats.oldestWaitingMs ?? 0);
      now.waiting += stats.waiting;
      now.running += stats.running;
    }
    if (claimedSince(prev, now)) lastClaimAt = now.at;
    prev = now;
    const next = jobsState(now, lastClaimAt, afterMs);
    if (next === state) return;
    const was = state;
    state = next;
    const fields = { waiting: now.waiting, oldestWaitingMs: now.oldestWaitingMs };
    if (next === 'no-worker') {
      options.logger.warn(fields, 'jobs are waiting and no worker has taken one lately: with PARLEY_RUN_JOBS=false, start `npm run worker` on this queue');
    } else if (next === 'behind') {
      options.logger.warn({ ...fields, oldestWaitingS: Math.round(now.oldestWaitingMs / 1000) },
        'workers are behind: they take jobs, but jobs wait longer than PARLEY_JOBS_UNCLAIMED_MS; memories form late: start more `npm run worker` processes');
    } else if (was === 'no-worker') {
      options.logger.info({ waiting: now.waiting }, 'a worker is taking jobs again');
    } else {
      options.logger.info({ waiting: now.waiting }, 'workers have caught up with the jobs');
    }
  };
  const timer = setInterval(() => {
    if (looking) return;
    looking = true;
    look().catch(() => undefined).finally(() => {
      looking = false;
    });
  }, options.everyMs ?? 30_000);
  timer.unref();
  return () => clearInterval(timer);
}
