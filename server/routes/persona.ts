import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { resolveParticipantRef } from '../../pipelines/interaction/participant-ref.js';
import { personaNodeView } from './views.js';
import { errorResponse, errorResponses, ParticipantRefParams, PersonaResponse, ref } from '../protocol/http-schemas.js';


/** `GET /v1/participants/{id}/persona`: a participant's persona nodes (traits, preferences, affect). */
export async function personaRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: ParticipantRefParams; Querystring: { stable_only?: boolean } }>('/v1/participants/:id/persona', {
    schema: {
      operationId: 'getParticipantPersona', tags: ['participants'],
      summary: "A participant's persona (by id, external_id or name): traits, preferences and affect, with their evidence",
      params: ParticipantRefParams,
      querystring: Type.Object({ stable_only: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
      response: {
        200: ref(PersonaResponse), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: invalid query'),
        404: errorResponse('PARLEY_ERR_NOT_FOUND: no participant by that id, external_id or name'),
        409: errorResponse('PARLEY_ERR_CONFLICT: several participants hold that name'), ...errorResponses(),
      },
    },
  }, async (request) => {
    const { tenant } = request;
    const { id } = await resolveParticipantRef(app.stores.graph, tenant, request.params.id);
    const nodes = await app.stores.memory.listPersona(tenant, id, { stableOnly: request.query.stable_only ?? false });
    return {
      participant_id: id,
      persona: nodes.map(personaNodeView),
    };
  });
}
