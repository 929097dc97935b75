import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hasSharedSpeech } from '../../pipelines/speaker/eval-corpus.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { farField, owners, speakerSession, turns } from '../helpers/far-field-sessions.js';

const skip = hasSharedSpeech() ? false : 'shared speech data absent (../shared/data/speech)';

/**
 * The end-of-session merge of the server on real far-field recordings of held-out speakers, with the shipped
 * absorption (`PARLEY_SPEAKER_ABSORB=true`; off by default): a meeting where one voice dominates and was split over several ids,
 * and a strictly alternating conversation. (The sessions were picked on held-out speakers to show both cases; no
 * setting was chosen on them.)
 */
describe('server: small new ids absorbed at the end of a far-field meeting, real recordings', { skip }, () => {
  let t: TestApp;
  let off: TestApp;
  // Speaker 3080 dominates (12 turns around 3 of 3005's); far-field, seeded.
  const a = turns('3080', farField('3080', 4, 900));
  const b = turns('3005', farField('3005', 2, 950));
  const meeting = [...a.slice(0, 6), ...b.slice(0, 3), ...a.slice(6, 12)];
  before(async () => {
    // The sessions were picked with the EMA prototype update (before PARLEY_SPEAKER_CENTROID), which they keep.
    t = await startTestApp({ PARLEY_SPEAKER_ABSORB: 'true', PARLEY_SPEAKER_CENTROID: 'false' }, false);
    off = await startTestApp({ PARLEY_SPEAKER_CENTROID: 'false' }, false);
  });
  after(async () => {
    await t.close();
    await off.close();
  });

  test('must merge: the dominant voice\'s split ids are joined, with speaker.merged; the other voice keeps its own id', async () => {
    assert.deepEqual(t.app.models.speakerAbsorption, { maxSeconds: 16, minLinkage: 0.3, minStayRate: 0.5 });
    const { ids, merged } = await speakerSession(t, 'absorb-meeting', meeting);
    const owner = owners(meeting, ids);
    const split = [...owner.entries()].filter(([, s]) => s.size === 1 && s.has('3080')).map(([id]) => id);
    assert.ok(split.length >= 2, `the tracker split the dominant far-field voice (ids: ${JSON.stringify([...owner].map(([k, s]) => [k, [...s]]))})`);
    assert.ok(merged.length > 0, 'the merge fired');
    for (const m of merged) {
      assert.deepEqual([...owner.get(m.from)!], ['3080'], 'only the dominant voice\'s ids are joined');
      assert.deepEqual([...owner.get(m.into)!], ['3080']);
    }
    const participants = new Set((await t.app.stores.graph.listParticipants('absorb-meeting')).map((p) => p.id));
    for (const m of merged) assert.ok(!participants.has(m.from), 'a merged-away id is gone from the graph');
    const other = [...owner.entries()].find(([, s]) => s.has('3005'))![0];
    assert.ok(participants.has(other) && !merged.some((m) => m.from === other || m.into === other), 'the other voice is not joined');
  });

  test('the same meeting by default (PARLEY_SPEAKER_ABSORB off): the cosine rule alone joins nothing', async () => {
    assert.equal(off.config.speakerAbsorb, false);
    const { merged } = await speakerSession(off, 'absorb-off', meeting);
    assert.deepEqual(merged, []);
  });

  test('must not merge: a conversation that alternates turn by turn never opens the absorption, so two voices stay apart', async () => {
    // 3331 and 3005 turn about: the tracker keeps them on four ids, one voice each, and never stays with the voice just
    // heard; ungated, the absorption would join a 3331 id with a 3005 one here (checked while writing this test).
    const c = turns('3331', farField('3331', 4, 900));
    const alternating = [0, 1, 2, 3, 4, 5].flatMap((k) => [c[k]!, b[k % b.length]!]);
    const { ids, merged } = await speakerSession(t, 'absorb-alternating', alternating);
    const owner = owners(alternating, ids);
    assert.ok([...owner.values()].every((s) => s.size === 1) && owner.size === 4, JSON.stringify([...owner].map(([k, s]) => [k, [...s]])));
    assert.deepEqual(merged, []);
  });
});
