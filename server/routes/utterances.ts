import { readFile } from 'node:fs/promises';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ParleyError } from '../../graph/core/errors.js';
import { errorResponse, errorResponses, IdParams, ref, UtteranceView } from '../protocol/http-schemas.js';
import { utteranceViews } from './views.js';

const BAD_ID = errorResponse('PARLEY_ERR_BAD_REQUEST: the utterance id is longer than 128 characters');

/**
 * `GET /v1/utterances/{id}`: one utterance (the source a fact was extracted from), and
 * `GET /v1/utterances/{id}/audio`: its kept audio span as a 16-bit WAV, while `PARLEY_AUDIO_RETENTION_DAYS` keeps it.
 */
export async function utteranceRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Params: IdParams }>('/v1/utterances/:id', {
    schema: {
      operationId: 'getUtterance', tags: ['utterances'], summary: 'One utterance with speaker and addressees', params: IdParams,
      response: { 200: ref(UtteranceView), 400: BAD_ID, 404: errorResponse('PARLEY_ERR_NOT_FOUND: no such utterance'), ...errorResponses() },
    },
  }, async (request) => {
    const u = await app.stores.graph.getUtterance(request.tenant, request.params.id);
    if (!u) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no utterance ${request.params.id}`);
    return (await utteranceViews(app.stores.graph, request.tenant, [u]))[0];
  });

  app.get<{ Params: IdParams }>('/v1/utterances/:id/audio', {
    schema: {
      operationId: 'getUtteranceAudio', tags: ['utterances'],
      summary: "The utterance's kept audio span (audio/wav, 16 kHz 16-bit mono); 404 when none is kept",
      params: IdParams,
      response: { 200: { description: 'WAV file', content: { 'audio/wav': { schema: Type.String({ format: 'binary' }) } } }, 400: BAD_ID, 404: errorResponse('PARLEY_ERR_NOT_FOUND: no such utterance, or no audio kept for it'), ...errorResponses() },
    },
  }, async (request, reply) => {
    const u = await app.stores.graph.getUtterance(request.tenant, request.params.id);
    if (!u) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no utterance ${request.params.id}`);
    if (!u.audioRef) throw new ParleyError('PARLEY_ERR_NOT_FOUND', `no audio kept for utterance ${u.id}`);
    let wav: Buffer;
    try {
      wav = await readFile(app.models.audioSpans.resolve(u.audioRef));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new ParleyError('PARLEY_ERR_NOT_FOUND', `the audio of utterance ${u.id} is no longer kept (retention)`);
      }
      throw err;
    }
    return reply.header('content-type', 'audio/wav').header('cache-control', 'private, no-store').send(wav);
  });
}
