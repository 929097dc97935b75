import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';
import { readSpeakerParams, type ScoreCalibration } from './speaker-decision.js';
import type { CalibratedMerge } from './session-clustering.js';

/**
 * The per-session stay prior of the calibrated decision: the probability that a turn is by the voice
 * just heard, estimated online from the session's own decided turns with a Beta prior of mean `mean`
 * and weight `strength` (pseudo-turns). The decision's fixed log prior for the voice just heard holds at
 * the prior mean; it moves by logit(estimate) − logit(mean).
 */
export interface StayPrior {
  /** Stay probability at which the fixed log prior is right, in (0, 1). */
  mean: number;
  /** Weight of the prior, in turns (> 0). */
  strength: number;
}

/**
 * The calibrated end-of-session merge of an embedder: a calibration of the average linkage of two groups
 * (fitted like the decision's, on session-end id pairs of the training speakers) and the threshold
 * derived from two stated numbers: merge when LLR > logCostRatio − logPriorOddsSame.
 */
export interface MergeRuleParams {
  calibration: ScoreCalibration;
  /** ln of the prior odds that two ids of one session are one voice (the decision's session vs new prior). */
  logPriorOddsSame: number;
  /** ln of the cost of a wrong merge over the cost of a missed one. */
  logCostRatio: number;
}

/** What `scripts/calibrate-speaker-session.ts` writes per embedder. */
export interface SessionRules {
  modelId: string;
  merge: MergeRuleParams;
  /** Null: the decision keeps its fixed prior for the voice just heard. */
  stay: StayPrior | null;
}

/** Where an embedder's session rules live. */
export function sessionRulesPath(modelId: string): string {
  return path.join(repoRoot(), 'pipelines', 'speaker', 'params', `${modelId}-session.json`);
}

/** The merge rule as the clustering takes it. */
export function calibratedMerge(m: MergeRuleParams): CalibratedMerge {
  return { calibration: m.calibration, threshold: m.logCostRatio - m.logPriorOddsSame };
}

/**
 * The session rules of an embedder, or null when none were calibrated for it. Throws on a file that is
 * not a valid set of rules or was calibrated for another embedder.
 */
export function sessionRulesFor(modelId: string): SessionRules | null {
  return readSpeakerParams(sessionRulesPath(modelId), modelId, validateSessionRules);
}

/** Throws when a field is missing or out of range. */
export function validateSessionRules(r: SessionRules): void {
  const c = r.merge?.calibration;
  const nums = [c?.a, c?.b, c?.c, c?.e, r.merge?.logPriorOddsSame, r.merge?.logCostRatio];
  if (nums.some((x) => typeof x !== 'number' || !Number.isFinite(x))) throw new Error('speaker session rules: every merge field must be a finite number');
  if (r.stay !== null) validateStayPrior(r.stay);
}

/** Throws unless 0 < mean < 1 and strength > 0. */
export function validateStayPrior(s: StayPrior): void {
  if (!(s?.mean > 0 && s.mean < 1)) throw new Error('stay prior: mean must be in (0, 1)');
  if (!(s.strength > 0 && Number.isFinite(s.strength))) throw new Error('stay prior: strength must be a finite number > 0');
}

/**
 * How far the log prior of the voice just heard moves after `stays` of `transitions` decided turns went
 * to the voice heard before them: logit of the posterior mean stay probability minus logit of the prior mean.
 */
export function stayShift(s: StayPrior, stays: number, transitions: number): number {
  const p = (s.mean * s.strength + stays) / (s.strength + transitions);
  const logit = (x: number): number => Math.log(x / (1 - x));
  return logit(p) - logit(s.mean);
}
