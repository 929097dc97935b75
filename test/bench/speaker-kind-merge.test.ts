import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idsOnMergePrints, kindMergeFor, parseKindMergeArms, validateKindMerge } from '../../bench/lib/speaker-kind-merge.js';
import { runSessions, type EvalUtterance } from '../../bench/lib/speaker-sessions.js';
import { ECAPA_THRESHOLDS } from '../../pipelines/speaker/speaker-thresholds.js';

const v = (...x: number[]): Float32Array => Float32Array.from(x);

test('kind merge: only in a meeting-like session (stay rate at least the cut), and checked', () => {
  const k = { minStayRate: 0.7, linkageTau: 0.9 };
  assert.equal(kindMergeFor(k, 7, 10), k);
  assert.equal(kindMergeFor(k, 6, 10), null);
  assert.equal(kindMergeFor(k, 0, 0), null);
  assert.equal(kindMergeFor(null, 10, 10), null);
  assert.throws(() => validateKindMerge({ minStayRate: 1.2, linkageTau: 0.9 }), /stay-rate cut/);
  assert.throws(() => validateKindMerge({ minStayRate: 0.7, linkageTau: 1.5 }), /linkage/);
});

test('kind merge arms: weight:threshold pairs in order, each checked', () => {
  assert.deepEqual(parseKindMergeArms('0.5:0.60,0.5:0.65, 1:0.49'), [{ w: 0.5, linkageTau: 0.6 }, { w: 0.5, linkageTau: 0.65 }, { w: 1, linkageTau: 0.49 }]);
  assert.throws(() => parseKindMergeArms('0.5'), /W:TAU/);
  assert.throws(() => parseKindMergeArms('0.5:x'), /W:TAU/);
  assert.throws(() => parseKindMergeArms('1.5:0.6'), /weight/);
  assert.throws(() => parseKindMergeArms('0.5:1.6'), /linkage/);
  assert.throws(() => parseKindMergeArms(''), /W:TAU/);
});

test('ids on merge prints: each id keeps its known flag and pools its attributed utterances\' merge prints', () => {
  const ids = [
    { participantId: 'p1', known: true, utterances: [{ vector: v(1, 0), seconds: 2 }] },
    { participantId: 'p2', known: false, utterances: [{ vector: v(0, 1), seconds: 3 }, { vector: v(0, 1), seconds: 1 }] },
  ];
  const out = idsOnMergePrints(ids, [
    { id: 'p2', seconds: 3, print: v(0, 0, 1) }, { id: 'p1', seconds: 2, print: v(1, 0, 0) }, { id: 'p3', seconds: 2, print: v(1, 1, 1) }, { id: 'p2', seconds: 1, print: v(0, 1, 0) },
  ]);
  assert.deepEqual(out.map((x) => [x.participantId, x.known, x.utterances.map((u) => [...u.vector, u.seconds])]), [
    ['p1', true, [[1, 0, 0, 2]]],
    ['p2', false, [[0, 0, 1, 3], [0, 1, 0, 1]]],
  ]);
});

test('runSessions with a kind merge: a meeting-like session joins its ids on the merge prints, a round-robin one keeps the default merge', async () => {
  // The tracker's prints tell a's two halves apart (two ids); the merge prints say they are one voice.
  const u = (speaker: string, x: number[], m: number[]): EvalUtterance => ({ speaker, vector: v(...x), seconds: 3, mergeVector: v(...m) });
  // Stay rate 6 of 8 (ids p1 ×4, p2 ×4, p3): meeting-like at 0.7.
  const meeting = [...[0, 0.01, 0.02, 0.01].map((e) => u('a', [1, e, 0], [1, 0])), ...[0, 0.01, 0.02, 0.01].map((e) => u('a', [0, e, 1], [1, e])), u('b', [0, 1, 0], [0, 1])];
  const roundRobin = [u('a', [1, 0, 0], [1, 0]), u('b', [0, 1, 0], [0, 1]), u('a', [0, 0, 1], [1, 0]), u('b', [0, 1, 0], [0, 1])];
  const o = { thresholds: ECAPA_THRESHOLDS, mergeTau: 0.9, kindMerge: { minStayRate: 0.7, linkageTau: 0.9 } };
  const m = await runSessions([meeting], 'm', o);
  assert.equal(new Set(m.attributions.filter((a) => a.speaker === 'a').map((a) => a.id)).size, 1);
  assert.equal(m.merges.correctMerges, 1);
  assert.equal(m.merges.wrongMerges, 0);
  const off = await runSessions([meeting], 'm', { ...o, kindMerge: null });
  assert.equal(new Set(off.attributions.filter((a) => a.speaker === 'a').map((a) => a.id)).size, 2);
  const r = await runSessions([roundRobin], 'm', o);
  assert.equal(new Set(r.attributions.filter((a) => a.speaker === 'a').map((a) => a.id)).size, 2);
  assert.equal(r.merges.correctMerges, 0);
});
