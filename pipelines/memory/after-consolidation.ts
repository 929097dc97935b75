import type { JobQueue } from '../../graph/job-queue.js';
import { CONSOLIDATION_JOB, type ConsolidationJob } from './consolidate.js';

/**
 * The queue name of the steps run after a consolidation (the left-brain entity index, …) when they
 * failed inside the consolidation job: a job of its own, with the consolidation job's data, that the
 * queue retries (store outages waited out without holding a consolidation slot).
 */
export const AFTER_CONSOLIDATION_JOB = 'memory.after-consolidation';

/** Job data of `memory.after-consolidation`: the utterance whose consolidation finished. */
export type AfterConsolidationJob = ConsolidationJob;

/**
 * The id of the after-consolidation job of one consolidation job: a consolidation job delivered twice
 * (a worker killed after enqueueing it) enqueues one, and a re-index run of a consolidated utterance
 * (a new consolidation job id) gets one of its own.
 */
export function afterConsolidationJobId(consolidationJobId: string): string {
  return `after-${consolidationJobId}`;
}

/**
 * Resolves when no consolidation job and no after-consolidation job is waiting or running (tests,
 * benches): consolidation jobs first, since each enqueues its after-consolidation job before it finishes.
 */
export async function drainConsolidation(queue: JobQueue, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await queue.drain(CONSOLIDATION_JOB, timeoutMs);
  await queue.drain(AFTER_CONSOLIDATION_JOB, Math.max(1, deadline - Date.now()));
}
