import assert from 'node:assert/strict';
import { test } from 'node:test';
import { switchByKind } from '../../bench/lib/speaker-kind-switch.js';
import { emptyTally, runSessions, tallyMinus, tallySum, type Attribution, type SessionEnd } from '../../bench/lib/speaker-sessions.js';
import { ECAPA_THRESHOLDS } from '../../pipelines/speaker/speaker-thresholds.js';

const at = (speaker: string, id: string, session: number): Attribution => ({ speaker, id, session, seconds: 2 });
const end = (stays: number, transitions: number, wrongMerges = 0): SessionEnd => ({ stays, transitions, merges: { ...emptyTally(), wrongMerges } });

test('kind switch: each session from the run its base stay rate picks, ids kept apart by run, tallies of the picked sessions', () => {
  const base = {
    attributions: [at('a', 'p1', 0), at('a', 'p1', 0), at('b', 'p2', 0), at('a', 'p1', 1), at('b', 'p2', 1), at('a', 'p1', 1)],
    sessions: [end(1, 2, 1), end(0, 2, 2)],
  };
  const fused = {
    attributions: [at('a', 'p1', 0), at('a', 'p1', 0), at('b', 'p1', 0), at('a', 'p1', 1), at('b', 'p1', 1), at('a', 'p1', 1)],
    sessions: [end(2, 2, 4), end(2, 2, 8)],
  };
  const sw = switchByKind(base, fused, 0.5);
  assert.equal(sw.fusedSessions, 1);
  assert.deepEqual(sw.attributions.map((a) => [a.session, a.speaker, a.id]), [
    [0, 'a', 'fused:p1'], [0, 'a', 'fused:p1'], [0, 'b', 'fused:p1'],
    [1, 'a', 'base:p1'], [1, 'b', 'base:p2'], [1, 'a', 'base:p1'],
  ]);
  assert.equal(sw.merges.wrongMerges, 4 + 2);
  assert.equal(switchByKind(base, fused, 0).fusedSessions, 2);
  assert.equal(switchByKind(base, fused, 1).fusedSessions, 0);
  assert.throws(() => switchByKind(base, fused, 1.5), /stay-rate cut/);
  assert.throws(() => switchByKind(base, { ...fused, sessions: [end(0, 1)] }, 0.5), /same sessions/);
});

test('tallies: one session\'s part is the difference, and parts sum back', () => {
  const a = { ...emptyTally(), wrongMerges: 3, samePairs: 2 };
  const b = { ...emptyTally(), wrongMerges: 1 };
  assert.deepEqual(tallyMinus(a, b), { ...emptyTally(), wrongMerges: 2, samePairs: 2 });
  assert.deepEqual(tallySum([tallyMinus(a, b), b]), a);
});

test('runSessions tells each session\'s stay count and merge tally', async () => {
  const v = (x: number, y: number): Float32Array => Float32Array.from([x, y, 0]);
  const sessions = [
    [{ speaker: 'a', vector: v(1, 0), seconds: 3 }, { speaker: 'a', vector: v(1, 0.01), seconds: 3 }, { speaker: 'b', vector: v(0, 1), seconds: 3 }],
    [{ speaker: 'a', vector: v(1, 0), seconds: 3 }, { speaker: 'b', vector: v(0, 1), seconds: 3 }],
  ];
  const r = await runSessions(sessions, 'm', { thresholds: ECAPA_THRESHOLDS, mergeTau: 0.9 });
  assert.deepEqual(r.sessions.map((s) => [s.stays, s.transitions]), [[1, 2], [0, 1]]);
  assert.deepEqual(tallySum(r.sessions.map((s) => s.merges)), r.merges);
});
