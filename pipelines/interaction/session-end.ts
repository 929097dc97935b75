import type { Stores } from '../../graph/stores.js';
import type { TenantId } from '../../graph/types.js';

/** The queue name of the end-of-session job (speaker merge, long-horizon persona). */
export const SESSION_END_JOB = 'session.end';

/** Job data of `session.end`. */
export interface SessionEndJobData {
  tenant: TenantId;
  sessionId: string;
}

/**
 * The id of a session's end-of-session job, from when it ended: ending an ended session again (HTTP)
 * answers the same job instead of queueing another.
 */
export function sessionEndJobId(tenant: TenantId, sessionId: string, endedAt: string): string {
  return `session-end-${tenant}-${sessionId}-${Date.parse(endedAt)}`;
}

/**
 * End a stored session (`POST /v1/sessions/{id}/end`, `session.end`) and queue its end-of-session job,
 * once: of several ends, at once or one after another, the first sets the time and queues the job;
 * the others answer that same end and queue nothing. Null when there is no such session.
 */
export async function endStoredSession(
  stores: Pick<Stores, 'graph' | 'queue'>, tenant: TenantId, sessionId: string,
): Promise<{ endedAt: string; jobId: string } | null> {
  const end = await stores.graph.endSession(tenant, sessionId, new Date().toISOString());
  if (!end) return null;
  const jobId = sessionEndJobId(tenant, sessionId, end.endedAt);
  if (end.ended) {
    const data: SessionEndJobData = { tenant, sessionId };
    await stores.queue.enqueue(SESSION_END_JOB, data, { jobId });
  }
  return { endedAt: end.endedAt, jobId };
}
