import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';
import { ErrorBody, IdParams } from '../protocol/http-schemas.js';

const PersonaNodeView = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('trait'), Type.Literal('preference'), Type.Literal('affect')]),
  target: Type.String({ description: 'what it is about, lower-case; `self` for traits without a target' }),
  valence: Type.Number({ description: 'mean valence of the evidence in [-1, 1]' }),
  label: Type.Union([Type.String(), Type.Null()], { description: 'dominant emotion of an affect node' }),
  strength: Type.Number(),
  evidence_count: Type.Integer(),
  evidence_ids: Type.Array(Type.String(), { description: 'utterance ids, oldest first' }),
  session_ids: Type.Array(Type.String()),
  first_seen: Type.String(),
  last_seen: Type.String(),
  stable: Type.Boolean({ description: 'long-horizon consolidation judged the evidence repeated enough' }),
}, { $id: 'PersonaNode' });

/** `GET /v1/participants/{id}/persona`: a participant's persona nodes (traits, preferences, affect). */
export async function personaRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: IdParams; Querystring: { stable_only?: boolean } }>('/v1/participants/:id/persona', {
    schema: {
      summary: "A participant's persona: traits, preferences and affect, with their evidence",
      params: IdParams,
      querystring: Type.Object({ stable_only: Type.Optional(Type.Boolean({ default: false })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ participant_id: Type.String(), persona: Type.Array(PersonaNodeView) }), 400: ErrorBody, 404: ErrorBody },
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
