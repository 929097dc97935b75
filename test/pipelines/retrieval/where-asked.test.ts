import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { inAskedOrder, whereAsked } from '../../../pipelines/retrieval/where-asked.js';

describe('whereAsked: where a person is now, or where they live, by the words of the question', () => {
  test('now: now, currently, staying, at the moment, the present of "be"', () => {
    for (const q of ['Where is Lena now?', 'Where is Lena staying?', "Where's Ben at the moment?", 'Where is Ana currently?', 'Where is Lena?',
      'Who is Lena visiting this week?']) assert.equal(whereAsked(q), 'now', q);
  });
  test('home: live, home, based — a home word wins over "now"', () => {
    for (const q of ['Where does Lena live?', 'Where does Lena live now?', 'Where is Ben based?', "Where's Ana's home?"]) assert.equal(whereAsked(q), 'home', q);
  });
  test('neither', () => {
    for (const q of ['What does Lena do?', 'When is the party?', 'Where did we put the keys yesterday?']) assert.equal(whereAsked(q), null, q);
  });
});

describe('inAskedOrder: a stay before the home for "now", the home first for "home"; nothing else moves', () => {
  const NOW = '2026-12-10T00:00:00.000Z';
  const fact = (id: string, slot: string | null, subjectId: string, validUntil: string | null, validTo: string | null = null): Fact =>
    ({ id, slot, subjectId, validUntil, validTo }) as Fact;
  const home = { kind: 'fact', id: 'home', score: 0.9, f: fact('home', 'lives_in', 'lena', null) };
  const other = { kind: 'turn', id: 't', score: 0.8 };
  const stay = { kind: 'fact', id: 'stay', score: 0.7, f: fact('stay', 'staying_in', 'lena', '2026-12-15T00:00:00.000Z') };
  const ben = { kind: 'fact', id: 'ben', score: 0.6, f: fact('ben', 'lives_in', 'ben', null) };
  const ranked = [home, other, stay, ben];
  const ids = (cs: readonly { id: string }[]): string[] => cs.map((c) => c.id);

  test('"now": the stay takes the home\'s place and score; the turn and the other person stay where they were', () => {
    const out = inAskedOrder(ranked, 'now', NOW);
    assert.deepEqual(ids(out), ['stay', 't', 'home', 'ben']);
    assert.deepEqual(out.map((c) => c.score), [0.9, 0.8, 0.7, 0.6], 'scores stay in order');
  });
  test('"home": the home before the stay; null: unchanged', () => {
    assert.deepEqual(ids(inAskedOrder([stay, other, home], 'home', NOW)), ['home', 't', 'stay']);
    assert.deepEqual(ids(inAskedOrder(ranked, null, NOW)), ids(ranked));
  });
  test('a stay that has ended, or a closed fact, is no current place: not moved', () => {
    assert.deepEqual(ids(inAskedOrder(ranked, 'now', '2026-12-20T00:00:00.000Z')), ids(ranked));
    const closed = { ...stay, f: fact('stay', 'staying_in', 'lena', '2026-12-15T00:00:00.000Z', '2026-12-05T00:00:00.000Z') };
    assert.deepEqual(ids(inAskedOrder([home, closed], 'now', NOW)), ['home', 'stay']);
  });
  test('a "living in Lisbon for a month" stay of lives_in counts as a stay too', () => {
    const lisbon = { kind: 'fact', id: 'lisbon', score: 0.5, f: fact('lisbon', 'lives_in', 'lena', '2026-12-31T00:00:00.000Z') };
    assert.deepEqual(ids(inAskedOrder([home, lisbon], 'now', NOW)), ['lisbon', 'home']);
    assert.deepEqual(ids(inAskedOrder([lisbon, home], 'home', NOW)), ['home', 'lisbon']);
  });
});
