import type { FastifyInstance } from 'fastify';
import { eraseParticipant } from '../../pipelines/interaction/erase-participant.js';
import { ParleyError } from '../../graph/core/errors.js';
import { resolveParticipantRef } from '../../pipelines/interaction/participant-ref.js';
import {
  errorResponse, errorResponses, ParticipantErasedResponse, ParticipantPatchBody, ParticipantRefParams, ParticipantsResponse, ParticipantView, ref,
} from '../protocol/http-schemas.js';

import { participantView } from './views.js';

const NOT_FOUND = errorResponse('PARLEY_ERR_NOT_FOUND: no participant by that id, external_id or name');
const AMBIGUOUS = errorResponse('PARLEY_ERR_CONFLICT: several participants hold that name');

/** Participant profiles: list, read, patch, erase. */
export async function participantRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/participants', {
    schema: {
      operationId: 'listParticipants', tags: ['participants'], summary: 'Every participant of the tenant',
      response: { 200: ref(ParticipantsResponse), ...errorResponses() },
    },
  }, async (request) => ({ participants: await listParticipantViews(app, request.tenant) }));

  app.get<{ Params: ParticipantRefParams }>('/v1/participants/:id', {
    schema: {
      operationId: 'getParticipant', tags: ['participants'], summary: 'One participant profile, by id, external_id or name',
      params: ParticipantRefParams,
      response: { 200: ref(ParticipantView), 404: NOT_FOUND, 409: AMBIGUOUS, ...errorResponses() },
    },
  }, async (request) => participantView(await resolveParticipantRef(app.stores.graph, request.tenant, request.params.id)));

  app.patch<{ Params: ParticipantRefParams; Body: ParticipantPatchBody }>('/v1/participants/:id', {
    schema: {
      operationId: 'updateParticipant', tags: ['participants'], summary: 'Set name, external_id, aliases or attributes',
      params: ParticipantRefParams, body: ref(ParticipantPatchBody),
      response: { 200: ref(ParticipantView), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: invalid body'), 404: NOT_FOUND, 409: errorResponse('PARLEY_ERR_CONFLICT: the name is ambiguous, or another participant holds that external_id'), ...errorResponses({ body: true }) },
    },
  }, async (request) => {
    const { name, external_id: externalId, aliases, attributes } = request.body;
    const target = await resolveParticipantRef(app.stores.graph, request.tenant, request.params.id);
    const p = await app.stores.graph.updateParticipant(request.tenant, target.id, {
      ...(name !== undefined ? { name } : {}),
      ...(externalId !== undefined ? { externalId } : {}),
      ...(aliases !== undefined ? { aliases: [...new Set(aliases)] } : {}),
      ...(attributes !== undefined ? { attributes } : {}),
    });
    if (!p) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${target.id}`);
    return participantView(p);
  });

  app.delete<{ Params: ParticipantRefParams }>('/v1/participants/:id', {
    schema: {
      operationId: 'eraseParticipant', tags: ['participants'],
      summary: 'Erase the participant (by id, external_id or name) everywhere: profile, utterances, edges, memories, persona, voiceprints, index entries',
      params: ParticipantRefParams,
      response: { 200: ref(ParticipantErasedResponse), 404: NOT_FOUND, 409: AMBIGUOUS, ...errorResponses() },
    },
  }, async (request) => erasePerson(app, request.tenant, request.params.id));
}

/** Every participant of the tenant as the API shows them (`GET /v1/participants`, MCP `list_participants`). */
export async function listParticipantViews(app: FastifyInstance, tenant: string): Promise<ParticipantView[]> {
  return (await app.stores.graph.listParticipants(tenant)).map(participantView);
}

/** Erase a participant, given by id, external_id or name, everywhere (`DELETE /v1/participants/{id}`, MCP `erase_participant`); 404 when unknown. */
export async function erasePerson(
  app: FastifyInstance, tenant: string, id: string,
): Promise<{ id: string; erased_utterances: number; erased_memories: number; erased_voiceprints: number }> {
  ({ id } = await resolveParticipantRef(app.stores.graph, tenant, id));
  const erased = await eraseParticipant({ stores: app.stores, audioSpans: app.models.audioSpans, embedder: app.models.textEmbedder }, tenant, id);
  if (!erased) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${id}`);
  return { id, erased_utterances: erased.utteranceIds.length, erased_memories: erased.factIds.length, erased_voiceprints: erased.voiceprints };
}
