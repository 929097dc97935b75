import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';
import { errorResponse, errorResponses, InteractionsQuery, InteractionsResponse, ref } from '../protocol/http-schemas.js';
import { isoTime } from '../protocol/iso-time.js';
import { decodeOffsetCursor, nextOffsetCursor } from '../protocol/offset-cursor.js';
import { utteranceViews } from './views.js';
import { resolveParticipantRef } from '../../pipelines/interaction/participant-ref.js';

/** What an interactions cursor pages (a memories cursor is refused here). */
const LISTING = 'interactions';

/** `GET /v1/interactions`: who said what to whom, newest first, a page at a time (`cursor`, `next_cursor`). */
export async function interactionRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: InteractionsQuery }>('/v1/interactions', {
    schema: {
      operationId: 'listInteractions', tags: ['interactions'],
      summary: 'Who said what to whom (filters combine with AND)',
      querystring: InteractionsQuery,
      response: { 200: ref(InteractionsResponse), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: a query parameter is invalid'), 404: errorResponse('PARLEY_ERR_NOT_FOUND: no participant by that id, external_id or name, or no such session'), 409: errorResponse('PARLEY_ERR_CONFLICT: several participants hold that name'), ...errorResponses() },
    },
  }, async (request) => {
    const q = request.query;
    const { graph } = app.stores;
    // Participant filters take an id, an external id or a name; an unknown one is a 404, not [].
    const speaker = q.speaker ? await resolveParticipantRef(graph, request.tenant, q.speaker, 'speaker') : null;
    const addressee = q.addressee ? await resolveParticipantRef(graph, request.tenant, q.addressee, 'addressee') : null;
    // So is an unknown session, as on its transcript.
    if (q.session_id && !(await graph.getSession(request.tenant, q.session_id))) {
      throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no session ${q.session_id}`);
    }
    const since = q.since ? isoTime(q.since, 'since') : null;
    const until = q.until ? isoTime(q.until, 'until') : null;
    if (since && until && Date.parse(since) > Date.parse(until)) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `since (${q.since}) is later than until (${q.until}): no time is in both`);
    }
    const offset = decodeOffsetCursor(LISTING, q.cursor);
    const filter = {
      ...(speaker ? { speakerId: speaker.id } : {}),
      ...(addressee ? { addresseeId: addressee.id } : {}),
      ...(q.session_id ? { sessionId: q.session_id } : {}),
      ...(since ? { since } : {}),
      ...(until ? { until } : {}),
    };
    const limit = q.limit ?? 100;
    const utterances = await graph.queryInteractions(request.tenant, { ...filter, limit, offset });
    // A full page: one more match past it says whether another page follows.
    const more = utterances.length === limit
      && (await graph.queryInteractions(request.tenant, { ...filter, limit: 1, offset: offset + limit })).length > 0;
    return {
      interactions: await utteranceViews(app.stores.graph, request.tenant, utterances),
      next_cursor: nextOffsetCursor(LISTING, offset, utterances.length, more),
    };
  });
}
