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

/**
 * For a server that runs no jobs itself (`PARLEY_RUN_JOBS=false`): warns when a due job has waited
 * `afterMs` without a worker (`npm run worker`) taking it, once until jobs move again, so memories
 * that never form are not silent. Returns a function that stops watching.
 */
export function watchUnclaimedJobs(options: UnclaimedJobsOptions): () => void {
  const afterMs = options.afterMs ?? 60_000;
  let warned = false;
  let looking = false;
  const look = async (): Promise<void> => {
    let oldest = 0;
    let waiting = 0;
    for (const name of options.names) {
      const stats = await options.queue.stats(name);
      oldest = Math.max(oldest, stats.oldestWaitingMs ?? 0);
      waiting += stats.waiting;
    }
    if (oldest >= afterMs && !warned) {
      warned = true;
      options.logger.warn(
        { waiting, oldestWaitingMs: oldest },
        'jobs are waiting and no worker takes them: with PARLEY_RUN_JOBS=false, start `npm run worker` on this queue',
      );
    } else if (oldest < afterMs && warned) {
      warned = false;
      options.logger.info({ waiting }, 'a worker is taking jobs again');
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
