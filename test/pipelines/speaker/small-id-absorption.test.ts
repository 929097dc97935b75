import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { absorptionFor, chosenAbsorption, meetingLike, validateAbsorption } from '../../../pipelines/speaker/small-id-absorption.js';
import { SpeakerTracker } from '../../../pipelines/speaker/speaker-tracker.js';

describe('small-id absorption settings', () => {
  test('the session gate: only when the turns stayed with the voice just heard at least minStayRate of the time', () => {
    const absorb = { maxSeconds: 16, minLinkage: 0.3, minStayRate: 0.5 };
    assert.equal(absorptionFor(absorb, 5, 10), absorb);
    assert.equal(absorptionFor(absorb, 4, 10), null);
    assert.equal(absorptionFor(absorb, 0, 0), null, 'a session of one turn has no stays to read');
    const always = { maxSeconds: 16, minLinkage: 0.3 };
    assert.equal(absorptionFor(always, 0, 10), always);
    assert.equal(absorptionFor(null, 10, 10), null);
  });

  test('the tracker counts stays, short turns given to the voice just heard included', async () => {
    let n = 0;
    const tracker = await SpeakerTracker.open({ tenant: 't', modelId: 'm', thresholds: { tauMatch: 0.9, tauUpdate: 0.95, alpha: 0.1 }, storeVoiceprints: false, createParticipant: async () => `id${++n}` });
    const v = (x: number, y: number): Float32Array => Float32Array.from([x, y]);
    const a = await tracker.assign(v(1, 0), 3);
    await tracker.assign(v(0, 1), 3);
    await tracker.assignShort(v(0.7, 0.7), 'id2', 0.5);
    await tracker.assign(v(1, 0), 3);
    assert.equal(a.participantId, 'id1');
    assert.deepEqual(tracker.stayCount(), { stays: 1, transitions: 3 });
  });

  test('bad settings are refused; the shipped stats-lda-v2 setting loads, other embedders have none', () => {
    assert.throws(() => validateAbsorption({ maxSeconds: Number.NaN, minLinkage: 0 }), /maxSeconds/);
    assert.throws(() => validateAbsorption({ maxSeconds: 4, minLinkage: -2 }), /minLinkage/);
    assert.throws(() => validateAbsorption({ maxSeconds: 4, minLinkage: 0, minStayRate: 1.5 }), /minStayRate/);
    assert.deepEqual(chosenAbsorption('stats-lda-v2'), { maxSeconds: 16, minLinkage: 0.3, minStayRate: 0.5 });
    assert.equal(chosenAbsorption('no-such-embedder'), null);
  });
});

test('meeting-like: the stay rate at least the cut, never a session without transitions', () => {
  assert.equal(meetingLike(5, 10, 0.5), true);
  assert.equal(meetingLike(4, 10, 0.5), false);
  assert.equal(meetingLike(0, 0, 0), false);
  assert.equal(meetingLike(0, 3, 0), true);
});
