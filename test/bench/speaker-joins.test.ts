import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joins, joinText, sumJoins } from '../../bench/lib/speaker-joins.js';
import { scoreRuns } from '../../bench/lib/speaker-meeting-runs.js';
import type { EvalUtterance, RunOptions } from '../../bench/lib/speaker-sessions.js';

const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180), 0, 0]);
const turn = (speaker: string, deg: number, seconds: number): EvalUtterance => ({ speaker, vector: at(deg), seconds });
const run: RunOptions = { thresholds: { tauMatch: 0.8, tauUpdate: 0.9, alpha: 0.5 }, mergeTau: 0.99 };
// a dominates; b speaks once, far from a (cos 70° ≈ 0.34): its own small id.
const meeting: EvalUtterance[] = [turn('a', 0, 5), turn('a', 5, 5), turn('b', 70, 2), turn('a', 0, 5)];
// a alone, one turn split off at 40° (cos ≈ 0.77, below tauMatch): the small id joins a's other id.
const split: EvalUtterance[] = [turn('a', 0, 5), turn('a', 0, 5), turn('a', 40, 2), turn('a', 0, 5)];

test('wrong joins: a small id of another speaker absorbed counts as a wrong merge and a different-speaker pair joined', async () => {
  const absorb = { ...run, absorb: { maxSeconds: 4, minLinkage: 0 } };
  const off = await scoreRuns([[meeting], [split]], 'm', run);
  const on = await scoreRuns([[meeting], [split]], 'm', absorb);
  assert.deepEqual(joins(off), { right: 0, wrong: 0, pairs: 0 });
  assert.deepEqual(joins(on), { right: 1, wrong: 1, pairs: 1 });
  assert.deepEqual(sumJoins([joins(on), joins(on.slice(0, 1))]), { right: 1, wrong: 2, pairs: 2 });
  assert.equal(joinText(joins(on)), 'merges 1 same / 1 different speakers, different-speaker pairs joined 1');
});
