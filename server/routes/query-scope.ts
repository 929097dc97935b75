import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';
import { isContextScope, type ContextScope, type MemoryScope } from '../../pipelines/retrieval/context-scope.js';
import type { QueryBody } from '../protocol/http-schemas.js';
import { legacySessionAgents, sessionAgents } from '../../pipelines/interaction/session-metadata.js';

/** Most stored turns of a session not live here read for its people (a live session knows them). */
const SESSION_TURNS_READ = 5_000;

/**
 * The people a `POST /v1/query` answer may hold memories of (README, `context_scope`); null: the whole tenant. The
 * scope is the body's `context_scope`, else, with a `session_id`, the session's own (as its pushed context's: its
 * `context_scope`, else its route's default: `PARLEY_CONTEXT_SCOPE`, else `participants` for a Twilio call and `all`
 * otherwise), else `all`. Under `participants` a session live on this server goes by the people its push goes by
 * (`LiveSession.memoryScope`); one that is not, by the speakers and addressees of its stored turns and the agents its
 * metadata keeps (`sessionAgents`), as when it was live, and those an earlier version kept (`legacySessionAgents`) as agents only (an unknown session has none: nothing is answered). `participants` without a `session_id` is a `PARLEY_ERR_BAD_REQUEST`.
 */
export async function queryScope(app: FastifyInstance, tenant: string, body: QueryBody): Promise<MemoryScope | null> {
  const sessionId = body.session_id;
  if (!sessionId) {
    if (body.context_scope === 'participants') {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'context_scope "participants" needs a session_id: the session whose people the answer may hold');
    }
    return null;
  }
  const live = app.hasDecorator('sessions') ? app.sessions.get(tenant, sessionId) : undefined;
  if (live) return live.memoryScope(body.context_scope);
  const record = await app.stores.graph.getSession(tenant, sessionId);
  const own = record && isContextScope(record.metadata.context_scope) ? record.metadata.context_scope : null;
  const routeDefault: ContextScope = app.config.contextScope ?? (record?.metadata.channel === 'twilio' ? 'participants' : 'all');
  if ((body.context_scope ?? own ?? routeDefault) === 'all') return null;
  if (!record) return { people: new Set(), agents: new Set(), sessionId };
  const [turns, agents, legacy] = await Promise.all([
    app.stores.graph.recentUtterances(tenant, sessionId, SESSION_TURNS_READ), sessionAgents(app.stores.graph, tenant, record.metadata),
    legacySessionAgents(app.stores.graph, tenant, record.metadata),
  ]);
  // A list kept under the earlier key only narrows: its ids count as agents, never as people of the session.
  return { people: new Set([...turns.flatMap((u) => [u.speakerId, ...u.addresseeIds]), ...agents]), agents: new Set([...agents, ...legacy]), sessionId };
}
