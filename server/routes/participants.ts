import type { FastifyInstance } from 'fastify';
import { eraseParticipant } from '../../pipelines/interaction/erase-participant.js';
import { ParleyError } from '../../graph/core/errors.js';
import {
  errorResponse, errorResponses, IdParams, ParticipantErasedResponse, ParticipantPatchBody, ParticipantsResponse, ParticipantView, ref,
} from '../protocol/http-schemas.js';

import { participantView } from './views.js';

const NOT_FOUND = errorResponse('PARLEY_ERR_NOT_FOUND: no such participant');

/** Participant profiles: list, read, patch, erase. */
export async function participantRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/participants', {
    schema: {
      operationId: 'listParticipants', tags: ['participants'], summary: 'Every participant of the tenant',
      response: { 200: ref(ParticipantsResponse), ...errorResponses() },
    },
  }, async (request) => ({ participants: await listParticipantViews(app, request.tenant) }));

  app.get<{ Params: IdParams }>('/v1/participants/:id', {
    schema: {
      operationId: 'getParticipant', tags: ['participants'], summary: 'One participant profile', params: IdParams,
      response: { 200: ref(ParticipantView), 404: NOT_FOUND, ...errorResponses() },
    },
  }, async (request) => {
    const p = await app.stores.graph.getParticipant(request.tenant, request.params.id);
    if (!p) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${request.params.id}`);
    return participantView(p);
  });

  app.patch<{ Params: IdParams; Body: ParticipantPatchBody }>('/v1/participants/:id', {
    schema: {
      operationId: 'updateParticipant', tags: ['participants'], summary: 'Set name, aliases or attributes',
      params: IdParams, body: ref(ParticipantPatchBody),
      response: { 200: ref(ParticipantView), 400: errorResponse('PARLEY_ERR_BAD_REQUEST: invalid body'), 404: NOT_FOUND, ...errorResponses({ body: true }) },
    },
  }, async (request) => {
    const { name, aliases, attributes } = request.body;
    const p = await app.stores.graph.updateParticipant(request.tenant, request.params.id, {
      ...(name !== undefined ? { name } : {}),
      ...(aliases !== undefined ? { aliases: [...new Set(aliases)] } : {}),
      ...(attributes !== undefined ? { attributes } : {}),
    });
    if (!p) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${request.params.id}`);
    return participantView(p);
  });

  app.delete<{ Params: IdParams }>('/v1/participants/:id', {
    schema: {
      operationId: 'eraseParticipant', tags: ['participants'],
      summary: 'Erase the participant everywhere: profile, utterances, edges, memories, persona, voiceprints, index entries',
      params: IdParams,
      response: { 200: ref(ParticipantErasedResponse), 404: NOT_FOUND, ...errorResponses() },
    },
  }, async (request) => erasePerson(app, request.tenant, request.params.id));
}

/** Every participant of the tenant as the API shows them (`GET /v1/participants`, MCP `list_participants`). */
export async function listParticipantViews(app: FastifyInstance, tenant: string): Promise<ParticipantView[]> {
  return (await app.stores.graph.listParticipants(tenant)).map(participantView);
}

/** Erase a participant everywhere (`DELETE /v1/participants/{id}`, MCP `erase_participant`); 404 when unknown. */
export async function erasePerson(
  app: FastifyInstance, tenant: string, id: string,
): Promise<{ id: string; erased_utterances: number; erased_memories: number; erased_voiceprints: number }> {
  const erased = await eraseParticipant({ stores: app.stores, audioSpans: app.models.audioSpans, embedder: app.models.textEmbedder }, tenant, id);
  if (!erased) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${id}`);
  return { id, erased_utterances: erased.utteranceIds.length, erased_memories: erased.factIds.length, erased_voiceprints: erased.voiceprints };
}
