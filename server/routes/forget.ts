import type { FastifyInstance, FastifyReply } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';
import type { TenantId } from '../../graph/types.js';
import { forgetUtterances, type ForgetReport, type ForgetTarget } from '../../pipelines/interaction/forget-utterances.js';
import { errorResponse, errorResponses, IdParams, SessionIdParams } from '../protocol/http-schemas.js';
import { erasePerson, erasureDeps, erasureOwner, forgetCachedTraces } from './participants.js';

const FORGOTTEN = { description: 'Forgotten (nothing is returned)', type: 'null' } as const;
const CLAIMED = 'another server is finishing the erasure of the same id (send it again once its claim ends)';

/** A session whose client was seen this recently, on any server, counts as live (`SessionRecord.activeAt`). */
const LIVE_WITHIN_MS = 2 * 60_000;

/**
 * Additions to v1: `DELETE /v1/utterances/{id}` forgets one utterance ("forget what I just said"), `DELETE
 * /v1/sessions/{session_id}` a whole session (`forgetUtterances`): the words, their audio, edges and vectors, and the
 * memories that came only from them; a memory with another source stays without the erased one.
 */
export async function forgetRoutes(app: FastifyInstance): Promise<void> {
  app.delete<{ Params: IdParams }>('/v1/utterances/:id', {
    schema: {
      operationId: 'forgetUtterance', tags: ['utterances'],
      summary: 'Forget one utterance: its text, audio, edges and vectors, and the memories that came only from it (a memory with another source stays, ' +
        'without this one); one cut short (a crash) is finished by the same request',
      params: IdParams,
      response: {
        204: FORGOTTEN, 400: errorResponse('PARLEY_ERR_BAD_REQUEST: the utterance id is longer than 128 characters'),
        404: errorResponse('PARLEY_ERR_NOT_FOUND: no such utterance (or it was forgotten already)'), 409: errorResponse(`PARLEY_ERR_CONFLICT: ${CLAIMED}`), ...errorResponses(),
      },
    },
  }, async (request, reply) => forgotten(app, reply, request.tenant, { utteranceId: request.params.id }));

  app.delete<{ Params: SessionIdParams }>('/v1/sessions/:session_id', {
    schema: {
      operationId: 'forgetSession', tags: ['sessions'],
      summary: 'Forget a whole session: every utterance of it as DELETE /v1/utterances/{id} does, and its stored stream state; ' +
        'refused while the session is live (end it first); one cut short (a crash) is finished by the same request',
      params: SessionIdParams,
      response: {
        204: FORGOTTEN, 400: errorResponse('PARLEY_ERR_BAD_REQUEST: the session id is not 1-128 of A-Za-z0-9_.:-'),
        404: errorResponse('PARLEY_ERR_NOT_FOUND: no such session (or it was forgotten already)'),
        409: errorResponse(`PARLEY_ERR_CONFLICT: the session is live (a client is connected or may resume it): end it first; or ${CLAIMED}`), ...errorResponses(),
      },
    },
  }, async (request, reply) => forgotten(app, reply, request.tenant, { sessionId: request.params.session_id }));
}

async function forgotten(app: FastifyInstance, reply: FastifyReply, tenant: TenantId, target: ForgetTarget): Promise<FastifyReply> {
  await forgetTarget(app, tenant, target);
  return reply.status(204).send();
}

/**
 * Forget one utterance or a whole session (`DELETE /v1/utterances/{id}`, `DELETE /v1/sessions/{id}`, MCP
 * `forget_utterance` / `forget_session`): a live session is refused (`PARLEY_ERR_CONFLICT`), an unknown one is
 * `PARLEY_ERR_NOT_FOUND`.
 */
export async function forgetTarget(app: FastifyInstance, tenant: TenantId, target: ForgetTarget): Promise<ForgetReport> {
  if ('sessionId' in target) await refuseLive(app, tenant, target.sessionId);
  const report = await forgetUtterances(erasureDeps(app), tenant, target, erasureOwner(app));
  if (!report) throw new ParleyError('PARLEY_ERR_NOT_FOUND', 'sessionId' in target ? `no session ${target.sessionId}` : `no utterance ${target.utteranceId}`);
  forgetCachedTraces(app, tenant);
  if ('sessionId' in target) await eraseStrangersLeft(app, tenant, report.speakerIds);
  return report;
}

/**
 * Erase the speakers a forgotten session leaves with nothing said: a participant never named, with no external id
 * and no utterance left in any session, was known only from it (their voiceprint, persona and attributes go too).
 */
async function eraseStrangersLeft(app: FastifyInstance, tenant: TenantId, speakerIds: readonly string[]): Promise<void> {
  for (const id of speakerIds) {
    const person = await app.stores.graph.getParticipant(tenant, id);
    if (!person || person.name !== null || person.aliases.length > 0 || person.externalId !== null) continue;
    if ((await app.stores.graph.queryInteractions(tenant, { speakerId: id, limit: 1 })).length > 0) continue;
    await erasePerson(app, tenant, id);
  }
}

/**
 * Refuse to forget a live session, one not ended that this server holds (connected, or waiting for its client to resume)
 * or whose client another server saw within `LIVE_WITHIN_MS`: its turns would go on being stored.
 */
async function refuseLive(app: FastifyInstance, tenant: TenantId, id: string): Promise<void> {
  const here = app.hasDecorator('sessions') ? app.sessions.get(tenant, id) : undefined;
  const stored = await app.stores.graph.getSession(tenant, id);
  // An ended session is never resumed (here or elsewhere), whatever its socket still does.
  if (stored?.endedAt) return;
  const seen = stored?.activeAt ? Date.now() - Date.parse(stored.activeAt) : Infinity;
  if (here || seen < LIVE_WITHIN_MS) {
    throw new ParleyError('PARLEY_ERR_CONFLICT',
      `session ${id} is live (a client is connected or may resume it): end it first (session.end, or POST /v1/sessions/${id}/end), then forget it`);
  }
}
