import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openDatabase } from '../../../graph/sqlite/database.js';
import { SqliteVoiceprintStore } from '../../../graph/sqlite/sqlite-voiceprint-store.js';
import { cosine, l2Normalise } from '../../../pipelines/speaker/speaker-embedder.js';
import { SpeakerTracker, type SpeakerTrackerOptions } from '../../../pipelines/speaker/speaker-tracker.js';

/** Unit vector at `deg` degrees from the x axis in the x–y plane (cosine to x = cos(deg)). */
const at = (deg: number, dim = 4): Float32Array => {
  const v = new Float32Array(dim);
  v[0] = Math.cos((deg * Math.PI) / 180);
  v[1] = Math.sin((deg * Math.PI) / 180);
  return v;
};
const T = { tauMatch: 0.5, tauUpdate: 0.8, alpha: 0.5 };

function sessionOptions(extra: Partial<SpeakerTrackerOptions> = {}): SpeakerTrackerOptions {
  let n = 0;
  return { tenant: 't1', modelId: 'm', thresholds: T, storeVoiceprints: false, createParticipant: async () => `p_${++n}`, ...extra };
}

function sqlite(): { store: SqliteVoiceprintStore; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-trk-'));
  const db = openDatabase(path.join(dir, 'p.db'));
  return { store: new SqliteVoiceprintStore(db), cleanup: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

describe('SpeakerTracker', () => {
  test('first voice is new; same voice matches; a voice below tauMatch gets a new id', async () => {
    const tr = await SpeakerTracker.open(sessionOptions());
    const a = await tr.assign(at(0));
    assert.deepEqual([a.participantId, a.isNew], ['p_1', true]);
    const b = await tr.assign(at(30)); // cos 0.87 ≥ 0.5
    assert.deepEqual([b.participantId, b.isNew], ['p_1', false]);
    assert.ok(Math.abs(b.confidence - Math.cos(Math.PI / 6)) < 1e-6);
    const c = await tr.assign(at(90)); // cos 0 < 0.5 to p_1
    assert.deepEqual([c.participantId, c.isNew], ['p_2', true]);
  });

  test('EMA update only at or above tauUpdate; between thresholds the id links but the prototype stays', async () => {
    const tr = await SpeakerTracker.open(sessionOptions());
    await tr.assign(at(0));
    const mid = await tr.assign(at(50)); // cos 0.64: matches, below tauUpdate 0.8
    assert.equal(mid.participantId, 'p_1');
    assert.equal(mid.updated, false);
    assert.deepEqual(Array.from(tr.prototypes()[0]!.vector), Array.from(at(0)));
    const high = await tr.assign(at(20)); // cos 0.94 ≥ 0.8 → EMA with alpha 0.5
    assert.equal(high.updated, true);
    const expected = l2Normalise(Float32Array.from(at(0), (x, i) => 0.5 * x + 0.5 * at(20)[i]!));
    const proto = tr.prototypes()[0]!;
    assert.ok(cosine(proto.vector, expected) > 0.999999);
    assert.equal(proto.updateCount, 2);
  });

  test('rejects tauUpdate below tauMatch', async () => {
    await assert.rejects(SpeakerTracker.open(sessionOptions({ thresholds: { tauMatch: 0.6, tauUpdate: 0.5, alpha: 0.1 } })));
  });

  test('with consent, prototypes persist in SQLite and a later session re-identifies the voice', async () => {
    const { store, cleanup } = sqlite();
    try {
      const counts: [string, number][] = [];
      const s1 = await SpeakerTracker.open(sessionOptions({ storeVoiceprints: true, store, onVoiceprintCount: async (p, c) => void counts.push([p, c]) }));
      const ana = await s1.assign(at(0));
      const ben = await s1.assign(at(90));
      assert.equal((await store.list('t1', 'm')).length, 2);
      assert.deepEqual(counts, [[ana.participantId, 1], [ben.participantId, 1]]);
      let created = 0;
      const s2 = await SpeakerTracker.open(sessionOptions({ storeVoiceprints: true, store, createParticipant: async () => `new_${++created}` }));
      const again = await s2.assign(at(10));
      assert.deepEqual([again.participantId, again.isNew], [ana.participantId, false]);
      assert.equal((await s2.assign(at(85))).participantId, ben.participantId);
      assert.equal(created, 0);
      // Another tenant and another embedder see none of it.
      const other = await SpeakerTracker.open(sessionOptions({ tenant: 't2', storeVoiceprints: true, store }));
      assert.equal((await other.assign(at(0))).isNew, true);
      const otherModel = await SpeakerTracker.open(sessionOptions({ modelId: 'm2', storeVoiceprints: true, store }));
      assert.equal((await otherModel.assign(at(0))).isNew, true);
    } finally {
      cleanup();
    }
  });

  test('without consent nothing is persisted and identity stays within the session', async () => {
    const { store, cleanup } = sqlite();
    try {
      const s1 = await SpeakerTracker.open(sessionOptions({ storeVoiceprints: false, store }));
      const a = await s1.assign(at(0));
      assert.equal((await s1.assign(at(5))).participantId, a.participantId);
      assert.deepEqual(await store.list('t1'), []);
      const s2 = await SpeakerTracker.open(sessionOptions({ storeVoiceprints: false, store, createParticipant: async () => 'p_fresh' }));
      assert.deepEqual(await s2.assign(at(0)), { participantId: 'p_fresh', confidence: 1, isNew: true, updated: false, turn: 0 });
      assert.deepEqual(await store.list('t1'), []);
    } finally {
      cleanup();
    }
  });

  test('concurrent assigns of a new voice create one id', async () => {
    const tr = await SpeakerTracker.open(sessionOptions());
    const rs = await Promise.all([tr.assign(at(0)), tr.assign(at(3)), tr.assign(at(6))]);
    assert.deepEqual(rs.map((r) => r.participantId), ['p_1', 'p_1', 'p_1']);
  });

  test('applyMerges folds prototypes and session stats, and reassigns stored prints', async () => {
    const { store, cleanup } = sqlite();
    try {
      const tr = await SpeakerTracker.open(sessionOptions({ storeVoiceprints: true, store }));
      const a = await tr.assign(at(0));
      const b = await tr.assign(at(70)); // cos 0.34 < 0.5 → a fragment
      await tr.applyMerges([{ from: b.participantId, into: a.participantId }]);
      assert.deepEqual(tr.prototypes().map((p) => p.participantId), [a.participantId]);
      assert.deepEqual(tr.sessionStats().map((s) => [s.participantId, s.utterances]), [[a.participantId, 2]]);
      const prints = await store.list('t1');
      assert.deepEqual(prints.map((p) => p.participantId), [a.participantId]);
      assert.equal(prints[0]!.updateCount, 2);
    } finally {
      cleanup();
    }
  });

  test('relabel: a voice merged elsewhere is heard as the survivor, with its session evidence', async () => {
    const tr = await SpeakerTracker.open(sessionOptions());
    await tr.assign(at(0));
    await tr.assign(at(90));
    await tr.relabel('p_1', 'p_9');
    const again = await tr.assign(at(5));
    assert.deepEqual([again.participantId, again.isNew], ['p_9', false]);
    assert.deepEqual(tr.sessionStats().map((s) => [s.participantId, s.utterances]).sort(), [['p_2', 1], ['p_9', 2]]);
    assert.deepEqual(tr.prototypes().map((p) => p.participantId).sort(), ['p_2', 'p_9']);
  });

  test('forget: an erased participant\'s voice, heard again, is a new participant; other voices stay', async () => {
    const tr = await SpeakerTracker.open(sessionOptions());
    await tr.assign(at(0));
    await tr.assign(at(90));
    assert.deepEqual(await tr.forget((id) => id === 'p_1'), ['p_1']);
    const again = await tr.assign(at(0));
    assert.deepEqual([again.participantId, again.isNew], ['p_3', true]);
    assert.equal((await tr.assign(at(90))).participantId, 'p_2');
    assert.ok(tr.sessionStats().every((s) => s.participantId !== 'p_1'), 'no evidence of the erased id is left for the end-of-session merge');
  });

  test('assignShort: joins a matching voice or the previous one, never founds an id or moves a prototype', async () => {
    const tr = await SpeakerTracker.open(sessionOptions());
    assert.equal(await tr.assignShort(at(0), null), null, 'nothing to join yet');
    const a = await tr.assign(at(0));
    const b = await tr.assign(at(90));
    const before = tr.prototypes().map((p) => Array.from(p.vector));
    const stats = tr.sessionStats().map((s) => s.utterances);
    const near = await tr.assignShort(at(10), b.participantId);
    assert.deepEqual([near?.participantId, near?.isNew, near?.updated], [a.participantId, false, false]);
    assert.ok(Math.abs(near!.confidence - Math.cos(Math.PI / 18)) < 1e-6);
    // 200° scores below tauMatch (0.5) against both prototypes: the previous voice.
    const prev = await tr.assignShort(at(200), b.participantId);
    assert.deepEqual([prev?.participantId, prev?.confidence, prev?.isNew], [b.participantId, 0, false]);
    assert.equal(await tr.assignShort(at(200), 'p_unknown'), null, 'a previous id the tracker does not hold is not used');
    assert.deepEqual(tr.prototypes().map((p) => Array.from(p.vector)), before);
    assert.deepEqual(tr.sessionStats().map((s) => s.utterances), stats);
    assert.equal(tr.prototypes().length, 2);
  });
});
