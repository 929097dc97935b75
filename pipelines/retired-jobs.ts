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
 * once, as a finished job, with one info log naming its kind. The dead letters an older build left of such a kind
 * (it failed for good there) are put back on the queue once, at start, so that they are dropped the same way and no
 * longer show among the dead letters: the count of them is logged once per kind. Called with the job handlers; a queue
 * that does not answer leaves them for the next start (logged as a warning), start-up goes on.
 */
export async function dropRetiredJobs(queue: JobQueue, log: Logger): Promise<void> {
  for (const name of RETIRED_JOB_NAMES) {
    queue.process(name, async (job) => {
      log.info({ job: name, jobId: job.id }, 'job of a retired kind dropped');
    });
  }
  for (const name of RETIRED_JOB_NAMES) {
    try {
      let requeued = 0;
      for (const dead of await queue.deadLetters(name)) if (await queue.retryDeadLetter(name, dead.id)) requeued += 1;
      if (requeued > 0) log.info({ job: name, deadLetters: requeued }, 'dead letters of a retired kind requeued to be dropped');
    } catch (err) {
      log.warn({ job: name, err }, 'dead letters of a retired kind not read; left for the next start');
    }
  }
}
