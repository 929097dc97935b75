import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sileroModelPath } from '../../pipelines/audio/silero-vad-model.js';
import type { AsrBackendConfig, MoonshineAsrConfig } from '../../pipelines/asr/streaming-asr.js';
import { moonshineInstalled, moonshineUnusable } from '../../pipelines/asr/phone-recogniser-choice.js';
import { AudioSpanStore } from '../../pipelines/audio/audio-span-store.js';
import { NARROWBAND_MAX_RATE } from '../../pipelines/audio/audio-session.js';
import { ONNX_TEXT_MODELS, OnnxTextEmbedder } from '../../pipelines/embeddings/onnx-text-embedder.js';
import { OpenAiEmbedder } from '../../pipelines/embeddings/openai-embedder.js';
import type { TextEmbedder } from '../../pipelines/embeddings/text-embedder.js';
import { UseLiteEmbedder } from '../../pipelines/embeddings/use-lite-embedder.js';
import { MoonshineL1SpeakerEmbedder } from '../../pipelines/speaker/moonshine-l1-speaker-embedder.js';
import { OnnxSpeakerEmbedder } from '../../pipelines/speaker/onnx-speaker-embedder.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { decisionFor, type SpeakerDecisionParams } from '../../pipelines/speaker/speaker-decision.js';
import { sessionRulesFor, type SessionRules } from '../../pipelines/speaker/session-rules.js';
import { revisionFor, type FirstTurnRevision } from '../../pipelines/speaker/first-turn-revision.js';
import { chosenAbsorption, type SmallIdAbsorption } from '../../pipelines/speaker/small-id-absorption.js';
import { chosenCentroid, type CentroidUpdate } from '../../pipelines/speaker/centroid-update.js';
import { chosenPooledClaim, type PooledClaim } from '../../pipelines/speaker/stored-claim.js';
import { thresholdsFor, type SpeakerThresholds } from '../../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';
import { WorkerPool } from '../../pipelines/workers/worker-pool.js';
import { defaultWordNet } from '../../pipelines/retrieval/wordnet.js';
import type { Config } from '../config.js';
import { ParleyError } from '../../graph/core/errors.js';

/** The models a server process runs, shared by every session. */
export interface Models {
  textEmbedder: TextEmbedder;
  /** What text affect classifies on (its few-shot vote): the text embedder itself, or null (see `createAffectEmbedder`). */
  affectEmbedder: TextEmbedder | null;
  speakerEmbedder: SpeakerEmbedder;
  /** The speaker embedder's calibrated thresholds with the config's overrides applied. */
  speakerThresholds: SpeakerThresholds;
  /**
   * The speaker embedder's calibrated open-set decision (`speaker-decision.ts`), or null: none calibrated
   * for it, or `PARLEY_SPEAKER_DECISION=thresholds`.
   */
  speakerDecision?: SpeakerDecisionParams | null;
  /**
   * The speaker embedder's session rules (`session-rules.ts`: calibrated end-of-session merge, stay prior),
   * or null: none calibrated for it. `PARLEY_SPEAKER_MERGE_RULE` and `PARLEY_SPEAKER_STAY_PRIOR` say which are used.
   */
  speakerSessionRules?: SessionRules | null;
  /**
   * The first-turn revision chosen for the speaker embedder (`first-turn-revision.ts`), or null: none chosen
   * for it. Used only with `PARLEY_SPEAKER_REVISE=true` and the calibrated decision.
   */
  speakerRevision?: FirstTurnRevision | null;
  /**
   * The small-id absorption chosen for the speaker embedder (`small-id-absorption.ts`), or null: none chosen for it.
   * Used by the cosine end-of-session merge with `PARLEY_SPEAKER_ABSORB=true`.
   */
  speakerAbsorption?: SmallIdAbsorption | null;
  /**
   * The centroid prototype update chosen for the speaker embedder (`centroid-update.ts`), or null: none chosen for it.
   * Used with `PARLEY_SPEAKER_CENTROID=true` (the default) and the calibrated decision.
   */
  speakerCentroid?: CentroidUpdate | null;
  /**
   * The end-of-session claim of stored voiceprints chosen for the speaker embedder (`stored-claim.ts`), or null: none
   * chosen for it. Used with `PARLEY_SPEAKER_POOLED_CLAIM=true` (the default) and the calibrated decision.
   */
  speakerPooledClaim?: PooledClaim | null;
  audioSpans: AudioSpanStore;
  /** The inference pool (VAD + ASR workers), started on first use unless started eagerly. */
  inference(): Promise<WorkerPool>;
  /**
   * Whether the inference pool serves: `null` while it was never started (tests start it on first use),
   * `false` while it starts, after it failed to start, or once it has no live worker left.
   */
  inferenceReady(): boolean | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    models: Models;
  }
}

