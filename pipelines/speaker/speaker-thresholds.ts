import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';
import { readSpeakerParams } from './speaker-decision.js';
import type { SpeakerThresholds, StatsLdaParams } from './stats-lda-params.js';

export type { SpeakerThresholds } from './stats-lda-params.js';

/**
 * The paper's values for ECAPA-TDNN (docs/ARCHITECTURE.md, "Speaker identity"): the default for ECAPA-like
 * embedders, and the scale every other embedder is calibrated against. `mergeTau` is ours and uncalibrated
 * (now the average-linkage threshold of the end-of-session clustering).
 */
export const ECAPA_THRESHOLDS: SpeakerThresholds = {
  tauMatch: 0.35,
  tauUpdate: 0.4,
  alpha: 0.05,
  askerHigh: 0.4,
  askerMargin: 0.02,
  askerLow: 0.35,
  mergeTau: 0.55,
};

/**
 * Thresholds for an embedder: the calibrated values written by `scripts/calibrate-speaker.ts` into the
 * embedder's projection file (`pipelines/speaker/params/<modelId>.json`: stats-lda-v2, moonshine-l1-v2) when it
 * has them, else the ECAPA defaults (a production ONNX model must be calibrated before its thresholds are trusted).
 */
export function thresholdsFor(modelId: string): SpeakerThresholds {
  const file = path.join(repoRoot(), 'pipelines', 'speaker', 'params', `${path.basename(modelId)}.json`);
  return readSpeakerParams<StatsLdaParams>(file, modelId, () => {})?.thresholds ?? ECAPA_THRESHOLDS;
}

/**
 * Turns shorter than this (milliseconds of speech, onset to end) are attributed with
 * `SpeakerTracker.assignShort`: they may join a known voice or the previous speaker, but never found an
 * id or move a prototype. Chosen a priori (a second of speech), not tuned on the benchmark.
 */
export const SHORT_TURN_MS = 1000;
