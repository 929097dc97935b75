import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';
import { readSpeakerParams } from './speaker-decision.js';

/**
 * Small new ids in the end-of-session merge (issue #17 item 2, far-field; `clusterSessionIds`' `absorb`): a
 * group new in the session holding less than `maxSeconds` of voiced speech joins another at average linkage
 * `minLinkage`, below the `linkageTau` two whole voices need; optionally only in sessions that mostly stay
 * with the voice just heard.
 */
export interface SmallIdAbsorption {
  /** A new group holding less voiced speech than this (seconds, > 0) is small. */
  maxSeconds: number;
  /** The average linkage (a cosine in [-1, 1]) at which a small group joins another. */
  minLinkage: number;
  /**
   * Only in sessions whose turns stayed with the voice just heard at least this share of the time (in [0, 1]; an
   * online sign of a meeting with a dominant voice, where a split voice is likely; a round-robin conversation
   * rarely stays). Null or absent: every session. See {@link absorptionFor}.
   */
  minStayRate?: number | null;
}

/**
 * The absorption to apply at the end of a session whose tracker counted `stays` of `transitions` turn-to-turn
 * transitions staying with the same id: `absorb` when its `minStayRate` is met (or absent), else null.
 */
export function absorptionFor(absorb: SmallIdAbsorption | null | undefined, stays: number, transitions: number): SmallIdAbsorption | null {
  if (!absorb) return null;
  if (absorb.minStayRate == null) return absorb;
  return meetingLike(stays, transitions, absorb.minStayRate) ? absorb : null;
}

/**
 * A meeting-like session: its tracker's turn-to-turn transitions stayed with the same id (`stays` of `transitions`) at
 * least `minStayRate` of the time, as when one voice holds the floor; a session without transitions is not.
 */
export function meetingLike(stays: number, transitions: number, minStayRate: number): boolean {
  return transitions > 0 && stays / transitions >= minStayRate;
}

/** Check an absorption setting: a positive finite `maxSeconds`, a cosine `minLinkage`. */
export function validateAbsorption(a: SmallIdAbsorption): void {
  if (!(Number.isFinite(a.maxSeconds) && a.maxSeconds > 0)) throw new RangeError('absorb.maxSeconds must be a finite number of seconds > 0');
  if (!(a.minLinkage >= -1 && a.minLinkage <= 1)) throw new RangeError('absorb.minLinkage must be a cosine in [-1, 1]');
  if (a.minStayRate != null && !(a.minStayRate >= 0 && a.minStayRate <= 1)) throw new RangeError('absorb.minStayRate must be in [0, 1]');
}

/** An embedder's chosen absorption, as stored in `pipelines/speaker/params/<modelId>-absorb.json`. */
export interface AbsorptionParams {
  modelId: string;
  absorb: SmallIdAbsorption;
}

/** Where an embedder's chosen absorption lives. */
export function absorptionParamsPath(modelId: string): string {
  return path.join(repoRoot(), 'pipelines', 'speaker', 'params', `${path.basename(modelId)}-absorb.json`);
}

/**
 * The absorption chosen for an embedder (bench/speaker-absorb.ts on training speakers), or null when none was
 * chosen for it. Throws on a file that is not a valid setting or was chosen for another embedder.
 */
export function chosenAbsorption(modelId: string): SmallIdAbsorption | null {
  return readSpeakerParams<AbsorptionParams>(absorptionParamsPath(modelId), modelId, (p) => validateAbsorption(p.absorb ?? ({} as SmallIdAbsorption)))?.absorb ?? null;
}
