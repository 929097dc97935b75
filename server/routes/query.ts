import LibSampleRate from '@alexanderolsen/libsamplerate-js';
import type { FastifyInstance } from 'fastify';
import { parseWav } from '../../pipelines/audio/wav.js';
import { identifyAskerFromAudio } from '../../pipelines/speaker/identify-asker.js';
import { SPEAKER_SAMPLE_RATE, type SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { thresholdsFor } from '../../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';
import { ParleyError } from '../../graph/core/errors.js';
import {
  errorResponse, errorResponses, QueryBody, QueryResponse, ref,
} from '../protocol/http-schemas.js';

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Decode a base64 WAV into 16 kHz mono samples; 400 with a clear message when it is not one. */
export async function decodeQueryAudio(b64: string): Promise<Float32Array> {
  if (!BASE64.test(b64)) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'audio must be base64 (standard alphabet)');
  const buf = Buffer.from(b64, 'base64');
  let wav;
  try {
    wav = parseWav(buf);
  } catch (err) {
    throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `audio is not a readable WAV: ${(err as Error).message}`);
  }
  if (wav.sampleRate < 4000 || wav.sampleRate > 192_000) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `unsupported sample rate ${wav.sampleRate} Hz`);
  if (wav.samples.length === 0) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'audio has no samples');
  if (wav.sampleRate === SPEAKER_SAMPLE_RATE) return wav.samples;
  const src = await LibSampleRate.create(1, wav.sampleRate, SPEAKER_SAMPLE_RATE, { converterType: LibSampleRate.ConverterType.SRC_SINC_FASTEST });
  try {
    return src.full(wav.samples);
  } finally {
    src.destroy();
  }
}

/** `POST /v1/query`: evidence for a question, the asker optionally identified by voice. */
export async function queryRoutes(app: FastifyInstance): Promise<void> {
  let embedder: SpeakerEmbedder | null = null;
  app.post<{ Body: QueryBody }>('/v1/query', {
    schema: {
      operationId: 'queryMemory', tags: ['query'],
      summary: 'Ask memory a question; the asker may be given by id or identified from a voice sample',
      body: ref(QueryBody),
      response: {
        200: ref(QueryResponse),
        400: errorResponse('PARLEY_ERR_BAD_REQUEST or PARLEY_ERR_BAD_AUDIO: invalid body or audio'),
        ...errorResponses({ body: true }),
      },
    },
  }, async (request) => {
    const started = performance.now();
    const body = request.body;
    let asker: { id: string; confidence: 'high' | 'low'; score: number } | null = null;
    let voiceMs = 0;
    if (body.audio !== undefined) {
      const audio = await decodeQueryAudio(body.audio);
      embedder ??= app.hasDecorator('models') ? app.models.speakerEmbedder : new StatsLdaSpeakerEmbedder();
      const prototypes = await app.stores.voiceprints.list(request.tenant, embedder.modelId);
      const thresholds = app.hasDecorator('models') ? app.models.speakerThresholds : thresholdsFor(embedder.modelId);
      const identity = await identifyAskerFromAudio(embedder, audio, prototypes, thresholds);
      if (identity.participantId && identity.confidence !== 'unresolved') {
        asker = { id: identity.participantId, confidence: identity.confidence, score: identity.score };
      }
      voiceMs = performance.now() - started;
    }
    const askerId = body.asker ?? asker?.id ?? null;
    if (body.asker && !asker) asker = { id: body.asker, confidence: 'high', score: 1 };
    const answer = await app.memoryQuery(request.tenant, {
      question: body.question, asker: askerId, k: body.k ?? 5,
      ...(body.session_id ? { sessionId: body.session_id } : {}),
      ...(body.speaker ? { speakerId: body.speaker } : {}),
      ...(body.addressee ? { addresseeId: body.addressee } : {}),
    });
    return {
      evidence: answer.evidence, asker, rounds: answer.rounds,
      timings: { ...answer.timings, ...(body.audio !== undefined ? { asker_ms: voiceMs } : {}), request_ms: performance.now() - started },
    };
  });
}
