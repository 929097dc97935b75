import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';

/**
 * Linear calibration of a cosine score into a same/different-speaker log-likelihood ratio (natural log),
 * with the utterance's voiced duration as quality measure (as in FoCal/BOSARIS score calibration):
 * LLR(s, d) = a + b·s + c·s·ln d + e·ln d, for cosine s and d voiced seconds. Fitted by class-balanced
 * logistic regression on same/different pairs of the training speakers (`scripts/calibrate-speaker-decision.ts`).
 */
export interface ScoreCalibration {
  a: number;
  b: number;
  c: number;
  e: number;
}

/**
 * The tracker's open-set decision (docs/ARCHITECTURE.md, "Speaker identity"): each hypothesis "this is
 * id k" scores its log prior plus the calibrated LLR of its cosine; "a new voice" scores its log prior
 * (LLR 0 by definition). The best wins. Log priors are relative to an id stored before this session and
 * not yet heard in it (log prior 0).
 */
export interface SpeakerDecisionParams {
  modelId: string;
  calibration: ScoreCalibration;
  /** Log prior of the id heard in the previous turn. */
  logPriorPrevious: number;
  /** Log prior of another id already heard in this session. */
  logPriorSession: number;
  /** Log prior of a voice never heard before. */
  logPriorNew: number;
  /**
   * A new id is founded only from at least this much voiced speech (seconds); a shorter unmatched turn
   * goes to the best existing hypothesis.
   */
  minFoundSeconds: number;
}

/** One existing id as the decision sees it. */
export interface Candidate {
  participantId: string;
  /** Cosine of the turn's embedding to the id's prototype. */
  cosine: number;
  /** Heard earlier in this session. */
  inSession: boolean;
  /**
   * Log-likelihood ratio taken off this hypothesis (a match across bands, on phone audio, or a stricter bar); default 0.
   * +Infinity: the hypothesis may not be chosen.
   */
  llrOffset?: number;
}

/** What the rule decided: an existing id, or null for a new voice; with the winning score. */
export interface Decision {
  participantId: string | null;
  /** Log prior + LLR of the winner (0 + logPriorNew for a new voice). */
  score: number;
}

/** Calibrated same/different-speaker log-likelihood ratio of a cosine from `seconds` of voiced speech. */
export function scoreLlr(c: ScoreCalibration, cosine: number, seconds: number): number {
  const ld = Math.log(Math.max(0.1, seconds));
  return c.a + c.b * cosine + c.c * cosine * ld + c.e * ld;
}

/**
 * Pick the hypothesis with the highest log prior + LLR. `previous` is the id of the last turn (or null).
 * `allowNew` false (too little speech to found an id) restricts the choice to existing ids when any exist.
 */
export function decideSpeaker(p: SpeakerDecisionParams, candidates: readonly Candidate[], seconds: number, previous: string | null, allowNew = true): Decision {
  let best: Decision = { participantId: null, score: p.logPriorNew };
  let bestExisting: Decision | null = null;
  for (const k of candidates) {
    const prior = k.participantId === previous ? p.logPriorPrevious : k.inSession ? p.logPriorSession : 0;
    const score = prior + scoreLlr(p.calibration, k.cosine, seconds) - (k.llrOffset ?? 0);
    // An offset of +Infinity bars the hypothesis (`stored-claim.ts`), even where a new voice is not allowed.
    if (score === -Infinity) continue;
    if (!bestExisting || score > bestExisting.score) bestExisting = { participantId: k.participantId, score };
  }
  if (bestExisting && bestExisting.score > best.score) best = bestExisting;
  if (best.participantId === null && bestExisting && (!allowNew || seconds < p.minFoundSeconds)) return bestExisting;
  return best;
}

/** Where the decision parameters of an embedder live (written by the calibration script). */
export function decisionParamsPath(modelId: string): string {
  return path.join(repoRoot(), 'pipelines', 'speaker', 'params', `${modelId}-decision.json`);
}

/**
 * The calibrated decision of an embedder, or null when none was calibrated for it (the tracker then
 * uses the cosine thresholds alone). Throws on a file that is not a valid set of parameters.
 */
export function decisionFor(modelId: string): SpeakerDecisionParams | null {
  return readSpeakerParams(decisionParamsPath(modelId), modelId, validateDecision);
}

/**
 * A calibrated parameter file of one embedder (`pipelines/speaker/params/<modelId>-*.json`), or null when
 * it does not exist. Throws when `validate` refuses it or it was calibrated for another embedder.
 */
export function readSpeakerParams<T extends { modelId: string }>(file: string, modelId: string, validate: (p: T) => void): T | null {
  if (!existsSync(file)) return null;
  const p = JSON.parse(readFileSync(file, 'utf8')) as T;
  validate(p);
  if (p.modelId !== modelId) throw new Error(`${file}: calibrated for ${p.modelId}, not ${modelId}`);
  return p;
}

/** Throws when a field is missing or not a finite number. */
export function validateDecision(p: SpeakerDecisionParams): void {
  const nums = [p.calibration?.a, p.calibration?.b, p.calibration?.c, p.calibration?.e, p.logPriorPrevious, p.logPriorSession, p.logPriorNew, p.minFoundSeconds];
  if (nums.some((x) => typeof x !== 'number' || !Number.isFinite(x))) throw new Error('speaker decision parameters: every field must be a finite number');
  if (p.minFoundSeconds < 0) throw new Error('speaker decision parameters: minFoundSeconds must be >= 0');
}

/**
 * Fit a {@link ScoreCalibration} by logistic regression (Newton's method, small ridge) on labelled scores,
 * the two classes weighted equally so the fitted log-odds is a likelihood ratio, not a posterior.
 */
export function fitCalibration(pairs: readonly { cosine: number; seconds: number; same: boolean }[], ridge = 1e-6): ScoreCalibration {
  const nSame = pairs.filter((x) => x.same).length;
  const nDiff = pairs.length - nSame;
  if (nSame === 0 || nDiff === 0) throw new Error('fitCalibration needs same- and different-speaker pairs');
  const feats = pairs.map((x) => {
    const ld = Math.log(Math.max(0.1, x.seconds));
    return [1, x.cosine, x.cosine * ld, ld];
  });
  const w = [0, 0, 0, 0];
  for (let it = 0; it < 50; it++) {
    const g = [0, 0, 0, 0];
    const h = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
    pairs.forEach((x, n) => {
      const f = feats[n]!;
      const z = f.reduce((s, v, i) => s + v * w[i]!, 0);
      const prob = 1 / (1 + Math.exp(-z));
      const weight = x.same ? 0.5 / nSame : 0.5 / nDiff;
      const r = (x.same ? 1 : 0) - prob;
      for (let i = 0; i < 4; i++) {
        g[i] = g[i]! + weight * r * f[i]!;
        for (let j = 0; j < 4; j++) h[i]![j] = h[i]![j]! + weight * prob * (1 - prob) * f[i]! * f[j]!;
      }
    });
    for (let i = 0; i < 4; i++) {
      g[i] = g[i]! - ridge * w[i]!;
      h[i]![i] = h[i]![i]! + ridge;
    }
    const step = solve4(h, g);
    for (let i = 0; i < 4; i++) w[i] = w[i]! + step[i]!;
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { a: w[0]!, b: w[1]!, c: w[2]!, e: w[3]! };
}

/** Gaussian elimination with partial pivoting for a small dense system. */
function solve4(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[piv]![c]!)) piv = r;
    [m[c], m[piv]] = [m[piv]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k] = m[r]![k]! - f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}
