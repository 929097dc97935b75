import type { TenantId } from '../../graph/types.js';

/** The queue name of the end-of-session job (speaker merge, long-horizon persona). */
export const SESSION_END_JOB = 'session.end';

/** Job data of `session.end`. */
export interface SessionEndJobData {
  tenant: TenantId;
  sessionId: string;
}
