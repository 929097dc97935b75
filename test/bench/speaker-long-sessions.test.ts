import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { driftCounts, longSessions, share } from '../../bench/lib/speaker-long-sessions.js';
import type { MeetingChunk } from '../../bench/lib/speaker-meeting.js';
import type { Attribution } from '../../bench/lib/speaker-sessions.js';

const chunk = (speaker: string, k: number): MeetingChunk => {
  const whole = { speaker, vector: Float32Array.from([k]), seconds: 3 };
  return { speaker, whole, fragments: [{ ...whole, seconds: 0.75 }, { ...whole, seconds: 0.75 }] };
};

describe('many sessions per speaker (bench/lib/speaker-long-sessions.ts)', () => {
  test('every chunk is heard at most once per run, sessions hold 2–3 speakers, and the run ends when speech runs out', () => {
    const chunks = ['a', 'b', 'c', 'd'].flatMap((s) => Array.from({ length: 12 }, (_, k) => chunk(s, 100 * s.charCodeAt(0) + k)));
    const sessions = longSessions([chunks], 7);
    assert.ok(sessions.length >= 4);
    const heard = sessions.flat().filter((u) => u.seconds === 3).map((u) => u.vector[0]);
    assert.equal(new Set(heard).size, heard.length, 'no whole chunk twice');
    for (const s of sessions) assert.ok(new Set(s.map((u) => u.speaker)).size <= 3);
    assert.deepEqual(longSessions([chunks], 7), sessions, 'seeded');
    const far = chunks.map((c) => ({ ...c, whole: { ...c.whole, vector: Float32Array.from([-c.whole.vector[0]!]) } }));
    const mixed = longSessions([chunks, far], 7).flat().map((u) => u.vector[0]!);
    assert.ok(mixed.some((x) => x < 0) && mixed.some((x) => x > 0), 'mixed runs draw each session from one of the conditions');
  });

  test('re-identification and wrong attribution count by the speaker\'s session number', () => {
    const a = (speaker: string, id: string, session: number): Attribution => ({ speaker, id, session, seconds: 1 });
    const d = driftCounts([
      a('x', 'p1', 0), a('x', 'p1', 0), a('y', 'p2', 0), a('y', 'p2', 0),
      a('x', 'p1', 1), a('y', 'p1', 1), a('z', 'p2', 1),
      a('x', 'p3', 2), a('y', 'p2', 2),
    ]);
    // Session 1: x back on p1 (re-identified); y back on p1, x's (wrong); z new on p2, y's (wrong for a newcomer).
    // Session 2: x on p3, new (neither); y on p2, still y's most (re-identified).
    assert.deepEqual(d.back, [0, 5, 2, 2]);
    assert.deepEqual(d.reidentified, [0, 0, 1, 1]);
    assert.deepEqual(d.wrong, [0, 1, 1, 0]);
    assert.equal(share(d.reidentified, d.back, 2, 3), 0.5);
    assert.ok(Number.isNaN(share(d.reidentified, d.back, 4)));
  });
});
