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
  /**
   * How a prototype stored before this session (a voiceprint from earlier sessions) is updated, so that one session's
   * wrong matches or channel cannot carry it off over many sessions: 'centroid' as any other, counting as
   * `storedSeconds`; 'ema' as before the centroid (at alpha, only at cosine ≥ tauUpdate); 'frozen' never. Absent:
   * 'centroid'.
   */
  stored?: 'centroid' | 'ema' | 'frozen';
  /** With `stored` 'centroid': the voiced seconds a stored prototype counts as (> 0). Absent: `capSeconds`. */
  storedSeconds?: number;
}

/** Throws on a setting that cannot be applied. */
export function validateCentroid(c: CentroidUpdate): void {
  if (!(Number.isFinite(c.capSeconds) && c.capSeconds > 0)) throw new RangeError('centroid.capSeconds must be a finite number of seconds > 0');
  if (typeof c.onMatch !== 'boolean') throw new RangeError('centroid.onMatch must be true or false');
  if (c.stored !== undefined && !['centroid', 'ema', 'frozen'].includes(c.stored)) throw new RangeError("centroid.stored must be 'centroid', 'ema' or 'frozen'");
  if (c.storedSeconds !== undefined && !(Number.isFinite(c.storedSeconds) && c.storedSeconds > 0)) throw new RangeError('centroid.storedSeconds must be a finite number of seconds > 0');
}

/** What a prototype's update needs to know of it: the voiced seconds behind it in this session (absent: stored before it). */
export interface UpdatedPrototype {
  seconds?: number;
}

/**
 * The weight a matched turn of `voicedSeconds` at cosine `cos` moves prototype `p` by (0: no update): without `c`, the
 * EMA (alpha at ≥ tauUpdate); with it, max(alpha, s / (S + s)) as the module says, or the stored prototype's rule.
 */
export function updateWeight(
  c: CentroidUpdate | null, p: UpdatedPrototype, cos: number, voicedSeconds: number, t: { tauUpdate: number; alpha: number },
): number {
  const stored = p.seconds === undefined;
  const rule = stored ? (c?.stored ?? 'centroid') : 'centroid';
  if (!c || rule === 'ema') return cos >= t.tauUpdate ? t.alpha : 0;
  if (rule === 'frozen' || !(cos >= t.tauUpdate || c.onMatch)) return 0;
  const behind = stored ? (c.storedSeconds ?? c.capSeconds) : Math.min(c.capSeconds, p.seconds!);
  return Math.max(t.alpha, voicedSeconds / (behind + voicedSeconds));
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
