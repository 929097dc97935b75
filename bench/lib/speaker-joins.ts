/**
 * Wrong joins of the session benches (bench/speaker-absorb.ts, bench/speaker-defer.ts): the end-of-session merges
 * of two ids of one speaker and of two speakers (by each id's majority speaker), and the pairs of different-speaker
 * ids that ended as one id, summed over a scenario's runs.
 */
import type { RunFigures } from './speaker-meeting-runs.js';

/** Joins summed over runs: right merges, wrong merges, different-speaker id pairs ended as one. */
export interface Joins {
  right: number;
  wrong: number;
  pairs: number;
}

/** The joins of a scenario's runs. */
export function joins(f: readonly RunFigures[]): Joins {
  return f.reduce((t, x) => ({
    right: t.right + x.merges.correctMerges, wrong: t.wrong + x.merges.wrongMerges, pairs: t.pairs + x.merges.differentPairsJoined,
  }), { right: 0, wrong: 0, pairs: 0 });
}

/** Joins summed over scenarios. */
export function sumJoins(js: readonly Joins[]): Joins {
  return js.reduce((a, b) => ({ right: a.right + b.right, wrong: a.wrong + b.wrong, pairs: a.pairs + b.pairs }), { right: 0, wrong: 0, pairs: 0 });
}

/** One line of text for a count of joins. */
export function joinText(j: Joins): string {
  return `merges ${j.right} same / ${j.wrong} different speakers, different-speaker pairs joined ${j.pairs}`;
}
