import type { FastifyInstance } from 'fastify';
import { errorResponse, errorResponses, InteractionsQuery, InteractionsResponse, ref } from '../protocol/http-schemas.js';
import { isoTime } from '../protocol/iso-time.js';
import { utteranceViews } from './views.js';

/** `GET /v1/interactions`: who said what to whom, newest first. */
export async function interactionRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: InteractionsQuery }>('/v1/interactions', {
    schema: {
      operationId: 'listInteractions', tags: ['interactions'],
      summary: 'Who said what to whom (filters combine with AND)',
      querystring: InteractionsQuery,
      response: { 200: ref(InteractionsResponse), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: a query parameter is invalid'), ...errorResponses() },
    },
  }, async (request) => {
    const q = request.query;
    const utterances = await app.stores.graph.queryInteractions(request.tenant, {
      ...(q.speaker ? { speakerId: q.speaker } : {}),
      ...(q.addressee ? { addresseeId: q.addressee } : {}),
      ...(q.session_id ? { sessionId: q.session_id } : {}),
      ...(q.since ? { since: isoTime(q.since, 'since') } : {}),
      ...(q.until ? { until: isoTime(q.until, 'until') } : {}),
      limit: q.limit ?? 100,
    });
    return { interactions: await utteranceViews(app.stores.graph, request.tenant, utterances) };
  });
}
