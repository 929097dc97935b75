import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';
import { errorResponse, errorResponses, IdParams, PersonaResponse, ref } from '../protocol/http-schemas.js';


/** `GET /v1/participants/{id}/persona`: a participant's persona nodes (traits, preferences, affect). */
export async function personaRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: IdParams; Querystring: { stable_only?: boolean } }>('/v1/participants/:id/persona', {
    schema: {
      operationId: 'getParticipantPersona', tags: ['participants'],
      summary: "A participant's persona: traits, preferences and affect, with their evidence",
      params: IdParams,
      querystring: Type.Object({ stable_only: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
      response: {
        200: ref(PersonaResponse), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: invalid query'),
        404: errorResponse('PARLEY_ERR_NOT_FOUND: no such participant'), ...errorResponses(),
      },
    },
  }, async (request) => {
    const { tenant } = request;
    const id = request.params.id;
    if (!(await app.stores.graph.getParticipant(tenant, id))) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${id}`);
    const nodes = await app.stores.memory.listPersona(tenant, id, { stableOnly: request.query.stable_only ?? false });
    return {
      participant_id: id,
      persona: nodes.map((n) => ({
        id: n.id, kind: n.kind, target: n.target, valence: n.valence, label: n.label, strength: n.strength,
        evidence_count: n.evidenceCount, evidence_ids: n.evidenceIds, session_ids: n.sessionIds,
        first_seen: n.firstSeen, last_seen: n.lastSeen, stable: n.stable,
      })),
    };
  });
}
