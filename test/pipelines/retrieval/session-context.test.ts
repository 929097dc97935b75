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
});
