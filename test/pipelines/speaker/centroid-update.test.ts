import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chosenCentroid, updateWeight, validateCentroid, type CentroidUpdate } from '../../../pipelines/speaker/centroid-update.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteVoiceprintStore } from '../../../graph/sqlite/sqlite-voiceprint-store.js';
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
    for (const bad of [{ capSeconds: 0, onMatch: true }, { capSeconds: Number.NaN, onMatch: true }, { capSeconds: 5, onMatch: 'yes' }, { capSeconds: 5, onMatch: true, stored: 'never' }, { capSeconds: 5, onMatch: true, storedSeconds: 0 }])
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

describe('stored prototypes under the centroid update (drift over sessions)', () => {
  const t = { tauUpdate: 0.9, alpha: 0.05 };
  const c: CentroidUpdate = { capSeconds: 10, onMatch: true };

  test('a stored prototype counts as the cap, or as storedSeconds; ema and frozen keep it as before the centroid, or still', () => {
    assert.equal(updateWeight(c, {}, 0.6, 3, t), 3 / 13, 'today: a 3 s turn moves a stored print by 3 / 13');
    assert.equal(updateWeight({ ...c, storedSeconds: 27 }, {}, 0.6, 3, t), 3 / 30);
    assert.equal(updateWeight({ ...c, storedSeconds: 120 }, {}, 0.6, 3, t), 0.05, 'never under alpha');
    assert.equal(updateWeight({ ...c, stored: 'ema' }, {}, 0.6, 3, t), 0, 'ema: no update under tauUpdate');
    assert.equal(updateWeight({ ...c, stored: 'ema' }, {}, 0.95, 3, t), 0.05, 'ema: alpha at tauUpdate and above');
    assert.equal(updateWeight({ ...c, stored: 'frozen' }, {}, 0.99, 3, t), 0);
    for (const stored of ['ema', 'frozen'] as const)
      assert.equal(updateWeight({ ...c, stored, storedSeconds: 60 }, { seconds: 2 }, 0.6, 2, t), 0.5, 'a prototype of this session moves as a centroid');
    assert.equal(updateWeight(null, {}, 0.6, 3, t), 0, 'no centroid: the EMA');
    assert.equal(updateWeight(null, { seconds: 2 }, 0.95, 3, t), 0.05);
  });

  test('in the tracker, a voiceprint stored in an earlier session moves by the stored rule', async () => {
    const D2: SpeakerDecisionParams = { modelId: 'm', calibration: { a: -5, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 1, minFoundSeconds: 0 };
    const angleAfter = async (centroid: CentroidUpdate): Promise<number> => {
      const db = openDatabase(':memory:');
      try {
        const store = new SqliteVoiceprintStore(db);
        await store.upsert('t1', { participantId: 'p_known', modelId: 'm', vector: at(0), updateCount: 5 });
        const tr = await SpeakerTracker.open({ tenant: 't1', modelId: 'm', thresholds: { tauMatch: 0.5, tauUpdate: 0.9, alpha: 0.05 }, storeVoiceprints: true, store, createParticipant: async () => 'p_new', decision: D2, centroid });
        assert.equal((await tr.assign(at(20), 3)).participantId, 'p_known');
        const [p] = await store.list('t1', 'm');
        return (Math.atan2(p!.vector[1]!, p!.vector[0]!) * 180) / Math.PI;
      } finally {
        db.close();
      }
    };
    assert.ok(Math.abs((await angleAfter(c)) - 20 * (3 / 13)) < 0.5, 'today: about 23 % of the way');
    assert.ok(Math.abs((await angleAfter({ ...c, storedSeconds: 27 })) - 20 * (3 / 30)) < 0.2, '3 / 30 of the way');
    assert.equal(await angleAfter({ ...c, stored: 'frozen' }), 0, 'frozen: stored print unchanged');
    assert.ok(Math.abs((await angleAfter({ ...c, stored: 'ema' })) - 1) < 0.1, 'ema: cosine 0.94 ≥ tauUpdate, moved by alpha 0.05');
  });
});
