import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideSpeaker, decisionFor, fitCalibration, scoreLlr, validateDecision, type SpeakerDecisionParams } from '../../../pipelines/speaker/speaker-decision.js';
import { SpeakerTracker, type SpeakerTrackerOptions } from '../../../pipelines/speaker/speaker-tracker.js';

/** LLR = 10·(cosine − 0.5), whatever the duration: same speaker above cosine 0.5. */
const P: SpeakerDecisionParams = {
  modelId: 'm',
  calibration: { a: -5, b: 10, c: 0, e: 0 },
  logPriorPrevious: 2,
  logPriorSession: 1,
  logPriorNew: -1,
  minFoundSeconds: 1.5,
};

/** Unit vector at `deg` degrees from the x axis in the x–y plane (cosine to x = cos(deg)). */
const at = (deg: number, dim = 4): Float32Array => {
  const v = new Float32Array(dim);
  v[0] = Math.cos((deg * Math.PI) / 180);
  v[1] = Math.sin((deg * Math.PI) / 180);
  return v;
};

describe('decideSpeaker', () => {
  test('a new voice wins only when its prior beats every id\'s prior + LLR', () => {
    // cos 0.3: LLR −2, prior 0 (known, not in session) → −2 < −1: new.
    assert.equal(decideSpeaker(P, [{ participantId: 'a', cosine: 0.3, inSession: false }], 3, null).participantId, null);
    // Same cosine, id heard in this session: −2 + 1 = −1, not above −1: still new (ties go to new).
    assert.equal(decideSpeaker(P, [{ participantId: 'a', cosine: 0.3, inSession: true }], 3, null).participantId, null);
    // The voice just heard: −2 + 2 = 0 > −1: kept.
    assert.equal(decideSpeaker(P, [{ participantId: 'a', cosine: 0.3, inSession: true }], 3, 'a').participantId, 'a');
  });

  test('the prior of the voice just heard can outweigh a slightly better cosine of another id', () => {
    const a = { participantId: 'a', cosine: 0.6, inSession: true }; // −5 + 6 + 2 (previous) = 3
    const b = (cosine: number): { participantId: string; cosine: number; inSession: boolean } => ({ participantId: 'b', cosine, inSession: true });
    assert.equal(decideSpeaker(P, [a, b(0.65)], 3, 'a').participantId, 'a'); // b: 1.5 + 1 = 2.5 < 3
    assert.equal(decideSpeaker(P, [a, b(0.8)], 3, 'a').participantId, 'b'); // b: 3 + 1 = 4 > 3
    assert.equal(decideSpeaker(P, [a, b(0.65)], 3, 'b').participantId, 'b'); // now b is the previous voice: 3.5 vs 2
  });

  test('too little speech never founds an id while one exists; with none it does', () => {
    const far = [{ participantId: 'a', cosine: -0.5, inSession: true }];
    assert.equal(decideSpeaker(P, far, 3, null).participantId, null);
    assert.equal(decideSpeaker(P, far, 1, null).participantId, 'a');
    assert.equal(decideSpeaker(P, far, 3, null, false).participantId, 'a');
    assert.equal(decideSpeaker(P, [], 1, null).participantId, null);
  });

  test('scoreLlr uses the duration term', () => {
    const c = { a: 0, b: 1, c: 1, e: 1 };
    assert.ok(Math.abs(scoreLlr(c, 0.5, Math.E) - (0.5 + 0.5 + 1)) < 1e-12);
    assert.equal(scoreLlr(c, 0.5, 1), 0.5);
  });

  test('validateDecision refuses missing or non-finite fields', () => {
    assert.doesNotThrow(() => validateDecision(P));
    assert.throws(() => validateDecision({ ...P, logPriorNew: Number.NaN }), /finite/);
    assert.throws(() => validateDecision({ ...P, calibration: { a: 0, b: 1, c: 0 } as never }), /finite/);
    assert.throws(() => validateDecision({ ...P, minFoundSeconds: -1 }), /minFoundSeconds/);
  });
});

describe('decisionFor', () => {
  test('loads the shipped stats-lda-v2 decision; an embedder without one gets null', () => {
    const d = decisionFor('stats-lda-v2');
    assert.ok(d);
    assert.equal(d.modelId, 'stats-lda-v2');
    // The calibrated LLR rises with the cosine at every duration.
    for (const sec of [0.75, 3]) assert.ok(scoreLlr(d.calibration, 0.8, sec) > scoreLlr(d.calibration, 0.3, sec));
    assert.equal(decisionFor('wespeaker-resnet34'), null);
  });
});

describe('fitCalibration', () => {
  test('recovers a monotone LLR that separates synthetic same/different scores, crossing zero between them', () => {
    let x = 12345;
    const rand = (): number => (x = (x * 1664525 + 1013904223) % 4294967296) / 4294967296;
    const gauss = (): number => Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    const pairs = [
      ...Array.from({ length: 400 }, () => ({ cosine: 0.7 + 0.1 * gauss(), seconds: 2, same: true })),
      ...Array.from({ length: 4000 }, () => ({ cosine: 0.3 + 0.1 * gauss(), seconds: 2, same: false })),
    ];
    const c = fitCalibration(pairs);
    // Equal-variance Gaussians: true LLR = (μs − μd)/σ² · (s − (μs + μd)/2) = 40 · (s − 0.5), balanced classes.
    assert.ok(Math.abs(scoreLlr(c, 0.5, 2)) < 0.5, `LLR at the midpoint ${scoreLlr(c, 0.5, 2)}`);
    assert.ok(scoreLlr(c, 0.6, 2) > 2 && scoreLlr(c, 0.4, 2) < -2);
    assert.throws(() => fitCalibration(pairs.filter((p) => p.same)), /same- and different/);
  });
});

describe('SpeakerTracker with a calibrated decision', () => {
  const open = (extra: Partial<SpeakerTrackerOptions> = {}): Promise<SpeakerTracker> => {
    let n = 0;
    return SpeakerTracker.open({ tenant: 't', modelId: 'm', thresholds: { tauMatch: 0.9, tauUpdate: 0.95, alpha: 0.5 }, storeVoiceprints: false, createParticipant: async () => `p_${++n}`, decision: P, ...extra });
  };

  test('keeps the voice just heard at a cosine the thresholds alone would call new', async () => {
    const tr = await open();
    assert.equal((await tr.assign(at(0), 3)).participantId, 'p_1');
    const b = await tr.assign(at(70), 3); // cos 0.34: LLR −1.6 + 2 (previous) = 0.4 > −1
    assert.deepEqual([b.participantId, b.isNew, b.updated], ['p_1', false, false]);
    const plain = await open({ decision: null });
    await plain.assign(at(0), 3);
    assert.equal((await plain.assign(at(70), 3)).isNew, true);
  });

  test('a clearly different voice founds an id; a short one goes to an existing id', async () => {
    const tr = await open();
    await tr.assign(at(0), 3);
    assert.equal((await tr.assign(at(180), 1)).participantId, 'p_1'); // 1 s < minFoundSeconds
    const c = await tr.assign(at(180), 3);
    assert.deepEqual([c.participantId, c.isNew], ['p_2', true]);
    // assignShort never founds: the best hypothesis, the previous voice p_2 (cos 1 to it).
    assert.equal((await tr.assignShort(at(175), null))!.participantId, 'p_2');
  });

  test('assignShort with no prototype returns null', async () => {
    const tr = await open();
    assert.equal(await tr.assignShort(at(0), null), null);
  });
});
