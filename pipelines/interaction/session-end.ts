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
