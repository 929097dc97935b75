import LibSampleRate from '@alexanderolsen/libsamplerate-js';
import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { parseWav } from '../../pipelines/audio/wav.js';
import { isBase64 } from '../protocol/base64.js';
import { isoTime } from '../protocol/iso-time.js';
import { identifyAskerFromAudio } from '../../pipelines/speaker/identify-asker.js';
import { SPEAKER_SAMPLE_RATE, type SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { thresholdsFor } from '../../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';
import { bandOf, bandOffset, bandOffsetsFor, cosineOffset, narrowbandModelId, type VoiceBand } from '../../pipelines/speaker/voice-bands.js';
import { ParleyError } from '../../graph/core/errors.js';
import {
  errorResponse, errorResponses, QueryBody, QueryResponse, ref,
} from '../protocol/http-schemas.js';
import { resolveParticipantRef } from '../../pipelines/interaction/participant-ref.js';
import { askingTurnIds } from '../../pipelines/retrieval/turn-evidence.js';
import { queryScope } from './query-scope.js';

export { QueryBody } from '../protocol/http-schemas.js';

/** A voice sample of `query`: 16 kHz mono samples and the rate the WAV was recorded at (its band). */
export interface QueryAudio {
  samples: Float32Array;
  sampleRate: number;
}

/** Decode a base64 WAV into 16 kHz mono samples; 400 with a clear message when it is not one. */
export async function decodeQueryAudio(b64: string): Promise<QueryAudio> {
  if (!isBase64(b64)) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'audio must be base64 (standard alphabet)');
  const buf = Buffer.from(b64, 'base64');
  let wav;
  try {
    wav = parseWav(buf);
  } catch (err) {
    throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `audio is not a readable WAV: ${(err as Error).message}`);
  }
  if (wav.sampleRate < 4000 || wav.sampleRate > 192_000) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', `unsupported sample rate ${wav.sampleRate} Hz`);
  if (wav.samples.length === 0) throw new ParleyError('PARLEY_ERR_BAD_AUDIO', 'audio has no samples');
  if (wav.sampleRate === SPEAKER_SAMPLE_RATE) return { samples: wav.samples, sampleRate: wav.sampleRate };
  const src = await LibSampleRate.create(1, wav.sampleRate, SPEAKER_SAMPLE_RATE, { converterType: LibSampleRate.ConverterType.SRC_SINC_FASTEST });
  try {
    return { samples: src.full(wav.samples), sampleRate: wav.sampleRate };
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
  // An explicit asker wins over the voice: it is the asker reported, and the voice is not matched
  // (the audio is still checked, so a bad one is a 400 either way).
  let asker: { id: string; confidence: 'high' | 'low'; score: number } | null = givenAsker ? { id: givenAsker, confidence: 'high', score: 1 } : null;
  let voiceMs = 0;
  if (body.audio !== undefined) {
    const audio = await decodeQueryAudio(body.audio);
    if (!givenAsker) asker = await askerFromVoice(app, tenant, audio);
    voiceMs = performance.now() - started;
  }
  const askerId = asker?.id ?? null;
  // The turn that asked it (stored just before, as the README's LLM-turn example does) is no evidence of its answer.
  const [excludeIds, scope] = await Promise.all([
    body.session_id ? askingTurnIds(app.stores.graph, tenant, body.session_id, body.question) : [],
    queryScope(app, tenant, body),
  ]);
  const answer = await app.memoryQuery(tenant, {
    question: body.question, asker: askerId, k: body.k ?? 5,
    ...(body.now !== undefined ? { now: new Date(isoTime(body.now, 'now')) } : {}),
    ...(body.session_id ? { sessionId: body.session_id } : {}),
    ...(excludeIds.length > 0 ? { excludeIds } : {}),
    ...(speakerId ? { speakerId } : {}),
    ...(addresseeId ? { addresseeId } : {}),
    ...(scope ? { scope } : {}),
  });
  return {
    evidence: answer.evidence, answerable: answer.answerable, asker, rounds: answer.rounds,
    timings: { ...answer.timings, ...(body.audio !== undefined ? { asker_ms: voiceMs } : {}), request_ms: performance.now() - started },
  };
}

/**
 * The known voice the audio matches, or null when none does with at least low confidence. Voiceprints made from phone
 * audio (`narrowbandModelId`) count too: a caller heard only on the phone is known by those alone. The band rule of
 * the calibrated decision applies as on a stream (`PARLEY_SPEAKER_BAND_OFFSETS=calibrated`): a sample recorded at
 * 8 kHz or below is a phone voice, and a prototype of the other band (or a phone one heard on the phone) has the
 * offset's worth in cosine (at the sample's seconds) taken off its score before the asker thresholds.
 */
async function askerFromVoice(app: FastifyInstance, tenant: string, audio: QueryAudio): Promise<QueryResult['asker']> {
  const embedder = speakerEmbedderOf(app);
  const { voiceprints } = app.stores;
  const [wide, tel] = await Promise.all([voiceprints.list(tenant, embedder.modelId), voiceprints.list(tenant, narrowbandModelId(embedder.modelId))]);
  const band = bandOf(audio.sampleRate);
  const decision = app.hasDecorator('models') ? app.models.speakerDecision : null;
  const offsets = decision && app.config.speakerBandOffsets === 'calibrated' ? bandOffsetsFor(embedder.modelId) : null;
  const seconds = audio.samples.length / SPEAKER_SAMPLE_RATE;
  const offsetFor = (print: VoiceBand): number => (offsets && decision ? cosineOffset(decision.calibration, bandOffset(offsets, band, print), seconds) : 0);
  const prototypes = [
    ...wide.map((p) => ({ ...p, cosineOffset: offsetFor('wideband') })),
    ...tel.map((p) => ({ ...p, cosineOffset: offsetFor('narrowband') })),
  ];
  const thresholds = app.hasDecorator('models') ? app.models.speakerThresholds : thresholdsFor(embedder.modelId);
  const identity = await identifyAskerFromAudio(embedder, audio.samples, prototypes, thresholds);
  if (!identity.participantId || identity.confidence === 'unresolved') return null;
  return { id: identity.participantId, confidence: identity.confidence, score: identity.score };
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
      operationId: 'queryMemory', tags: ['query'],
      summary: 'Ask memory a question; the asker may be given by id or identified from a voice sample',
      body: ref(QueryBody),
      response: {
        200: ref(QueryResponse),
        400: errorResponse('PARLEY_ERR_BAD_REQUEST or PARLEY_ERR_BAD_AUDIO: invalid body or audio'),
        404: errorResponse('PARLEY_ERR_NOT_FOUND: no participant by that id, external_id or name'),
        409: errorResponse('PARLEY_ERR_CONFLICT: several participants hold that name'),
        ...errorResponses({ body: true }),
      },
    },
  }, async (request) => askMemory(app, request.tenant, request.body));
}
