import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type SqliteDatabase } from '../../../graph/sqlite/database.js';
import { SqliteGraphStore } from '../../../graph/sqlite/sqlite-graph-store.js';
import type { Utterance } from '../../../graph/types.js';
import { spreadToNeighbours } from '../../../pipelines/retrieval/session-context.js';

const T = 't_ctx';

describe('context-aware scoring: scores spread to neighbouring turns of the same session', () => {
  let db: SqliteDatabase;
  let graph: SqliteGraphStore;
  const s1: Utterance[] = [];
  const s2: Utterance[] = [];
  before(async () => {
    db = openDatabase(':memory:');
    graph = new SqliteGraphStore(db);
    const a = (await graph.createParticipant(T, { name: 'Ana' })).id;
    const b = (await graph.createParticipant(T, { name: 'Ben' })).id;
    for (const [session, out] of [['s1', s1], ['s2', s2]] as const) {
      await graph.openSession(T, session, '2026-01-01T10:00:00Z');
      out.push(...await graph.addUtterances(T, [0, 1, 2, 3, 4].map((i) => ({
        sessionId: session, speakerId: i % 2 ? b : a, addresseeIds: [i % 2 ? a : b], text: `${session} turn ${i}`,
        startMs: null, endMs: null, time: `2026-01-01T10:0${i}:00Z`, confidence: null, audioRef: null,
      }))));
    }
  });
  after(() => db.close());

  test('the next turns get the forward share (halving per step), the previous ones the back share', async () => {
    const hit = s1[2] as Utterance;
    const seen = new Map<string, Utterance>();
    const out = await spreadToNeighbours(graph, T, [{ id: hit.id, score: 1 }], seen, { weight: 0.6, backWeight: 0.2, window: 2 });
    const score = new Map(out.map((o) => [o.id, o.score]));
    assert.equal(score.get(hit.id), 1);
    assert.equal(score.get((s1[3] as Utterance).id), 0.6);
    assert.equal(score.get((s1[4] as Utterance).id), 0.3);
    assert.equal(score.get((s1[1] as Utterance).id), 0.2);
    assert.equal(score.get((s1[0] as Utterance).id), 0.1);
    assert.ok(s2.every((u) => !score.has(u.id)), 'never crosses into another session');
    assert.deepEqual(out.map((o) => o.id)[0], hit.id, 'best first');
    assert.ok(seen.has((s1[4] as Utterance).id), 'utterances read are collected for hydration');
  });

  test('a later turn by the same speaker (the story carried on) can keep more of the share', async () => {
    const hit = s1[2] as Utterance; // spoken by Ana; turn 4 is Ana's again, turn 3 is Ben's reply
    const out = await spreadToNeighbours(graph, T, [{ id: hit.id, score: 1 }], new Map(), { weight: 0.6, backWeight: 0, window: 2, sameSpeakerDecay: 1.5 });
    const score = new Map(out.map((o) => [o.id, o.score]));
    assert.equal(score.get((s1[3] as Utterance).id), 0.6, 'the other speaker\'s reply: unchanged');
    assert.ok(Math.abs((score.get((s1[4] as Utterance).id) ?? 0) - 0.4) < 1e-9, 'same speaker two turns on: 0.6 / 1.5, not 0.6 / 2');
  });

  test('a turn that ends in a question passes a larger share to the reply after it', async () => {
    await graph.openSession(T, 's3', '2026-01-02T10:00:00Z');
    const [a, b] = (await graph.listParticipants(T)).map((p) => p.id) as [string, string];
    const s3 = await graph.addUtterances(T, ['Which book did you like most?', 'Becoming Nicole, by far.'].map((text, i) => ({
      sessionId: 's3', speakerId: i ? b : a, addresseeIds: [i ? a : b], text, startMs: null, endMs: null,
      time: `2026-01-02T10:0${i}:00Z`, confidence: null, audioRef: null,
    })));
    const hit = [{ id: (s3[0] as Utterance).id, score: 1 }];
    const plain = await spreadToNeighbours(graph, T, hit, new Map(), { weight: 0.4, window: 1 });
    const asked = await spreadToNeighbours(graph, T, hit, new Map(), { weight: 0.4, window: 1, questionBoost: 0.5 });
    const reply = (s3[1] as Utterance).id;
    assert.equal(plain.find((o) => o.id === reply)?.score, 0.4);
    assert.ok(Math.abs((asked.find((o) => o.id === reply)?.score ?? 0) - 0.6) < 1e-9);
  });

  test('shares add up; a zero weight leaves the scores as they were', async () => {
    const input = [{ id: (s2[1] as Utterance).id, score: 1 }, { id: (s2[3] as Utterance).id, score: 1 }];
    const out = await spreadToNeighbours(graph, T, input, new Map(), { weight: 0.5, backWeight: 0.5, window: 1 });
    assert.equal(new Map(out.map((o) => [o.id, o.score])).get((s2[2] as Utterance).id), 1, 'between two hits');
    assert.deepEqual(await spreadToNeighbours(graph, T, input, new Map(), { weight: 0, backWeight: 0 }), input);
  });

  test('in a long session only the turns around the hits are read, never the whole transcript', async () => {
    const [a, b] = (await graph.listParticipants(T)).map((p) => p.id) as [string, string];
    const c = (await graph.createParticipant(T, { name: 'Cleo' })).id;
    await graph.openSession(T, 'long', '2026-01-03T10:00:00Z');
    // 300 turns; Cleo speaks turn 101, then is erased: a gap in the session's sequence.
    const long = await graph.addUtterances(T, Array.from({ length: 300 }, (_, i) => ({
      sessionId: 'long', speakerId: i === 101 ? c : i % 2 ? b : a, addresseeIds: [i % 2 ? a : b], text: `long turn ${i}`,
      startMs: null, endMs: null, time: '2026-01-03T10:00:00Z', confidence: null, audioRef: null,
    })));
    await graph.deleteParticipant(T, c);
    let rows = 0;
    const counting = {
      getUtterances: async (tenant: string, ids: string[]) => { const r = await graph.getUtterances(tenant, ids); rows += r.length; return r; },
      recentUtterances: async (tenant: string, session: string, n: number, before?: number) => {
        const r = await graph.recentUtterances(tenant, session, n, before);
        rows += r.length;
        return r;
      },
      getTranscript: async (tenant: string, session: string) => { const r = await graph.getTranscript(tenant, session); rows += r.length; return r; },
    };
    const at = (i: number): string => (long[i] as Utterance).id;
    // Hits at both ends, two whose windows touch (150, 153), and one beside the gap (103: 101 is gone).
    const hits = [0, 150, 153, 103, 299].map((i, r) => ({ id: at(i), score: 1 - r / 10 }));
    const out = await spreadToNeighbours(counting, T, hits, new Map(), { weight: 0.4, backWeight: 0.2, window: 2 });
    assert.ok(rows <= 5 + 5 * 5, `read ${rows} turns for 5 hits with a 2-turn window, not the 300-turn transcript`);
    const score = new Map(out.map((o) => [o.id, o.score]));
    const near = (i: number, want: number): void => assert.ok(Math.abs((score.get(at(i)) ?? 0) - want) < 1e-9, `turn ${i}: ${score.get(at(i))} ≠ ${want}`);
    near(1, 0.4);
    near(2, 0.2);
    near(151, 0.4 * 0.9 + 0.2 * 0.8 / 2);
    near(152, 0.4 * 0.9 / 2 + 0.2 * 0.8);
    near(149, 0.2 * 0.9);
    near(104, 0.4 * 0.7);
    near(102, 0.2 * 0.7);
    near(298, 0.2 * 0.6);
    assert.ok(!score.has(at(101)), 'an erased turn gets nothing');
    assert.ok(!score.has(at(100)), 'the gap counts as a turn: 100 is three steps before 103');
    assert.ok(!score.has(at(147)) && !score.has(at(156)), 'nothing beyond the window');
  });

  test('with a session prior, every candidate of a top session shares it, however far from the top turns', async () => {
    const long = await graph.getTranscript(T, 'long');
    const far = (long[250] as Utterance).id;
    const input = [{ id: (long[10] as Utterance).id, score: 1 }, { id: (s1[0] as Utterance).id, score: 0.5 }, { id: far, score: 0.1 }];
    const out = await spreadToNeighbours(graph, T, input, new Map(), { weight: 0.1, window: 1, top: 2, sessionWeight: 0.5 });
    const score = new Map(out.map((o) => [o.id, o.score]));
    assert.ok(Math.abs((score.get(far) ?? 0) - (0.1 + 0.5 * 1 * 1)) < 1e-9, `${score.get(far)}`);
  });
});
