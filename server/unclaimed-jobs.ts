import type { Logger } from 'pino';
import type { JobQueue } from '../graph/job-queue.js';

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
