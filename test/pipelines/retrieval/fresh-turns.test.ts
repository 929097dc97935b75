import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Utterance } from '../../../graph/types.js';
import type { VectorStore } from '../../../graph/vector-store.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { withFreshTurns } from '../../../pipelines/retrieval/fresh-turns.js';
import { embeddedMemory, type EmbeddedMemory } from '../../helpers/memory-fixture.js';

const T = 't_fresh';
const TURNS = collectionFor('interaction');

describe('dense search over turns scores turns not consolidated yet (real USE-lite, SQLite)', () => {
  let m: EmbeddedMemory;
  let vectors: VectorStore;
  let said: Utterance[] = [];
  let ana = '';
  let ben = '';
  const embed = async (text: string): Promise<Float32Array> => (await m.embedder.embed([text]))[0]!;
  const idOf = (text: string): string => said.find((u) => u.text === text)!.id;

  before(async () => {
    m = embeddedMemory();
    ana = (await m.graph.createParticipant(T, { name: 'Ana' })).id;
    ben = (await m.graph.createParticipant(T, { name: 'Ben' })).id;
    await m.graph.openSession(T, 's1', '2026-12-01T10:00:00Z');
    const line = (speakerId: string, text: string, second: number, confidence: number | null = null) => ({
      sessionId: 's1', speakerId, addresseeIds: [speakerId === ana ? ben : ana], text, startMs: null, endMs: null,
      time: `2026-12-01T10:00:${String(second).padStart(2, '0')}Z`, confidence, audioRef: null,
    });
    said = await m.graph.addUtterances(T, [
      line(ana, 'My cat Miko loves tuna.', 1),
      line(ben, 'It was sunny in Lisbon.', 2),
      line(ana, 'the cat eats fish every day', 3, 0.1),
      line(ben, 'We should paint the fence.', 4),
    ]);
    // Only the Lisbon turn was consolidated; the others wait for their jobs.
    await m.consolidate(T, 's1', idOf('It was sunny in Lisbon.'));
    vectors = withFreshTurns(m.vectors, m.graph, embed, { minAsrConfidence: 0.35 });
  });
  after(async () => {
    await m.close();
  });

  test('a turn with no vector yet is ranked by its cosine among the stored points; doubtful speech is not', async () => {
    const q = await embed('what does the cat like to eat?');
    const plain = await m.vectors.search(T, TURNS, q, 10);
    assert.deepEqual(plain.map((h) => h.id), [idOf('It was sunny in Lisbon.')], 'the store alone holds the consolidated turn only');
    const hits = await vectors.search(T, TURNS, q, 10);
    assert.equal(hits[0]?.id, idOf('My cat Miko loves tuna.'), JSON.stringify(hits));
    assert.deepEqual(new Set(hits.map((h) => h.id)), new Set(['My cat Miko loves tuna.', 'It was sunny in Lisbon.', 'We should paint the fence.'].map(idOf)));
    assert.deepEqual(hits.map((h) => h.score), [...hits.map((h) => h.score)].sort((a, b) => b - a), 'best first');
    assert.equal((await vectors.search(T, TURNS, q, 1)).length, 1, 'k holds');
  });

  test('the search filters hold for them too, and the other collections are the store\'s own', async () => {
    const q = await embed('what does the cat like to eat?');
    assert.deepEqual((await vectors.search(T, TURNS, q, 10, { speakerId: ben })).map((h) => h.id).sort(),
      [idOf('It was sunny in Lisbon.'), idOf('We should paint the fence.')].sort());
    assert.deepEqual((await vectors.search(T, TURNS, q, 10, { ids: [idOf('We should paint the fence.')] })).map((h) => h.id),
      [idOf('We should paint the fence.')], 'a pool of ids scores only those');
    assert.deepEqual(await vectors.search(T, collectionFor('fact'), q, 10), await m.vectors.search(T, collectionFor('fact'), q, 10));
    assert.equal(await vectors.count(T, TURNS), 1, 'nothing is written');
  });

  test('once consolidated, a turn is found once, as the stored point', async () => {
    await m.consolidate(T, 's1', idOf('My cat Miko loves tuna.'));
    const hits = await vectors.search(T, TURNS, await embed('what does the cat like to eat?'), 10);
    assert.equal(hits.filter((h) => h.id === idOf('My cat Miko loves tuna.')).length, 1);
    assert.ok(typeof hits[0]?.payload.textHash === 'string', 'the stored point, with its payload');
  });
});
