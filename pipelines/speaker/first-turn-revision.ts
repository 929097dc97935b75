import path from 'node:path';
import { repoRoot } from '../models/repo-root.js';
import { readSpeakerParams, scoreLlr, type SpeakerDecisionParams } from './speaker-decision.js';
import { cosine } from './speaker-embedder.js';
import type { WeightedEmbedding } from './session-clustering.js';
import type { VoiceBand } from './voice-bands.js';

/**
 * Re-scoring the turns before a founding turn (issue #17 item 2): the first turn (or fragments) of a new
 * voice often goes to the voice just heard, and only a later turn founds the new id. When a turn founds id
 * N after a turn of id P, P's latest turns of the session (newest first) are scored again as two-turn
 * hypotheses: "the turn was P's, then N began" (the score that gave it to P) against "N began at that
 * turn, the founding turn stayed with N" (log prior of the voice just heard + the calibrated LLR of the
 * cosine between the two turns, at the shorter turn's voiced seconds). A turn moves to N when the second
 * beats the first by more than `margin` nats; the first turn that does not, stops the walk.
 */
export interface FirstTurnRevision {
  /** P's turns re-scored at most (newest first), > 0. */
  window: number;
  /** Nats by which "N began there" must beat the turn's own score. */
  margin: number;
  /** Only P's turns with no other id between them and the founding turn. Default false. */
  contiguous?: boolean;
  /**
   * Only turns that end within this many voiced seconds before the founding turn (the voiced seconds of
   * every turn between, the turn itself excluded). Null or absent: no bound.
   */
  windowSeconds?: number | null;
  /**
   * Only in sessions whose decided turns so far stayed with the voice just heard at least this often
   * (stays / transitions before the founding turn; a session with no transition yet does not revise).
   * A round-robin session, where no voice speaks twice in a row, never revises. Null or absent: always.
   */
  minStayRate?: number | null;
}

/** One decided turn of the session as the revision sees it. */
export interface RevisableTurn {
  participantId: string;
  vector: Float32Array;
  /** Voiced seconds the decision scored the turn with (0 for a short turn). */
  seconds: number;
  /** Voiced seconds of the turn (for `windowSeconds`). */
  voicedSeconds: number;
  /** The log prior + LLR that gave the turn to its id. */
  score: number;
  /** The turn founded its id (never moved: its id would keep no turn). */
  founding: boolean;
}

/** Throws on options that cannot be applied. */
export function validateRevision(r: FirstTurnRevision): void {
  if (!(Number.isInteger(r.window) && r.window > 0)) throw new RangeError('first-turn revision: window must be an integer > 0');
  if (!Number.isFinite(r.margin)) throw new RangeError('first-turn revision: margin must be a finite number');
  if (r.windowSeconds != null && !(r.windowSeconds > 0)) throw new RangeError('first-turn revision: windowSeconds must be > 0');
  if (r.minStayRate != null && !(r.minStayRate >= 0 && r.minStayRate <= 1)) throw new RangeError('first-turn revision: minStayRate must be in [0, 1]');
}

/** What `pipelines/speaker/params/<modelId>-revision.json` holds: the setting chosen for an embedder (bench/speaker-revise.ts). */
export interface RevisionParams {
  modelId: string;
  revision: FirstTurnRevision;
}

/** Where an embedder's chosen revision lives. */
export function revisionParamsPath(modelId: string): string {
  return path.join(repoRoot(), 'pipelines', 'speaker', 'params', `${modelId}-revision.json`);
}

/**
 * The revision chosen for an embedder, or null when none was chosen for it. Throws on a file that is not a
 * valid setting or was chosen for another embedder.
 */
export function revisionFor(modelId: string): FirstTurnRevision | null {
  return readSpeakerParams<RevisionParams>(revisionParamsPath(modelId), modelId, (p) => validateRevision(p.revision ?? ({} as FirstTurnRevision)))?.revision ?? null;
}

/** The founding turn and what the session knew when it was decided. */
export interface Founding {
  /** The id founded. */
  into: string;
  vector: Float32Array;
  seconds: number;
  /** The id of the turn before it (the voice just heard). */
  previous: string;
  /** Decided turns before it that followed another turn, and how many stayed with the voice just heard. */
  transitions: number;
  stays: number;
}

/**
 * Indices into `turns` (the session's turns before the founding turn, oldest first) that move from
 * `founding.previous` to `founding.into`, newest first.
 */
export function turnsToMove(r: FirstTurnRevision, d: SpeakerDecisionParams, turns: readonly RevisableTurn[], founding: Founding): number[] {
  if (r.minStayRate != null && (founding.transitions === 0 || founding.stays / founding.transitions < r.minStayRate)) return [];
  const out: number[] = [];
  let seen = 0;
  let between = 0;
  for (let i = turns.length - 1; i >= 0 && seen < r.window; i--) {
    const t = turns[i]!;
    if (r.windowSeconds != null && between > r.windowSeconds) break;
    between += t.voicedSeconds;
    if (t.participantId !== founding.previous) {
      if (r.contiguous) break;
      continue;
    }
    seen++;
    if (t.founding) break;
    const stayed = d.logPriorPrevious + scoreLlr(d.calibration, cosine(t.vector, founding.vector), Math.min(t.seconds, founding.seconds));
    if (stayed - t.score <= r.margin) break;
    out.push(i);
  }
  return out;
}

/** A decided turn as the tracker holds it for the revision. */
export interface HeldTurn extends RevisableTurn {
  /** Its index in the session. */
  turn: number;
  /** The session evidence the turn added (null for a short turn). */
  kept: WeightedEmbedding | null;
  /** The id's prototype before this turn updated it (null: no update). */
  before: Float32Array | null;
  /**
   * The band of the prototype this turn gave its id, made from the turn alone (a match across bands, the id having
   * none of the turn's band); null when it made none. A revision that moves the turn removes that prototype.
   */
  created: VoiceBand | null;
}

/** Turns the tracker holds for the revision (the newest). */
export const MAX_HELD_TURNS = 256;

/**
 * The prototype to go back to when `moved` (an id's newest turns, newest first) leave it: the one before the
 * oldest of their updates, and how many updates that undoes. Null when none of them updated it.
 */
export function undoneUpdates(moved: readonly HeldTurn[]): { vector: Float32Array; count: number } | null {
  const updates = moved.filter((t) => t.before !== null);
  return updates.length === 0 ? null : { vector: updates.at(-1)!.before!, count: updates.length };
}

/** Turns in `sequence` (ids in order) by the id of the turn before them. */
export function stays(sequence: readonly string[]): number {
  return sequence.reduce((n, id, i) => n + (i > 0 && id === sequence[i - 1] ? 1 : 0), 0);
}
