import LibSampleRate from '@alexanderolsen/libsamplerate-js';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseWav } from '../../pipelines/audio/wav.js';
import { identifyAskerFromAudio } from '../../pipelines/speaker/identify-asker.js';
import { SPEAKER_SAMPLE_RATE, type SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { thresholdsFor } from '../../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';
import { ParleyError } from '../../graph/core/errors.js';
import { ErrorBody, ParticipantRef } from '../protocol/http-schemas.js';
import { resolveParticipantRef } from '../../pipelines/interaction/participant-ref.js';

const Id = Type.String({ minLength: 1, maxLength: 200 });

export const QueryBody = Type.Object({
  question: Type.String({ minLength: 1, maxLength: 4000 }),
  asker: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the asker: participant id, external_id or name' })),
  audio: Type.Optional(Type.String({ minLength: 1, maxLength: 12_000_000, description: 'base64 WAV (16-bit PCM or 32-bit float, any rate) of the asker\'s voice' })),
  session_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'the session the question is asked in (context, not a filter)' })),
  k: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 5 })),
  speaker: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'only memories spoken by this participant (id, external_id or name)' })),
  addressee: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'only memories addressed to this participant (id, external_id or name)' })),
}, { additionalProperties: false });
export type QueryBody = Static<typeof QueryBody>;

export const MemoryItemView = Type.Object({
  id: Type.String(),
  layer: Type.Union([Type.Literal('interaction'), Type.Literal('fact'), Type.Literal('profile'), Type.Literal('persona'), Type.Literal('relation')]),
  text: Type.String(),
  speaker: Type.Union([ParticipantRef, Type.Null()]),
  addressees: Type.Array(ParticipantRef),
  refer_ids: Type.Array(Type.String()),
  session_id: Type.Union([Type.String(), Type.Null()]),
  time: Type.Union([Type.String(), Type.Null()]),
  valid_from: Type.Union([Type.String(), Type.Null()], { description: 'ISO-8601 from when the memory holds' }),
  valid_to: Type.Union([Type.String(), Type.Null()], { description: 'ISO-8601 when a newer memory replaced or retracted it, or (a fact) the end it carries by its own words ("for a month"; may lie ahead); null while it holds with no end' }),
  superseded: Type.Boolean({ description: 'replaced or retracted; returned only when the question asks about the past' }),
  score: Type.Number(),
}, { $id: 'MemoryItem' });

const QueryResponse = Type.Object({
  evidence: Type.Array(MemoryItemView),
  asker: Type.Union([Type.Object({ id: Type.String(), confidence: Type.Union([Type.Literal('high'), Type.Literal('low')]), score: Type.Number() }), Type.Null()]),
  rounds: Type.Integer(),
  timings: Type.Record(Type.String(), Type.Number()),
});

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

export type QueryResult = Static<typeof QueryResponse>;

/**
 * Answer a question from memory, the asker given by id or identified from a voice sample: what
 * `POST /v1/query` and the MCP `query_memory` tool both run.
 */
export async function askMemory(app: FastifyInstance, tenant: string, body: QueryBody): Promise<QueryResult> {
  const started = performance.now();
  const resolve = async (ref: string | null | undefined, what: string): Promise<string | null> =>
    (ref ? (await resolveParticipantRef(app.stores.graph, tenant, ref, what)).id : null);
  const [givenAsker, speakerId, addresseeId] = await Promise.all([
    resolve(body.asker, 'asker'), resolve(body.speaker, 'speaker'), resolve(body.addressee, 'addressee'),
  ]);
  let asker: { id: string; confidence: 'high' | 'low'; score: number } | null = null;
  let voiceMs = 0;
  if (body.audio !== undefined) {
    const audio = await decodeQueryAudio(body.audio);
    const embedder = speakerEmbedderOf(app);
    const prototypes = await app.stores.voiceprints.list(tenant, embedder.modelId);
    const thresholds = app.hasDecorator('models') ? app.models.speakerThresholds : thresholdsFor(embedder.modelId);
    const identity = await identifyAskerFromAudio(embedder, audio, prototypes, thresholds);
    if (identity.participantId && identity.confidence !== 'unresolved') {
      asker = { id: identity.participantId, confidence: identity.confidence, score: identity.score };
    }
    voiceMs = performance.now() - started;
  }
  const askerId = givenAsker ?? asker?.id ?? null;
  if (givenAsker && !asker) asker = { id: givenAsker, confidence: 'high', score: 1 };
  const answer = await app.memoryQuery(tenant, {
    question: body.question, asker: askerId, k: body.k ?? 5,
    ...(body.session_id ? { sessionId: body.session_id } : {}),
    ...(speakerId ? { speakerId } : {}),
    ...(addresseeId ? { addresseeId } : {}),
  });
  return {
    evidence: answer.evidence, asker, rounds: answer.rounds,
    timings: { ...answer.timings, ...(body.audio !== undefined ? { asker_ms: voiceMs } : {}), request_ms: performance.now() - started },
  };
}

const fallbackEmbedders = new WeakMap<FastifyInstance, SpeakerEmbedder>();

/** The app's speaker embedder; an app built without the models plugin gets one of its own. */
function speakerEmbedderOf(app: FastifyInstance): SpeakerEmbedder {
  if (app.hasDecorator('models')) return app.models.speakerEmbedder;
  let own = fallbackEmbedders.get(app);
  if (!own) {
    own = new StatsLdaSpeakerEmbedder();
    fallbackEmbedders.set(app, own);
  }
  return own;
}

/** `POST /v1/query`: evidence for a question, the asker optionally identified by voice. */
export async function queryRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: QueryBody }>('/v1/query', {
    schema: {
      summary: 'Ask memory a question; the asker may be given by id or identified from a voice sample',
      body: QueryBody,
      response: { 200: QueryResponse, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
    },
  }, async (request) => askMemory(app, request.tenant, request.body));
}
