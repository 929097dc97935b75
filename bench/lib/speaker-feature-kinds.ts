/**
 * The raw features a speaker projection is fitted on, for the training and calibration scripts: `stats` (MFCC,
 * delta and pitch statistics: stats-lda-v2) or `moonshine-l1` (Moonshine tiny's encoder cut after layer 1,
 * pooled: moonshine-l1-v2). Chosen with `--features NAME`; each has its projection file, the LDA shrinkage it is
 * fitted with, and the embedder a fitted projection makes.
 */
import {
  loadMoonshineL1Params, MOONSHINE_L1_ID, MoonshineL1Features, MoonshineL1SpeakerEmbedder, moonshineL1ParamsPath,
} from '../../pipelines/speaker/moonshine-l1-speaker-embedder.js';
import { modelsDir } from '../../pipelines/models/repo-root.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { loadStatsLdaParams, statsLdaParamsPath, type StatsLdaParams } from '../../pipelines/speaker/stats-lda-params.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';
import { STAT_FEATURE_NAMES, utteranceStats } from '../../pipelines/speaker/stats-features.js';
import { argString } from './cli.js';
import type { BackEndChoice } from '../../pipelines/speaker/projection-back-end.js';

export const FEATURE_KINDS = ['stats', 'moonshine-l1'] as const;
export type FeatureKind = (typeof FEATURE_KINDS)[number];

/** One kind of features, loaded. */
export interface SpeakerFeatures {
  kind: FeatureKind;
  /** Model id of a projection trained with augmentation. */
  modelId: string;
  featureNames: string[];
  /** LDA shrinkage the projection is fitted with (stats 0.1 as shipped; moonshine-l1 0.5 as in the layer probe). */
  shrinkage: number;
  /** Back end written after the projection (null: none), chosen with bench/speaker-back-end.ts on the training speakers. */
  backEnd: BackEndChoice | null;
  /** Where the shipped projection (with its thresholds) lives, and reading it. */
  paramsPath: string;
  loadParams(): StatsLdaParams;
  extract(audio: Float32Array): Promise<Float64Array | null>;
  /** The embedder of a projection fitted on these features. */
  embedder(params: StatsLdaParams): SpeakerEmbedder;
  release(): Promise<void>;
}

/** `--features` of the command line (default `stats`); an unknown name throws, listing the known ones. */
export function featureKindArg(): FeatureKind {
  const k = argString('features', 'stats');
  if (!(FEATURE_KINDS as readonly string[]).includes(k)) throw new Error(`--features must be one of ${FEATURE_KINDS.join(', ')}, not ${JSON.stringify(k)}`);
  return k as FeatureKind;
}

/** Load the features of `kind` (moonshine-l1: the encoder in MODELS_DIR). */
export async function loadSpeakerFeatures(kind: FeatureKind): Promise<SpeakerFeatures> {
  if (kind === 'stats') {
    return {
      kind, modelId: 'stats-lda-v2', featureNames: STAT_FEATURE_NAMES, shrinkage: 0.1, backEnd: null, paramsPath: statsLdaParamsPath(),
      loadParams: () => loadStatsLdaParams(), extract: async (a) => utteranceStats(a),
      embedder: (p) => new StatsLdaSpeakerEmbedder(p), release: async () => {},
    };
  }
  const f = await MoonshineL1Features.load(modelsDir());
  return {
    kind, modelId: MOONSHINE_L1_ID, featureNames: ['mean', 'std'].flatMap((s) => Array.from({ length: 288 }, (_, i) => `l1-${s}-${i}`)),
    shrinkage: 0.5, backEnd: { kind: 'centred', centredOn: 'all' }, paramsPath: moonshineL1ParamsPath(),
    loadParams: () => loadMoonshineL1Params(), extract: (a) => f.extract(a),
    embedder: (p) => new MoonshineL1SpeakerEmbedder(f, p), release: () => f.release(),
  };
}
