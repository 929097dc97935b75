import { cosine, l2Normalise } from './speaker-embedder.js';

/**
 * Deferred founding (issue #17 item 2, far-field): a turn of under `minSeconds` voiced speech that the decision gives
 * to a new voice does not found an id. It is "pending": attributed for now to the best id the session has (as a turn
 * too short to found one), and its embedding is pooled with the following pending turns (weighted by voiced seconds).
 * Once the pool holds `minSeconds`, the decision is run on the pooled embedding: a new voice founds one id from the
 * pool, and the pool's earlier turns are moved to it (`SpeakerAssignment.revised`); an existing id ends the pool (its
 * turns stay where they were given).
 */
export interface DeferredFounding {
  /** A new voice needs this many voiced seconds (one turn, or pending turns pooled), > 0. */
  minSeconds: number;
  /**
   * A pending turn joins the pool only when its cosine to the pool's mean is at least this; otherwise the pool starts
   * again from it (two new voices are not pooled). Null or absent: every pending turn joins.
   */
  minPoolCosine?: number | null;
  /**
   * Only in sessions whose decided turns so far stayed with the voice just heard at least this share of the time (in
   * [0, 1]; a session with no transition yet does not defer): a meeting with a dominant voice, not a round-robin.
   * Null or absent: every session.
   */
  minStayRate?: number | null;
}

/** One pending turn. */
export interface PendingTurn {
  /** The tracker's index of the turn. */
  turn: number;
  vector: Float32Array;
  seconds: number;
  /** The id it was given for now. */
  provisional: string;
}

/** Throws on a setting that cannot be applied. */
export function validateDeferral(d: DeferredFounding): void {
  if (!(Number.isFinite(d.minSeconds) && d.minSeconds > 0)) throw new RangeError('defer.minSeconds must be a finite number of seconds > 0');
  if (d.minPoolCosine != null && !(d.minPoolCosine >= -1 && d.minPoolCosine <= 1)) throw new RangeError('defer.minPoolCosine must be a cosine in [-1, 1]');
  if (d.minStayRate != null && !(d.minStayRate >= 0 && d.minStayRate <= 1)) throw new RangeError('defer.minStayRate must be in [0, 1]');
}

/** Whether a session that stayed with the voice just heard `stays` of `transitions` times defers (`minStayRate`). */
export function defers(d: DeferredFounding, stays: number, transitions: number): boolean {
  return d.minStayRate == null || (transitions > 0 && stays / transitions >= d.minStayRate);
}

/** The pool's embedding (the seconds-weighted mean of its turns, L2-normalised) and its voiced seconds. */
export function pooled(pool: readonly PendingTurn[]): { vector: Float32Array; seconds: number } {
  const dim = pool[0]?.vector.length ?? 0;
  const sum = new Float32Array(dim);
  let seconds = 0;
  for (const p of pool) {
    seconds += p.seconds;
    for (let i = 0; i < dim; i++) sum[i] = sum[i]! + p.seconds * p.vector[i]!;
  }
  return { vector: l2Normalise(sum), seconds };
}

/** The pool after `turn` joins it: appended, or alone when it is unlike the pool's mean (`minPoolCosine`). */
export function joinPool(d: DeferredFounding, pool: readonly PendingTurn[], turn: PendingTurn): PendingTurn[] {
  if (pool.length > 0 && d.minPoolCosine != null && cosine(turn.vector, pooled(pool).vector) < d.minPoolCosine) return [turn];
  return [...pool, turn];
}
