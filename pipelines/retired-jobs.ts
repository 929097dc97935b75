import type { Logger } from 'pino';
import type { JobQueue } from '../graph/job-queue.js';

/**
 * Job kinds no build handles any more, which a queue written by an older build may still hold: `memory.states-ended`,
 * the sweep of ended temporary states (gone since the derived attributes record their own steps, rules 30). Without a
 * handler such a job would wait in its queue for ever (a job of a kind never known is a bug, and is left to show).
 */
export const RETIRED_JOB_NAMES: readonly string[] = ['memory.states-ended'];

/**
 * Take the jobs of every retired kind ({@link RETIRED_JOB_NAMES}) and acknowledge them doing nothing: each is dropped
 * once, as a finished job, with one info log naming its kind. Called with the job handlers.
 */
export function dropRetiredJobs(queue: JobQueue, log: Logger): void {
  for (const name of RETIRED_JOB_NAMES) {
    queue.process(name, async (job) => {
      log.info({ job: name, jobId: job.id }, 'job of a retired kind dropped');
    });
  }
}
