import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { revisionFor, turnsToMove, validateRevision, type FirstTurnRevision, type Founding, type RevisableTurn } from '../../../pipelines/speaker/first-turn-revision.js';
import type { SpeakerDecisionParams } from '../../../pipelines/speaker/speaker-decision.js';
import { SpeakerTracker, type SpeakerTrackerOptions } from '../../../pipelines/speaker/speaker-tracker.js';
import { narrowbandModelId } from '../../../pipelines/speaker/voice-bands.js';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteVoiceprintStore } from '../../../graph/sqlite/sqlite-voiceprint-store.js';

/** Unit vector at `deg` degrees from the x axis in the x–y plane. */
const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180), 0, 0]);
/** LLR = 10·cosine − 5 at any duration: a turn joins an id above cosine ≈ 0.4 (with the session priors). */
const D: SpeakerDecisionParams = { modelId: 'm', calibration: { a: -5, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 1, minFoundSeconds: 0 };
const R: FirstTurnRevision = { window: 16, margin: -1 };

const turn = (participantId: string, deg: number, score: number, extra: Partial<RevisableTurn> = {}): RevisableTurn =>
  ({ participantId, vector: at(deg), seconds: 2, voicedSeconds: 2, score, founding: false, ...extra });
const founding = (extra: Partial<Founding> = {}): Founding => ({ into: 'B', vector: at(90), seconds: 2, previous: 'A', transitions: 3, stays: 2, ...extra });

describe('turnsToMove', () => {
  test('moves the previous id\'s newest turns that the new voice explains better, stops at the first it does not', () => {
    // "N began there": 2 + 10·cos(80°) − 5 = −1.3 against 6; 2 + 10·cos(40°) − 5 = 4.7 and 4.9 against 3.4.
    const turns = [turn('A', 0, 6, { founding: true }), turn('A', 10, 6), turn('A', 50, 3.4), turn('A', 52, 3.4)];
    assert.deepEqual(turnsToMove(R, D, turns, founding()), [3, 2]);
    assert.deepEqual(turnsToMove({ ...R, margin: 2 }, D, turns, founding()), [], 'a margin of 2 nats keeps them');
    assert.deepEqual(turnsToMove({ ...R, window: 1 }, D, turns, founding()), [3]);
  });

  test('never moves a turn that founded its id, and skips other ids unless contiguous', () => {
    assert.deepEqual(turnsToMove(R, D, [turn('A', 60, 0, { founding: true })], founding()), []);
    const turns = [turn('A', 0, 6, { founding: true }), turn('A', 50, 3.4), turn('C', 180, 5)];
    assert.deepEqual(turnsToMove(R, D, turns, founding()), [1]);
    assert.deepEqual(turnsToMove({ ...R, contiguous: true }, D, turns, founding()), []);
  });

  test('a time window counts the voiced seconds between a turn and the founding turn', () => {
    const turns = [turn('A', 0, 6, { founding: true }), turn('A', 50, 3.4), turn('A', 50, 3.4, { voicedSeconds: 4 })];
    assert.deepEqual(turnsToMove({ ...R, windowSeconds: 3 }, D, turns, founding()), [2]);
    assert.deepEqual(turnsToMove({ ...R, windowSeconds: 5 }, D, turns, founding()), [2, 1]);
  });

  test('a minimum stay rate keeps a session where no voice spoke twice in a row (or none yet) as it is', () => {
    const turns = [turn('A', 0, 6, { founding: true }), turn('A', 50, 3.4)];
    assert.deepEqual(turnsToMove({ ...R, minStayRate: 0.3 }, D, turns, founding({ transitions: 4, stays: 1 })), []);
    assert.deepEqual(turnsToMove({ ...R, minStayRate: 0.3 }, D, turns, founding({ transitions: 0, stays: 0 })), []);
    assert.deepEqual(turnsToMove({ ...R, minStayRate: 0.3 }, D, turns, founding({ transitions: 3, stays: 1 })), [1]);
  });

  test('the setting chosen for stats-lda-v2 loads and is valid; an embedder without one gets none', () => {
    const r = revisionFor('stats-lda-v2');
    assert.ok(r);
    validateRevision(r);
    assert.equal(r.minStayRate, 0.8, 'limited to sessions whose turns mostly stay with the voice just heard');
    assert.equal(revisionFor('no-such-embedder'), null);
  });

  test('refuses options it cannot apply', () => {
    for (const bad of [{ window: 0, margin: 0 }, { window: 1.5, margin: 0 }, { window: 2, margin: Number.NaN }, { window: 2, margin: 0, windowSeconds: 0 }, { window: 2, margin: 0, minStayRate: 2 }])
      assert.throws(() => validateRevision(bad), RangeError);
  });
});

describe('SpeakerTracker with revise', () => {
  let n = 0;
  const options = (extra: Partial<SpeakerTrackerOptions> = {}): SpeakerTrackerOptions =>
    ({ tenant: 't1', modelId: 'm', thresholds: { tauMatch: 0.5, tauUpdate: 0.6, alpha: 0.5 }, storeVoiceprints: false, createParticipant: async () => `p_${++n}`, decision: D, ...extra });

  test('a founding turn takes the turn before it from the voice just heard: evidence, prototype update and all', async () => {
    n = 0;
    const tr = await SpeakerTracker.open(options({ revise: R }));
    assert.equal((await tr.assign(at(0), 2)).participantId, 'p_1');
    assert.equal((await tr.assign(at(10), 2)).participantId, 'p_1');
    const before = tr.prototypes()[0]!;
    const early = await tr.assign(at(50), 2); // the new voice's first turn, given to p_1 and updating it
    assert.deepEqual([early.participantId, early.updated, early.turn], ['p_1', true, 2]);
    const found = await tr.assign(at(100), 2);
    assert.deepEqual([found.participantId, found.isNew, found.turn], ['p_2', true, 3]);
    assert.deepEqual(found.revised, [{ turn: 2, from: 'p_1', into: 'p_2' }]);
    const stats = new Map(tr.sessionStats().map((s) => [s.participantId, s]));
    assert.deepEqual([stats.get('p_1')!.utterances, stats.get('p_2')!.utterances], [2, 2]);
    assert.equal(stats.get('p_1')!.embeddings.length, 2);
    const p1 = tr.prototypes().find((p) => p.participantId === 'p_1')!;
    assert.deepEqual([Array.from(p1.vector), p1.updateCount], [Array.from(before.vector), before.updateCount]);
    // Both turns are now p_2's: the next turn like them stays with p_2.
    assert.equal((await tr.assign(at(70), 2)).participantId, 'p_2');
  });

  test('a short turn can move too; without revise nothing moves', async () => {
    n = 0;
    const tr = await SpeakerTracker.open(options({ revise: R }));
    await tr.assign(at(0), 2);
    await tr.assign(at(10), 2);
    assert.equal((await tr.assignShort(at(55), 'p_1', 0.7))!.participantId, 'p_1');
    assert.deepEqual((await tr.assign(at(100), 2)).revised, [{ turn: 2, from: 'p_1', into: 'p_2' }]);
    n = 0;
    const off = await SpeakerTracker.open(options());
    for (const deg of [0, 10, 50]) await off.assign(at(deg), 2);
    const found = await off.assign(at(100), 2);
    assert.deepEqual([found.participantId, found.revised], ['p_2', undefined]);
  });

  test('a phone turn moved off a known voice takes away the phone voiceprint it made for that voice, in the store too', async () => {
    n = 0;
    const db = openDatabase(':memory:');
    try {
      const store = new SqliteVoiceprintStore(db);
      await store.upsert('t1', { participantId: 'p_known', modelId: 'm', vector: at(0), updateCount: 5 });
      const counts: Array<[string, number]> = [];
      const tr = await SpeakerTracker.open(options({
        revise: R, storeVoiceprints: true, store, bandOffsets: { crossBand: 1, narrowband: 1.25 }, onVoiceprintCount: async (id, c) => { counts.push([id, c]); },
      }));
      const phone = { band: 'narrowband' } as const;
      // 0 + 10·cos(41.4°) − 5 − 1 (across bands) = 1.5 > 1 (new): p_known's, who gets a phone voiceprint from it.
      const first = await tr.assign(at(41.4), 2, phone);
      assert.deepEqual([first.participantId, first.updated], ['p_known', true]);
      assert.equal((await store.list('t1', narrowbandModelId('m'))).length, 1);
      // 63.3° from that turn: 2 + 10·0.45 − 5 − 1.25 = 0.25 < 1, a new voice, which explains the first turn better
      // (2 + 4.5 − 5 = 1.5 beats its 1.5 by more than the margin of −1).
      const found = await tr.assign(at(104.7), 2, phone);
      assert.deepEqual(found.revised, [{ turn: 0, from: 'p_known', into: 'p_1' }]);
      assert.deepEqual(tr.prototypes().map((p) => [p.participantId, p.band]), [['p_known', 'wideband'], ['p_1', 'narrowband']]);
      const tel = await store.list('t1', narrowbandModelId('m'));
      assert.deepEqual(tel.map((p) => p.participantId), ['p_1'], 'p_known keeps no voiceprint of the other voice');
      assert.deepEqual([...(await store.list('t1', 'm'))[0]!.vector], [...at(0)]);
      assert.deepEqual(counts.at(-1), ['p_known', 1]);
    } finally {
      db.close();
    }
  });

  test('revise needs the calibrated decision and valid options', async () => {
    await assert.rejects(SpeakerTracker.open(options({ decision: null, revise: R })), /calibrated decision/);
    await assert.rejects(SpeakerTracker.open(options({ revise: { window: 0, margin: 0 } })), RangeError);
  });
});
