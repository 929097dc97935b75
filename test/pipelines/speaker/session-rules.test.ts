import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clusterSessionIds, linkageLlr, type CalibratedMerge, type SessionId } from '../../../pipelines/speaker/session-clustering.js';
import { calibratedMerge, sessionRulesFor, stayShift, validateSessionRules, validateStayPrior, type SessionRules } from '../../../pipelines/speaker/session-rules.js';
import { decisionFor, type SpeakerDecisionParams } from '../../../pipelines/speaker/speaker-decision.js';
import { SpeakerTracker } from '../../../pipelines/speaker/speaker-tracker.js';

const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)]);
const id = (participantId: string, degrees: number[], seconds = 2, known = false): SessionId =>
  ({ participantId, known, utterances: degrees.map((d) => ({ vector: at(d), seconds })) });
/** LLR = 10·(linkage − 0.5) − ln d: more pooled speech asks for a higher linkage. */
const RULE: CalibratedMerge = { calibration: { a: -5, b: 10, c: 0, e: -1 }, threshold: 0 };

describe('clusterSessionIds with the calibrated rule', () => {
  test('joins when the LLR of the linkage is above the threshold, not below it', () => {
    // Linkage cos 40° = 0.766: LLR 2.66 − ln 2 = 1.97 at 2 s each.
    const ids = [id('a', [0], 2), id('b', [40], 2)];
    assert.deepEqual(clusterSessionIds(ids, { calibrated: RULE }), [{ from: 'b', into: 'a' }]);
    // (Float32 vectors: the linkage matches cos 40° to ~1e-7.)
    const llr = linkageLlr(RULE, Math.cos((40 * Math.PI) / 180), 2, 2);
    assert.equal(clusterSessionIds(ids, { calibrated: { ...RULE, threshold: llr - 1e-4 } }).length, 1);
    assert.deepEqual(clusterSessionIds(ids, { calibrated: { ...RULE, threshold: llr + 1e-4 } }), []);
    assert.deepEqual(clusterSessionIds([id('a', [0]), id('x', [80])], { calibrated: RULE }), []); // cos 0.17: LLR −4
  });

  test('the quality term uses the smaller group\'s pooled seconds', () => {
    // Same linkage (cos 40°); the smaller id holds 2 s, then 20 s: LLR 1.97, then 2.66 − ln 20 = −0.33.
    assert.equal(clusterSessionIds([id('a', [0, 0, 0], 10), id('b', [40], 2)], { calibrated: RULE }).length, 1);
    assert.deepEqual(clusterSessionIds([id('a', [0, 0, 0], 10), id('b', [40, 40], 10)], { calibrated: RULE }), []);
  });

  test('keeps the constraints: cannot-link, two known ids, and the survivor is the known id', () => {
    const ids = [id('a', [0]), id('b', [5])];
    assert.deepEqual(clusterSessionIds(ids, { calibrated: RULE, cannotLink: [['a', 'b']] }), []);
    assert.deepEqual(clusterSessionIds([id('o1', [0], 2, true), id('o2', [3], 2, true)], { calibrated: RULE }), []);
    assert.deepEqual(clusterSessionIds([id('new', [0, 1, 2]), id('old', [1], 2, true)], { calibrated: RULE }), [{ from: 'new', into: 'old' }]);
  });

  test('takes exactly one rule, with finite numbers', () => {
    assert.throws(() => clusterSessionIds([], {}), /exactly one/);
    assert.throws(() => clusterSessionIds([], { linkageTau: 0.9, calibrated: RULE }), /exactly one/);
    assert.throws(() => clusterSessionIds([], { calibrated: { ...RULE, threshold: Number.NaN } }), /finite/);
  });
});