/** The ASR backend the config names, as the inference workers load it. */
export function asrBackend(config: Config): AsrBackendConfig {
  switch (config.asr) {
    case 'sherpa-onnx':
      return { kind: 'sherpa-onnx', modelDir: path.join(config.modelsDir, 'sherpa-zipformer-en') };
    case 'moonshine':
      return moonshineBackend(config);
    case 'openai':
      return { kind: 'openai', baseURL: config.openaiBaseUrl, apiKey: config.openaiApiKey ?? '', model: config.transcriptionModel };
    default:
      return {
        kind: 'pocketsphinx', options: config.pocketsphinxOptions,
        maxDecoders: config.asrMaxDecoders, maxIdleDecoders: Math.min(config.asrIdleDecoders, config.asrMaxDecoders),
        nameSpotting: config.asrNameSpotting === 'false' ? false : { maxNames: config.asrNameSpottingMaxNames },
        ...(config.asrNameSpotting === 'wideband' ? { narrowbandNameSpotting: false as const } : {}),
        ...(phoneMoonshine(config) ? { narrowbandRecogniser: moonshineBackend(config, config.phonePauseDecode) } : {}),
      };
  }
}

/** Moonshine as the config names it; `pauseDecode`: whether these streams decode at pauses (phone streams have their own default). */
function moonshineBackend(config: Config, pauseDecode = config.moonshinePauseDecode): MoonshineAsrConfig {
  return { kind: 'moonshine', model: config.moonshineModel, modelDir: path.join(config.modelsDir, config.moonshineModel), partialIntervalMs: config.moonshinePartialMs, pauseDecode,
    retryEmpty: config.moonshineRetryEmpty, ...(config.moonshineNames ? {} : { knownNames: false as const }) };
}

/**
 * Whether 8 kHz streams go to Moonshine: `PARLEY_ASR_PHONE` resolved to it (`moonshine`, or `auto` with the model
 * installed) beside `PARLEY_ASR=pocketsphinx`, and its model is installed.
 */
export function phoneMoonshine(config: Config): boolean {
  return config.asr === 'pocketsphinx' && config.asrPhone === 'moonshine' && moonshineInstalled(config.modelsDir, config.moonshineModel);
}

/** What 8 kHz streams are transcribed by, in words for the start-up log. */
export function phoneRecogniserName(config: Config): string {
  if (config.asr !== 'pocketsphinx') return `${config.asr} (PARLEY_ASR)`;
  return phoneMoonshine(config)
    ? `${config.moonshineModel}${config.phonePauseDecode && config.moonshinePartialMs === 0 ? ', decoding at pauses' : ''}${config.moonshinePartialMs > 0 ? `, partials every ${config.moonshinePartialMs} ms` : ', no partials'}`
    : 'pocketsphinx narrowband';
}

/**
 * Whether a stream at `sampleRate` gets the session's names: on Moonshine (`PARLEY_ASR=moonshine`, or an 8 kHz
 * stream `PARLEY_ASR_PHONE` gave it) when `PARLEY_MOONSHINE_NAMES` is on; on pocketsphinx as
 * `PARLEY_ASR_NAME_SPOTTING` says; never on other backends.
 */
export function favoursNames(config: Config, sampleRate: number): boolean {
  const narrow = sampleRate <= NARROWBAND_MAX_RATE;
  if (config.asr === 'moonshine' || (config.asr === 'pocketsphinx' && narrow && config.asrPhone === 'moonshine')) return config.moonshineNames;
  if (config.asr !== 'pocketsphinx' || config.asrNameSpotting === 'false') return false;
  return !(config.asrNameSpotting === 'wideband' && narrow);
}

/** The text embedder the config names. */
export function createTextEmbedder(config: Config): TextEmbedder {
  if (config.textEmbedder === 'openai') {
    return new OpenAiEmbedder({
      baseURL: config.openaiBaseUrl, apiKey: config.openaiApiKey ?? '',
      model: config.embeddingModel, dimension: config.embeddingDimension,
    });
  }
  if (config.textEmbedder !== 'use-lite') return new OnnxTextEmbedder({ spec: ONNX_TEXT_MODELS[config.textEmbedder], modelsDir: config.modelsDir });
  return new UseLiteEmbedder();
}

/**
 * What text affect runs on: the text embedder itself when it is a model run here (USE-lite, bge-small…), so no
 * second text model is loaded for it; none beside `openai` (each turn and example would be a remote call).
 */
