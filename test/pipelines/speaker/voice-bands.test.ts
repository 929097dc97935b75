import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteVoiceprintStore } from '../../../graph/sqlite/sqlite-voiceprint-store.js';
import type { SpeakerDecisionParams } from '../../../pipelines/speaker/speaker-decision.js';
import { SpeakerTracker, type AssignOptions, type NewcomerGuard, type SpeakerTrackerOptions } from '../../../pipelines/speaker/speaker-tracker.js';
import { BAND_OFFSETS, bandOf, bandOffset, bandOffsetsFor, cosineOffset, mergeBandOffset, narrowbandModelId } from '../../../pipelines/speaker/voice-bands.js';

/** Unit vector at `deg` degrees from the x axis in the x–y plane (cosine to x = cos(deg)). */
const at = (deg: number): Float32Array => Float32Array.from([Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180), 0, 0]);
const cosDeg = (c: number): number => (Math.acos(c) * 180) / Math.PI;
/** LLR = 10·cosine; a new voice scores 5: a match needs cosine > 0.5, plus 0.1 per unit of offset. */
const DECISION: SpeakerDecisionParams = {
  modelId: 'm', calibration: { a: 0, b: 10, c: 0, e: 0 }, logPriorPrevious: 2, logPriorSession: 1, logPriorNew: 5, minFoundSeconds: 0,
};

/** Offsets of these tests (the mechanism, not the calibrated values): a cross-band match needs cosine > 0.6, a narrowband one > 0.625. */
const OFFSETS = { crossBand: 1, narrowband: 1.25 };

let created = 0;
function options(store: SqliteVoiceprintStore, extra: Partial<SpeakerTrackerOptions> = {}): SpeakerTrackerOptions {
  return {
    tenant: 't1', modelId: 'm', thresholds: { tauMatch: 0.5, tauUpdate: 0.55, alpha: 0.5 }, storeVoiceprints: true, store,
    createParticipant: async () => `p_${++created}`, decision: DECISION, bandOffsets: OFFSETS, ...extra,
  };
}

