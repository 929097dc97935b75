import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';
import { readSpeakerParams } from './speaker-decision.js';

/**
 * Prototype updates as a running centroid weighted by voiced seconds (issue #17 item 2, `SpeakerTrackerOptions.centroid`):
 * a matched turn of s voiced seconds moves its id's prototype by max(alpha, s / (S + s)), S the voiced seconds behind the
 * prototype in this session, capped at `capSeconds` (a prototype stored before the session counts as `capSeconds`). An
 * id founded from one short turn settles on its voice within a few turns instead of keeping that turn's noise.
 */
export interface CentroidUpdate {
  /** Voiced seconds at which a prototype counts as full (> 0). */
  capSeconds: number;
  /** Every matched turn updates its prototype (else only turns at cosine ≥ tauUpdate). */
  onMatch: boolean;
}

/** Throws on a setting that cannot be applied. */
export function validateCentroid(c: CentroidUpdate): void {
  if (!(Number.isFinite(c.capSeconds) && c.capSeconds > 0)) throw new RangeError('centroid.capSeconds must be a finite number of seconds > 0');
  if (typeof c.onMatch !== 'boolean') throw new RangeError('centroid.onMatch must be true or false');
}

/** What `pipelines/speaker/params/<modelId>-centroid.json` holds: the setting chosen for an embedder (bench/speaker-defer.ts). */
export interface CentroidParams {
  modelId: string;
  centroid: CentroidUpdate;
}

/** Where an embedder's chosen centroid update lives. */
export function centroidParamsPath(modelId: string): string {
  return path.join(repoRoot(), 'pipelines', 'speaker', 'params', `${path.basename(modelId)}-centroid.json`);
}

/**
 * The centroid update chosen for an embedder, or null when none was chosen for it. Throws on a file that is not a
 * valid setting or was chosen for another embedder.
 */
export function chosenCentroid(modelId: string): CentroidUpdate | null {
  return readSpeakerParams<CentroidParams>(centroidParamsPath(modelId), modelId, (p) => validateCentroid(p.centroid ?? ({} as CentroidUpdate)))?.centroid ?? null;
}
