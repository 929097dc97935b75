import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { joinPool, pooled, validateDeferral, type DeferredFounding } from '../../../pipelines/speaker/deferred-founding.js';
import type { SpeakerDecisionParams } from '../../../pipelines/speaker/speaker-decision.js';
import { SpeakerTracker, type SpeakerTrackerOptions } from '../../../pipelines/speaker/speaker-tracker.js';

/** Unit vector at `deg` degrees from the x axis in the x–y plane. */
const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180), 0, 0]);
/** LLR = 10·cosine − 5 at any duration: with the priors, a turn joins the voice just heard above cosine 0.4, a new voice below. */
const D: SpeakerDecisionParams = { modelId: 'm', calibration: { a: -5, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 1, minFoundSeconds: 0 };
const DEFER: DeferredFounding = { minSeconds: 4 };

describe('deferred founding: the pool', () => {
  test('pools by voiced seconds; a turn unlike the pool starts it again only with minPoolCosine', () => {
    const p = pooled([{ turn: 0, vector: at(0), seconds: 3, provisional: 'a' }, { turn: 1, vector: at(90), seconds: 1, provisional: 'a' }]);
    assert.equal(p.seconds, 4);
    assert.ok(Math.abs(Math.atan2(p.vector[1]!, p.vector[0]!) - Math.atan2(1, 3)) < 1e-6, 'the seconds-weighted mean direction');
    const pool = [{ turn: 0, vector: at(90), seconds: 2, provisional: 'a' }];
    const far = { turn: 1, vector: at(180), seconds: 2, provisional: 'a' };
    assert.equal(joinPool(DEFER, pool, far).length, 2);
    assert.deepEqual(joinPool({ ...DEFER, minPoolCosine: 0.5 }, pool, far), [far]);
  });

  test('refuses settings it cannot apply', () => {
    for (const bad of [{ minSeconds: 0 }, { minSeconds: Number.NaN }, { minSeconds: 4, minPoolCosine: 2 }, { minSeconds: 4, minStayRate: -0.1 }]) assert.throws(() => validateDeferral(bad), RangeError);
  });
});

describe('SpeakerTracker with defer', () => {
  let n = 0;
  const options = (extra: Partial<SpeakerTrackerOptions> = {}): SpeakerTrackerOptions =>
    ({ tenant: 't1', modelId: 'm', thresholds: { tauMatch: 0.5, tauUpdate: 0.6, alpha: 0.5 }, storeVoiceprints: false, createParticipant: async () => `p_${++n}`, decision: D, ...extra });

  test('without it, one short turn of a new voice founds an id', async () => {
    n = 0;
    const tr = await SpeakerTracker.open(options());
    await tr.assign(at(0), 5);
    const b = await tr.assign(at(90), 2);
    assert.deepEqual([b.participantId, b.isNew], ['p_2', true]);
  });

  test('a short new voice is pending on the voice just heard; the pool of enough seconds founds one id and takes the pending turn', async () => {
    n = 0;
    const tr = await SpeakerTracker.open(options({ defer: DEFER }));
    assert.equal((await tr.assign(at(0), 5)).participantId, 'p_1', 'the first voice of a session, long enough, founds at once');
    const pending = await tr.assign(at(90), 2);
    assert.deepEqual([pending.participantId, pending.isNew, pending.updated, pending.revised], ['p_1', false, false, undefined]);
    assert.equal(tr.prototypes().length, 1, 'no id founded from 2 s');
    assert.deepEqual(tr.sessionStats().map((s) => [s.participantId, s.utterances]), [['p_1', 1]], 'a pending turn is no evidence of its provisional id');
    assert.equal((await tr.assign(at(5), 3)).participantId, 'p_1', 'a turn that matches goes on as before');
    const found = await tr.assign(at(95), 2);
    assert.deepEqual([found.participantId, found.isNew, found.turn], ['p_2', true, 3]);
    assert.deepEqual(found.revised, [{ turn: 1, from: 'p_1', into: 'p_2' }]);
    const p2 = tr.prototypes().find((p) => p.participantId === 'p_2')!;
    assert.ok(Math.abs(Math.atan2(p2.vector[1]!, p2.vector[0]!) * 180 / Math.PI - 92.5) < 1e-3, 'the prototype is the pooled embedding');
    assert.deepEqual(tr.sessionStats().map((s) => [s.participantId, s.utterances]), [['p_1', 2], ['p_2', 2]]);
    assert.deepEqual(tr.stayCount(), { stays: 0, transitions: 3 }, 'stays counted again with the moved turn (p_1 p_2 p_1 p_2)');
  });

  test('a turn long enough founds at once; a pool that the decision gives to an existing id founds nothing', async () => {
    n = 0;
    const tr = await SpeakerTracker.open(options({ defer: DEFER }));
    await tr.assign(at(0), 5);
    assert.deepEqual([(await tr.assign(at(90), 4)).participantId], ['p_2']);
    const tr2 = await SpeakerTracker.open(options({ defer: DEFER }));
    await tr2.assign(at(0), 5);
    // Each 70° away (cosine 0.34: a new voice alone); pooled, they point at p_3's own voice.
    const a = await tr2.assign(at(70), 2);
    const b = await tr2.assign(at(-70), 2);
    assert.deepEqual([a.participantId, b.participantId, b.isNew, b.revised], ['p_3', 'p_3', false, undefined]);
    assert.equal(tr2.prototypes().length, 1);
  });

  test('with minPoolCosine, two new voices are not pooled: the second starts the pool again and founds from its own turns', async () => {
    n = 0;
    const tr = await SpeakerTracker.open(options({ defer: { minSeconds: 4, minPoolCosine: 0.5 } }));
    await tr.assign(at(0), 5);
    assert.equal((await tr.assign(at(90), 2)).participantId, 'p_1');
    assert.equal((await tr.assign(at(180), 2)).participantId, 'p_1', 'unlike the pool: pending alone, nothing founded');
    assert.equal(tr.prototypes().length, 1);
    const found = await tr.assign(at(175), 2);
    assert.deepEqual([found.participantId, found.revised], ['p_2', [{ turn: 2, from: 'p_1', into: 'p_2' }]]);
  });

  test('with minStayRate, only a session that mostly stayed with the voice just heard defers', async () => {
    n = 0;
    const gated = { minSeconds: 4, minStayRate: 0.5 };
    const fresh = await SpeakerTracker.open(options({ defer: gated }));
    await fresh.assign(at(0), 5);
    assert.deepEqual([(await fresh.assign(at(90), 2)).isNew], [true], 'no transition yet: founds as without deferral');
    const staying = await SpeakerTracker.open(options({ defer: gated }));
    await staying.assign(at(0), 5);
    await staying.assign(at(5), 3);
    const pending = await staying.assign(at(90), 2);
    assert.deepEqual([pending.participantId, pending.isNew], ['p_3', false], 'one stay in one transition: deferred');
  });

  test('needs the calibrated decision', async () => {
    await assert.rejects(SpeakerTracker.open(options({ decision: null, defer: DEFER })), /deferred founding needs the calibrated decision/);
  });
});