export function createAffectEmbedder(config: Config, textEmbedder: TextEmbedder): TextEmbedder | null {
  return config.textEmbedder === 'openai' ? null : textEmbedder;
}

/** The speaker embedder the config names; a missing ONNX model fails here, naming the fix. */
export async function createSpeakerEmbedder(config: Config): Promise<SpeakerEmbedder> {
  if (config.speakerEmbedder === 'wespeaker') {
    return OnnxSpeakerEmbedder.create({ modelPath: path.join(config.modelsDir, 'wespeaker-resnet34', 'model.onnx') });
  }
  if (config.speakerEmbedder === 'moonshine-l1') return MoonshineL1SpeakerEmbedder.create(config.modelsDir);
  return new StatsLdaSpeakerEmbedder();
}

/**
 * Decorates `app.models`. With `eager` (the real server) every model loads at start-up, so a missing
 * model or credential stops the server with a message naming the fix; tests load them on first use.
 */
export const modelsPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; eager: boolean }) => {
    const { config } = opts;
    // Moonshine asked for by name (or chosen by auto): missing or damaged files stop the server here, naming the fix,
    // rather than failing every phone stream when its worker loads them.
    const phoneUnusable = config.asr === 'pocketsphinx' && config.asrPhone === 'moonshine' ? moonshineUnusable(config.modelsDir, config.moonshineModel) : null;
    if (phoneUnusable) {
      throw new ParleyError('PARLEY_ERR_MODEL_MISSING', `PARLEY_ASR_PHONE=moonshine: ${phoneUnusable}; run \`npm run models -- fetch ${config.moonshineModel}\``);
    }
    if (config.asrPhoneFallback) app.log.warn({ warning: config.asrPhoneFallback }, `phone streams: ${config.moonshineModel} not usable, using pocketsphinx narrowband`);
    app.log.info({ phoneRecogniser: phoneRecogniserName(config) }, 'recogniser of 8 kHz (phone) streams');
    if (config.textEmbedderFallback) app.log.warn({ warning: config.textEmbedderFallback }, 'text embedder: bge-small-en-v1.5-q not installed, using USE-lite');
    const textEmbedder = createTextEmbedder(config);
    const affectEmbedder = createAffectEmbedder(config, textEmbedder);
    const speakerEmbedder = await createSpeakerEmbedder(config);
    let pool: Promise<WorkerPool> | null = null;
    let started: WorkerPool | null = null;
    let closed = false;
    const inference = (): Promise<WorkerPool> => {
      if (closed) return Promise.reject(new ParleyError('PARLEY_ERR_SHUTTING_DOWN', 'the inference pool is closed'));
      pool ??= WorkerPool.create({
        asr: asrBackend(config), vadModelPath: sileroModelPath(config.vadModel), ortMemArena: config.ortMemArena, preloadNarrowband: config.asrPhonePreload, size: config.inferenceWorkers, niceness: config.workerNice, logger: app.log.child({ component: 'inference' }) as never,
      });
      pool.then((p) => { started = p; }, () => { /* the caller sees the failure; inferenceReady stays false */ });
      return pool;
    };
    const models: Models = {
      textEmbedder,
      affectEmbedder,
      speakerEmbedder,
      speakerThresholds: { ...thresholdsFor(speakerEmbedder.modelId), ...config.speakerThresholds },
      speakerDecision: config.speakerDecision === 'calibrated' ? decisionFor(speakerEmbedder.modelId) : null,
      speakerSessionRules: sessionRulesFor(speakerEmbedder.modelId),
      speakerRevision: revisionFor(speakerEmbedder.modelId),
      speakerAbsorption: chosenAbsorption(speakerEmbedder.modelId),
      speakerCentroid: chosenCentroid(speakerEmbedder.modelId),
      speakerPooledClaim: chosenPooledClaim(speakerEmbedder.modelId),
      audioSpans: new AudioSpanStore({ dataDir: config.dataDir, retentionDays: config.audioRetentionDays }),
      inference,
      inferenceReady: () => (pool === null ? null : started !== null && started.size > 0),
    };
    app.decorate('models', models);
    if (opts.eager) {
      // Name checks on the ingest path (addressee, session naming) consult WordNet: read at start, not on a live turn.
      defaultWordNet().preload();
      if (textEmbedder instanceof UseLiteEmbedder || textEmbedder instanceof OnnxTextEmbedder) await textEmbedder.start();
      if (config.asr !== 'none') await inference();
    }
    app.addHook('onClose', async () => {
      closed = true;
      await textEmbedder.close();
      await speakerEmbedder.close?.();
      if (pool) await (await pool.catch(() => null))?.close();
    });
  },
  { name: 'parley-models' },
);
