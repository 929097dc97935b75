import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { collectionFor } from '../../pipelines/memory/collections.js';
import { ParleyError } from '../../graph/core/errors.js';
import {
  ErrorBody, IdParams, ParticipantPatchBody, ParticipantView,
} from '../protocol/http-schemas.js';
import { participantView } from './views.js';

/** Participant profiles: list, read, patch, erase. */
export async function participantRoutes(app: FastifyInstance): Promise<void> {
  app.get('/v1/participants', {
    schema: { summary: 'Every participant of the tenant', response: { 200: Type.Object({ participants: Type.Array(ParticipantView) }) } },
  }, async (request) => ({
    participants: (await app.stores.graph.listParticipants(request.tenant)).map(participantView),
  }));

  app.get<{ Params: IdParams }>('/v1/participants/:id', {
    schema: { summary: 'One participant profile', params: IdParams, response: { 200: ParticipantView, 404: ErrorBody } },
  }, async (request) => {
    const p = await app.stores.graph.getParticipant(request.tenant, request.params.id);
    if (!p) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${request.params.id}`);
    return participantView(p);
  });

  app.patch<{ Params: IdParams; Body: ParticipantPatchBody }>('/v1/participants/:id', {
    schema: {
      summary: 'Set name, aliases or attributes',
      params: IdParams, body: ParticipantPatchBody,
      response: { 200: ParticipantView, 400: ErrorBody, 404: ErrorBody },
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
      summary: 'Erase the participant everywhere: profile, utterances, edges, memories, persona, voiceprints, index entries',
      params: IdParams,
      response: {
        200: Type.Object({
          id: Type.String(), erased_utterances: Type.Integer(), erased_memories: Type.Integer(), erased_voiceprints: Type.Integer(),
        }),
        404: ErrorBody,
      },
    },
  }, async (request) => {
    const { tenant } = request;
    const { stores } = app;
    const id = request.params.id;
    const utteranceIds = await stores.graph.deleteParticipant(tenant, id);
    if (!utteranceIds) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no participant ${id}`);
    const memory = await stores.memory.deleteParticipant(tenant, id);
    const voiceprints = await stores.voiceprints.deleteByParticipant(tenant, id);
    await stores.lexical.delete(tenant, [...utteranceIds, ...memory.factIds]);
    await stores.vectors.delete(tenant, collectionFor('interaction'), utteranceIds);
    for (const layer of ['fact', 'profile'] as const) await stores.vectors.delete(tenant, collectionFor(layer), memory.factIds);
    return { id, erased_utterances: utteranceIds.length, erased_memories: memory.factIds.length, erased_voiceprints: voiceprints };
  });
}
