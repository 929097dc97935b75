import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ErrorBody, InteractionsQuery, UtteranceView } from '../protocol/http-schemas.js';
import { isoTime } from '../protocol/iso-time.js';
import { utteranceViews } from './views.js';
import { resolveParticipantRef } from '../../pipelines/interaction/participant-ref.js';

/** `GET /v1/interactions`: who said what to whom, newest first. */
export async function interactionRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: InteractionsQuery }>('/v1/interactions', {
    schema: {
      summary: 'Who said what to whom (filters combine with AND)',
      querystring: InteractionsQuery,
      response: { 200: Type.Object({ interactions: Type.Array(UtteranceView) }), 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
    },
  }, async (request) => {
    const q = request.query;
    const { graph } = app.stores;
    // Participant filters take an id, an external id or a name; an unknown one is a 404, not [].
    const speaker = q.speaker ? await resolveParticipantRef(graph, request.tenant, q.speaker, 'speaker') : null;
    const addressee = q.addressee ? await resolveParticipantRef(graph, request.tenant, q.addressee, 'addressee') : null;
    const utterances = await graph.queryInteractions(request.tenant, {
      ...(speaker ? { speakerId: speaker.id } : {}),
      ...(addressee ? { addresseeId: addressee.id } : {}),
      ...(q.session_id ? { sessionId: q.session_id } : {}),
      ...(q.since ? { since: isoTime(q.since, 'since') } : {}),
      ...(q.until ? { until: isoTime(q.until, 'until') } : {}),
      limit: q.limit ?? 100,
    });
    return { interactions: await utteranceViews(app.stores.graph, request.tenant, utterances) };
  });
}