describe('session rules', () => {
  test('the threshold is ln(cost ratio) − ln(prior odds same)', () => {
    const c = { a: 0, b: 1, c: 0, e: 0 };
    assert.equal(calibratedMerge({ calibration: c, logPriorOddsSame: 0.5, logCostRatio: 2 }).threshold, 1.5);
  });

  test('the stay shift is 0 without evidence, falls with alternation and rises with stays', () => {
    const s = { mean: 0.8, strength: 3 };
    assert.ok(Math.abs(stayShift(s, 0, 0)) < 1e-12);
    assert.ok(Math.abs(stayShift(s, 8, 10)) < 1e-12); // 8 of 10 at mean 0.8 keeps the estimate at 0.8
    assert.ok(stayShift(s, 0, 10) < -2);
    assert.ok(stayShift(s, 10, 10) > 0.5);
    assert.ok(Number.isFinite(stayShift(s, 1000, 1000)) && Number.isFinite(stayShift(s, 0, 1000)));
  });

  test('validation refuses bad numbers', () => {
    const ok: SessionRules = { modelId: 'm', merge: { calibration: { a: 0, b: 1, c: 0, e: 0 }, logPriorOddsSame: 0, logCostRatio: 0 }, stay: { mean: 0.5, strength: 1 } };
    assert.doesNotThrow(() => validateSessionRules(ok));
    assert.doesNotThrow(() => validateSessionRules({ ...ok, stay: null }));
    assert.throws(() => validateSessionRules({ ...ok, merge: { ...ok.merge, logCostRatio: Number.POSITIVE_INFINITY } }), /finite/);
    assert.throws(() => validateStayPrior({ mean: 1, strength: 3 }), /mean/);
    assert.throws(() => validateStayPrior({ mean: 0.5, strength: 0 }), /strength/);
  });

  test('the shipped stats-lda-v2 rules load; an embedder without them gets null', () => {
    const r = sessionRulesFor('stats-lda-v2');
    assert.ok(r);
    assert.equal(r.modelId, 'stats-lda-v2');
    // The stated prior odds are the decision's own: an id of this session against a new voice.
    const d = decisionFor('stats-lda-v2')!;
    assert.equal(r.merge.logPriorOddsSame, d.logPriorSession - d.logPriorNew);
    assert.equal(sessionRulesFor('wespeaker-resnet34'), null);
  });
});

describe('SpeakerTracker with the online stay prior', () => {
  /** LLR = 10·cosine; a new voice (log prior 5) wins only where every id scores below cosine ~0.3. */
  const D: SpeakerDecisionParams = { modelId: 'm', calibration: { a: 0, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 5, minFoundSeconds: 0 };
  const open = (stay: { mean: number; strength: number } | null): Promise<SpeakerTracker> => {
    let n = 0;
    return SpeakerTracker.open({ tenant: 't', modelId: 'm', thresholds: { tauMatch: 0.9, tauUpdate: 0.95, alpha: 0.5 }, storeVoiceprints: false, createParticipant: async () => `p_${++n}`, decision: D, stay });
  };

  test('after strictly alternating turns an ambiguous turn goes to the other voice, not the one just heard', async () => {
    const run = async (stay: { mean: number; strength: number } | null): Promise<string> => {
      const tr = await open(stay);
      // Two voices found, then strict alternation (22 decided transitions, no stay).
      const a = (await tr.assign(at(0), 3)).participantId;
      const b = (await tr.assign(at(90), 3)).participantId;
      assert.notEqual(a, b);
      for (let k = 0; k < 10; k++) {
        assert.equal((await tr.assign(at(0), 3)).participantId, a);
        assert.equal((await tr.assign(at(90), 3)).participantId, b);
      }
      assert.equal((await tr.assign(at(0), 3)).participantId, a);
      // 46.4°: cosine 0.690 to a (just heard), 0.724 to b; LLR gap 0.34, under the fixed 1-nat prior gap.
      return (await tr.assign(at(46.4), 3)).participantId;
    };
    assert.equal(await run(null), 'p_1', 'the fixed prior keeps the voice just heard');
    assert.equal(await run({ mean: 0.8, strength: 3 }), 'p_2', 'the learned stay rate (~0.1) sends it to the other voice');
  });
});
