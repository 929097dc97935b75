import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteVoiceprintStore } from '../../../graph/sqlite/sqlite-voiceprint-store.js';
import { decideSpeaker, type SpeakerDecisionParams } from '../../../pipelines/speaker/speaker-decision.js';
import { chosenPooledClaim, gateStoredClaims, pooledClaims, validatePooledClaim, validateStoredClaim, type StoredClaim } from '../../../pipelines/speaker/stored-claim.js';
import { SpeakerTracker } from '../../../pipelines/speaker/speaker-tracker.js';
import { parseClaims, parsePooled } from '../../../bench/lib/stored-claim-arms.js';

/** LLR = 10·(cosine − 0.5) at any duration; a new voice's log prior 1, as shipped. */
const D: SpeakerDecisionParams = { modelId: 'm', calibration: { a: -5, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 1, minFoundSeconds: 0 };
const CLAIM: StoredClaim = { cost: 0, margin: 1, minSeconds: 1.5 };

/** Unit vector at `deg` degrees from the x axis in the x–y plane. */
const at = (deg: number, dim = 4): Float32Array => {
  const v = new Float32Array(dim);
  v[0] = Math.cos((deg * Math.PI) / 180);
  v[1] = Math.sin((deg * Math.PI) / 180);
  return v;
};

/**
 * A session after one that stored two nearby voices, p_a at 0° and p_b at 30° (cosine 0.87), through a real SQLite
 * store; `run` gets its tracker.
 */
async function secondSession<T>(storedClaim: StoredClaim | null, run: (tr: SpeakerTracker) => Promise<T>): Promise<T> {
  const db = openDatabase(':memory:');
  try {
    const store = new SqliteVoiceprintStore(db);
    await store.upsert('t1', { participantId: 'p_a', modelId: 'm', vector: at(0), updateCount: 5 });
    await store.upsert('t1', { participantId: 'p_b', modelId: 'm', vector: at(30), updateCount: 5 });
    let n = 0;
    const tr = await SpeakerTracker.open({
      tenant: 't1', modelId: 'm', thresholds: { tauMatch: 0.5, tauUpdate: 0.9, alpha: 0.05 }, storeVoiceprints: true, store,
      createParticipant: async () => `p_new${++n}`, decision: D, storedClaim,
    });
    return await run(tr);
  } finally {
    db.close();
  }
}

describe('claims of stored ids', () => {
  test('a short turn close to two stored voices is given to neither: it founds an id of this session', async () => {
    // At 15°, cosine 0.97 to both: LLR 4.7 each, far above a new voice's log prior 1, and no margin between them.
    const got = await secondSession(CLAIM, async (tr) => [await tr.assignShort(at(15), null, 0.75), await tr.assign(at(15), 1), await tr.assign(at(16), 3)]);
    assert.equal(got[0], null, 'assignShort: no id of this session to go to');
    assert.deepEqual([got[1]!.participantId, got[1]!.isNew], ['p_new1', true]);
    assert.equal(got[2]!.participantId, 'p_new1', 'a longer turn between the two still claims neither; it stays with this session');
    // Without the gate the same turns go to a stored voice.
    const plain = await secondSession(null, async (tr) => [await tr.assignShort(at(15), null, 0.75), await tr.assign(at(15), 1)]);
    for (const a of plain) assert.ok(a && ['p_a', 'p_b'].includes(a.participantId), `went to ${a?.participantId}`);
  });

  test('a long turn clearly of one stored voice still re-identifies it, and the id then counts as this session\'s', async () => {
    const got = await secondSession({ cost: 1, margin: 1, minSeconds: 1.5 }, async (tr) => [await tr.assign(at(-20), 4), await tr.assignShort(at(12), null, 0.75), await tr.assign(at(14), 1)]);
    // cos 0.94 to p_a (LLR 4.4, less cost 1) against 0.64 to p_b (LLR 1.4): a margin of 3.
    assert.deepEqual([got[0]!.participantId, got[0]!.isNew], ['p_a', false]);
    assert.equal(got[1]!.participantId, 'p_a', 'p_a is now heard in this session: short turns may join it');
    assert.equal(got[2]!.participantId, 'p_a');
  });

  test('gateStoredClaims charges the cost, bars short turns and close calls, and leaves ids of this session alone', () => {
    const cands = [
      { participantId: 'a', cosine: 0.9, inSession: false },
      { participantId: 'b', cosine: 0.5, inSession: false },
      { participantId: 's', cosine: 0.9, inSession: true, llrOffset: 0.5 },
    ];
    const g = gateStoredClaims({ cost: 1, margin: 3, minSeconds: 2 }, D.calibration, cands, 3);
    assert.deepEqual(g.map((c) => c.llrOffset), [1, 1, 0.5], 'a beats b by 4 LLR ≥ 3: both pay the cost only');
    assert.deepEqual(gateStoredClaims({ cost: 1, margin: 5, minSeconds: 2 }, D.calibration, cands, 3).map((c) => c.llrOffset), [Infinity, Infinity, 0.5]);
    assert.deepEqual(gateStoredClaims({ cost: 0, margin: 0, minSeconds: 2 }, D.calibration, cands, 1.9).map((c) => c.llrOffset), [Infinity, Infinity, 0.5]);
    // Two prototypes (bands) of one participant are one voice, not a close second.
    const twoBands = [{ participantId: 'a', cosine: 0.9, inSession: false }, { participantId: 'a', cosine: 0.85, inSession: false, llrOffset: 0.2 }];
    assert.deepEqual(gateStoredClaims(CLAIM, D.calibration, twoBands, 3).map((c) => c.llrOffset), [0, 0.2]);
  });

  test('decideSpeaker never picks a barred hypothesis, even where a new voice is not allowed', () => {
    const barred = { participantId: 'a', cosine: 0.99, inSession: false, llrOffset: Infinity };
    assert.equal(decideSpeaker(D, [barred], 0, null, false).participantId, null);
    assert.equal(decideSpeaker(D, [barred, { participantId: 's', cosine: 0, inSession: true }], 3, null, false).participantId, 's');
  });

  test('settings are validated; the tracker needs the decision; the bench list parses', async () => {
    assert.throws(() => validateStoredClaim({ cost: -1, margin: 0, minSeconds: 0 }), /cost/);
    assert.throws(() => validateStoredClaim({ cost: 0, margin: Number.NaN, minSeconds: 0 }), /margin/);
    assert.throws(() => validateStoredClaim({ cost: 0, margin: 0 } as StoredClaim), /minSeconds/);
    await assert.rejects(SpeakerTracker.open({ tenant: 't', modelId: 'm', thresholds: { tauMatch: 0.5, tauUpdate: 0.9, alpha: 0.05 }, storeVoiceprints: false, createParticipant: async () => 'x', storedClaim: CLAIM }), /decision/);
    assert.deepEqual(parseClaims('0.5:1:2,0:0:1.5'), [{ cost: 0.5, margin: 1, minSeconds: 2 }, { cost: 0, margin: 0, minSeconds: 1.5 }]);
    assert.throws(() => parseClaims('1:2'), /COST:MARGIN:MINSECONDS/);
    assert.deepEqual(parsePooled('3:0,6:1'), [{ minSeconds: 3, margin: 0 }, { minSeconds: 6, margin: 1 }]);
    assert.throws(() => validatePooledClaim({ minSeconds: 0, margin: 0 }), /minSeconds/);
  });
});

describe('end-of-session claims from pooled speech', () => {
  const prints = [{ participantId: 'p_a', vector: at(0), known: true }, { participantId: 'p_b', vector: at(60), known: true }];
  const id = (participantId: string, degs: number[], seconds = 1, known = false) => ({ participantId, known, utterances: degs.map((d) => ({ vector: at(d), seconds })) });

  test('a new id whose pooled turns are clearly one stored voice claims it; too little speech or a close call does not', () => {
    // Turns at −25° and +25°: each alone cos 0.91 to p_a; pooled, cos 1 to p_a (LLR 5) and 0.5 to p_b (LLR 0).
    assert.deepEqual(pooledClaims({ minSeconds: 2, margin: 1 }, D.calibration, 1, [id('s1', [-25, 25])], prints), [{ from: 's1', into: 'p_a' }]);
    assert.deepEqual(pooledClaims({ minSeconds: 3, margin: 1 }, D.calibration, 1, [id('s1', [-25, 25])], prints), []);
    // Pooled at 30°: cos 0.87 to both, no margin.
    assert.deepEqual(pooledClaims({ minSeconds: 2, margin: 1 }, D.calibration, 1, [id('s1', [25, 35])], prints), []);
  });

  test('a stored id heard in the session is not claimable, and each stored id is claimed once, by the strongest', () => {
    assert.deepEqual(pooledClaims({ minSeconds: 1, margin: 0 }, D.calibration, 1, [id('s1', [0]), id('p_a', [5], 1, true)], prints), []);
    const two = pooledClaims({ minSeconds: 1, margin: 0 }, D.calibration, 1, [id('s1', [20]), id('s2', [2])], prints);
    assert.deepEqual(two, [{ from: 's2', into: 'p_a' }]);
  });

  test('a cannot-link pair (one named the other, different external ids) is never claimed', () => {
    assert.deepEqual(pooledClaims({ minSeconds: 1, margin: 1 }, D.calibration, 1, [id('s1', [0])], prints, [['p_a', 's1']]), []);
  });

  test('a phone session pays the band offsets the single-turn decision charges: phone against phone, and across bands', () => {
    // One stored voice; the id's speech at 30° from it: LLR 3.66, 2.66 over a new voice's log prior, enough for margin 2.
    const rule = { minSeconds: 1, margin: 2 };
    const offsets = { crossBand: 0.5, narrowband: 1 };
    const ids = [id('s1', [30, 30])];
    const phonePrint = [{ participantId: 'p_a', vector: at(0), known: true, band: 'narrowband' as const }];
    const widePrint = [{ participantId: 'p_a', vector: at(0), known: true, band: 'wideband' as const }];
    const claimed = [{ from: 's1', into: 'p_a' }];
    assert.deepEqual(pooledClaims(rule, D.calibration, 1, ids, phonePrint), claimed, 'no offsets given: as before');
    assert.deepEqual(pooledClaims(rule, D.calibration, 1, ids, phonePrint, [], { session: 'narrowband', offsets }), [], 'phone against phone: 2.66 − 1 < 2');
    assert.deepEqual(pooledClaims(rule, D.calibration, 1, ids, widePrint, [], { session: 'narrowband', offsets }), claimed, 'across bands: 2.66 − 0.5 ≥ 2');
    assert.deepEqual(pooledClaims(rule, D.calibration, 1, ids, phonePrint, [], { session: 'wideband', offsets }), claimed);
    assert.deepEqual(pooledClaims({ minSeconds: 1, margin: 2.2 }, D.calibration, 1, ids, phonePrint, [], { session: 'wideband', offsets }), [], 'a wideband session against a phone print pays the cross-band offset');
    assert.deepEqual(pooledClaims(rule, D.calibration, 1, ids, widePrint, [], { session: 'wideband', offsets }), claimed, 'wideband against wideband: none');
  });

  test('the shipped setting loads for stats-lda-v2; an embedder without one gets null', () => {
    assert.deepEqual(chosenPooledClaim('stats-lda-v2'), { minSeconds: 3, margin: 1 });
    assert.equal(chosenPooledClaim('wespeaker-resnet34'), null);
  });
});
