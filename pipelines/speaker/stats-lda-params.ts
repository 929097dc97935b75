import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';
import type { ProjectionBackEnd } from './projection-back-end.js';

/** Thresholds of the tracker, the merge and the asker check, calibrated per embedder. */
export interface SpeakerThresholds {
  /** Cosine at or above which an utterance is assigned to the best prototype. */
  tauMatch: number;
  /** Cosine at or above which the prototype is also updated (> tauMatch). */
  tauUpdate: number;
  /** EMA weight of a new embedding in a prototype update. */
  alpha: number;
  /** Asker identification: high confidence at or above this cosine… */
  askerHigh: number;
  /** …with at least this margin over the runner-up. */
  askerMargin: number;
  /** Asker identification: low confidence at or above this cosine; unresolved below. */
  askerLow: number;
  /**
   * End-of-session merge: average linkage (duration-weighted mean utterance-pair cosine) at which two
   * ids' groups join (`session-clustering.ts`).
   */
  mergeTau: number;
}

/** Learned parameters of the statistics + LDA embedder, as written by the training script. */
export interface StatsLdaParams {
  modelId: string;
  featureNames: string[];
  /** Standardisation: (x - mean) / std per raw feature. */
  mean: number[];
  std: number[];
  /** Rows of the projection (output dimension × feature count). */
  projection: number[][];
  /** Between/within-class variance ratio of each projected dimension. */
  eigenvalues: number[];
  /** Centring and whitening of the projected vector before its length is normalised (older files: none). */
  backEnd?: ProjectionBackEnd;
  training: { speakers: string[]; heldOut: string[]; utterances: number; segments: number; createdAt: string; augmentation?: string };
  thresholds?: SpeakerThresholds;
  calibration?: Record<string, unknown>;
}

/** Where the shipped parameters live (relative to the repo root, so dist/ and source both find it). */
export function statsLdaParamsPath(): string {
  return path.join(repoRoot(), 'pipelines', 'speaker', 'params', 'stats-lda-v2.json');
}

/** Read the shipped (or a given) parameter file. */
export function loadStatsLdaParams(file = statsLdaParamsPath()): StatsLdaParams {
  return JSON.parse(readFileSync(file, 'utf8')) as StatsLdaParams;
}