function sqlite(): { store: SqliteVoiceprintStore; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bands-'));
  const db = openDatabase(path.join(dir, 'p.db'));
  return { store: new SqliteVoiceprintStore(db), cleanup: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

describe('voice bands', () => {
  test('8 kHz streams are narrowband; offsets: none within wideband, crossBand across, narrowband on phone audio', () => {
    assert.equal(bandOf(8000), 'narrowband');
    assert.equal(bandOf(16000), 'wideband');
    assert.equal(bandOf(48000), 'wideband');
    const o = OFFSETS;
    assert.equal(bandOffset(o, 'wideband', 'wideband'), 0);
    assert.equal(bandOffset(o, 'narrowband', 'wideband'), 1);
    assert.equal(bandOffset(o, 'wideband', 'narrowband'), 1);
    assert.equal(bandOffset(o, 'narrowband', 'narrowband'), 1.25);
    assert.deepEqual(bandOffsetsFor('stats-lda-v2'), BAND_OFFSETS);
    assert.equal(bandOffsetsFor('moonshine-l1-v2'), null, 'only the embedder they were measured on');
    assert.equal(narrowbandModelId('stats-lda-v2'), 'stats-lda-v2+tel');
  });

  test('an LLR offset is worth offset / (b + c·ln d) in cosine; a calibration not rising with the cosine is refused', () => {
    const cal = { a: -1, b: 4, c: 1, e: -1 };
    assert.ok(Math.abs(cosineOffset(cal, 0.5, Math.E) - 0.5 / 5) < 1e-12);
    assert.ok(Math.abs(cosineOffset(cal, 1, 0.01) - 1 / (4 + Math.log(0.1))) < 1e-12, 'seconds floored at 0.1 as in scoreLlr');
    assert.equal(cosineOffset(cal, 0, 3), 0);
    assert.throws(() => cosineOffset({ a: 0, b: -1, c: 0, e: 0 }, 1, 2), /must rise with the cosine/);
  });

  test('the end-of-session merge of a phone session pays the narrowband offset; a wideband one, or without offsets, none', () => {
    assert.equal(mergeBandOffset('narrowband', OFFSETS), 1.25);
    assert.equal(mergeBandOffset('wideband', OFFSETS), 0);
    assert.equal(mergeBandOffset(null, OFFSETS), 0, 'no turn heard yet');
    assert.equal(mergeBandOffset('narrowband', null), 0, 'PARLEY_SPEAKER_BAND_OFFSETS=none, or the thresholds decision');
  });

  /** A tenant whose one participant `p_known` has a voiceprint at 0° made from `band` audio; the assignment of `probe`. */
  async function heard(print: 'wideband' | 'narrowband', probe: Float32Array, extra: AssignOptions, check?: (store: SqliteVoiceprintStore) => Promise<void>) {
    const { store, cleanup } = sqlite();
    try {
      await store.upsert('t1', { participantId: 'p_known', modelId: print === 'wideband' ? 'm' : narrowbandModelId('m'), vector: at(0), updateCount: 5 });
      const out = await (await SpeakerTracker.open(options(store))).assign(probe, 3, extra);
      await check?.(store);
      return out;
    } finally {
      cleanup();
    }
  }
  const phone = { band: 'narrowband' } as const;

  test('a phone turn must clear the cross-band bar against a wideband voiceprint, and leaves that voiceprint as it was', async () => {
    // Cosine 0.57 passes the plain decision (0.5) but not across bands (0.6): a new participant.
    assert.equal((await heard('wideband', at(cosDeg(0.57)), phone)).isNew, true);
    // Without the offsets (as before) the same turn is the known participant.
    const { store, cleanup } = sqlite();
    try {
      await store.upsert('t1', { participantId: 'p_known', modelId: 'm', vector: at(0), updateCount: 5 });
      assert.equal((await (await SpeakerTracker.open(options(store, { bandOffsets: null }))).assign(at(cosDeg(0.57)), 3, phone)).participantId, 'p_known');
    } finally {
      cleanup();
    }
    // Cosine 0.7 clears it: the known participant, whose wideband voiceprint is unchanged; a narrowband one is founded.
    const again = await heard('wideband', at(cosDeg(0.7)), phone, async (store) => {
      assert.deepEqual([...(await store.list('t1', 'm'))[0]!.vector], [...at(0)]);
      const tel = await store.list('t1', narrowbandModelId('m'));
      assert.deepEqual(tel.map((p) => p.participantId), ['p_known'], 'a voiceprint of phone audio, stored apart');
    });
    assert.equal(again.participantId, 'p_known');
  });

  test('a phone turn against a phone voiceprint pays the narrowband offset; a wideband turn against it the cross-band one', async () => {
    // 0.61: above the cross-band bar (0.6) but not the narrowband one (0.625).
    assert.equal((await heard('narrowband', at(cosDeg(0.61)), phone)).isNew, true);
    assert.equal((await heard('narrowband', at(cosDeg(0.64)), phone)).participantId, 'p_known');
    assert.equal((await heard('narrowband', at(cosDeg(0.58)), {})).isNew, true, 'wideband turn: cross-band bar');
    assert.equal((await heard('narrowband', at(cosDeg(0.64)), {})).participantId, 'p_known');
    // A phone turn founds its id in the narrowband space only.
    await heard('wideband', at(90), phone, async (store) => {
      assert.equal((await store.list('t1', 'm')).length, 1);
      assert.equal((await store.list('t1', narrowbandModelId('m'))).length, 1);
    });
  });
});

describe('end-of-session merges keep bands apart', () => {
  test('an id heard on the phone merged into one heard wideband: its phone voiceprint becomes theirs, not folded into the wideband one', async () => {
    const { store, cleanup } = sqlite();
    try {
      await store.upsert('t1', { participantId: 'p_wide', modelId: 'm', vector: at(0), updateCount: 3 });
      const tracker = await SpeakerTracker.open(options(store));
      const heardOnPhone = (await tracker.assign(at(90), 3, { band: 'narrowband' })).participantId;
      await tracker.applyMerges([{ from: heardOnPhone, into: 'p_wide' }]);
      assert.deepEqual([...(await store.list('t1', 'm'))[0]!.vector], [...at(0)], 'the wideband voiceprint as it was');
      assert.deepEqual((await store.list('t1', narrowbandModelId('m'))).map((p) => p.participantId), ['p_wide']);
      assert.deepEqual(tracker.prototypes().map((p) => [p.participantId, p.band]), [['p_wide', 'wideband'], ['p_wide', 'narrowband']]);
    } finally {
      cleanup();
    }
  });
});

describe('the first voice of a session that brings an external id (NewcomerGuard)', () => {
  /** p_held (at 0°) holds another external id; p_free (at 90°) holds none. */
  async function tenant(extra: Partial<SpeakerTrackerOptions> = {}): Promise<{ tracker: SpeakerTracker; cleanup: () => void }> {
    const { store, cleanup } = sqlite();
    await store.upsert('t1', { participantId: 'p_held', modelId: 'm', vector: at(0), updateCount: 5 });
    await store.upsert('t1', { participantId: 'p_free', modelId: 'm', vector: at(90), updateCount: 5 });
    return { tracker: await SpeakerTracker.open(options(store, extra)), cleanup };
  }
  const guard = (holder: string | null = null): NewcomerGuard => ({ holder, margin: 1, eligible: async (p) => p === 'p_free' });

  test('a participant holding another external id never absorbs the voice, even an exact match; a short turn may found the id', async () => {
    const { tracker, cleanup } = await tenant();
    try {
      const out = await tracker.assign(at(0), 0.5, { newcomer: guard() });
      assert.equal(out.isNew, true);
      assert.notEqual(out.participantId, 'p_held');
    } finally {
      cleanup();
    }
  });

  test('one holding no external id only above the stricter bar; the id\'s holder at the usual one', async () => {
    for (const [cos, expected] of [[0.57, null], [0.65, 'p_free']] as const) {
      const { tracker, cleanup } = await tenant();
      try {
        // Nearer still to p_held (cosine 0.82 at 0.57), who holds another id.
        const out = await tracker.assign(at(90 - cosDeg(cos)), 3, { newcomer: guard() });
        assert.equal(expected ? out.participantId : out.isNew, expected ?? true, `cosine ${cos}`);
      } finally {
        cleanup();
      }
    }
    const { tracker, cleanup } = await tenant();
    try {
      // Cosine 0.57 to p_held, 0 to p_free.
      const probe = Float32Array.from([0.57, 0, Math.sqrt(1 - 0.57 ** 2), 0]);
      assert.equal((await tracker.assign(probe, 3, { newcomer: guard('p_held') })).participantId, 'p_held');
    } finally {
      cleanup();
    }
  });

  test("a session's agents are matched at the usual bar, like the holder, whatever external id they hold", async () => {
    const { tracker, cleanup } = await tenant();
    try {
      // Cosine 0.57 to p_held (another external id, not eligible), 0 to p_free: below the stricter bar.
      const probe = Float32Array.from([0.57, 0, Math.sqrt(1 - 0.57 ** 2), 0]);
      const out = await tracker.assign(probe, 3, { newcomer: { ...guard(), agents: new Set(['p_held']) } });
      assert.equal(out.participantId, 'p_held');
    } finally {
      cleanup();
    }
  });

  test('with cosine thresholds alone: others need tauUpdate and eligibility', async () => {
    const { tracker, cleanup } = await tenant({ decision: null });
    try {
      // Cosine 0.52 to p_free: above tauMatch, below tauUpdate; and an exact match of p_held.
      const probe = Float32Array.from([0, 0.52, Math.sqrt(1 - 0.52 ** 2), 0]);
      assert.equal((await tracker.assign(probe, 3, { newcomer: guard() })).isNew, true, 'below tauUpdate');
      assert.equal((await tracker.assign(at(0), 3, { newcomer: { ...guard(), eligible: async () => false } })).isNew, true, 'holds another id');
      assert.equal((await tracker.assign(at(90), 3, { newcomer: guard() })).participantId, 'p_free', 'above tauUpdate, no id');
    } finally {
      cleanup();
    }
  });
});
