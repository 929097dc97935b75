import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chosenCentroid, validateCentroid, type CentroidUpdate } from '../../../pipelines/speaker/centroid-update.js';
import type { SpeakerDecisionParams } from '../../../pipelines/speaker/speaker-decision.js';
import { SpeakerTracker, type SpeakerTrackerOptions } from '../../../pipelines/speaker/speaker-tracker.js';

/** Unit vector at `deg` degrees from the x axis in the x–y plane. */
const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180), 0, 0]);
/** LLR = 10·cosine − 5 at any duration. */
const D: SpeakerDecisionParams = { modelId: 'm', calibration: { a: -5, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 1, minFoundSeconds: 0 };

describe('centroid update setting', () => {
  test('the setting chosen for stats-lda-v2 loads (10 s, every match); an embedder without one gets none', () => {
    assert.deepEqual(chosenCentroid('stats-lda-v2'), { capSeconds: 10, onMatch: true });
    assert.equal(chosenCentroid('no-such-embedder'), null);
  });

  test('refuses settings it cannot apply, in the tracker too', async () => {
    for (const bad of [{ capSeconds: 0, onMatch: true }, { capSeconds: Number.NaN, onMatch: true }, { capSeconds: 5, onMatch: 'yes' }])
      assert.throws(() => validateCentroid(bad as unknown as CentroidUpdate), RangeError);
    await assert.rejects(SpeakerTracker.open({ tenant: 't', modelId: 'm', thresholds: { tauMatch: 0.5, tauUpdate: 0.9, alpha: 0.05 }, storeVoiceprints: false, createParticipant: async () => 'p', decision: D, centroid: { capSeconds: -1, onMatch: true } }), RangeError);
  });
});

describe('SpeakerTracker with centroid prototype updates', () => {
  let n = 0;
  const options = (extra: Partial<SpeakerTrackerOptions> = {}): SpeakerTrackerOptions =>
    ({ tenant: 't1', modelId: 'm', thresholds: { tauMatch: 0.5, tauUpdate: 0.9, alpha: 0.05 }, storeVoiceprints: false, createParticipant: async () => `p_${++n}`, decision: D, ...extra });
  const angle = (v: Float32Array): number => (Math.atan2(v[1]!, v[0]!) * 180) / Math.PI;

  test('a young prototype moves by the seconds behind it, up to the cap; onMatch updates below tauUpdate', async () => {
    const ema = await SpeakerTracker.open(options());
    await ema.assign(at(0), 2);
    await ema.assign(at(20), 2);
    assert.ok(Math.abs(angle(ema.prototypes()[0]!.vector) - 1) < 0.05, 'the EMA at alpha 0.05');
    const tr = await SpeakerTracker.open(options({ centroid: { capSeconds: 10, onMatch: false } }));
    await tr.assign(at(0), 2);
    assert.equal((await tr.assign(at(20), 2)).updated, true);
    assert.ok(Math.abs(angle(tr.prototypes()[0]!.vector) - 10) < 0.05, '2 s behind, 2 s more: halfway');
    assert.equal((await tr.assign(at(40), 2)).updated, false, 'cosine under tauUpdate: no update without onMatch');
    const on = await SpeakerTracker.open(options({ centroid: { capSeconds: 2, onMatch: true } }));
    await on.assign(at(0), 2);
    await on.assign(at(30), 2);
    const third = await on.assign(at(40), 6);
    assert.equal(third.updated, true);
    assert.ok(Math.abs(angle(on.prototypes()[0]!.vector) - 15 - (40 - 15) * 0.75) < 0.5, 'behind capped at 2 s: weight 6 / 8');
  });
});
