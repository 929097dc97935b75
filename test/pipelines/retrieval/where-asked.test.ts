import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { askedSlots, inAskedOrder, validityAsked } from '../../../pipelines/retrieval/where-asked.js';

describe('validityAsked: what holds at present, or what lasts, by the words of the question', () => {
  test('present: now, currently, staying, at the moment, this week, these days, the present of "be" in a where question', () => {
    for (const q of ['Where is Lena now?', 'Where is Lena staying?', "Where's Ben at the moment?", 'Where is Ana currently?', 'Where is Lena?',
      'Who is Lena visiting this week?', 'Where is Sam working this week?', 'What is Omar eating these days?', 'Who is Eva working for currently?',
      'What is Priya doing for work at the moment?']) assert.equal(validityAsked(q), 'present', q);
  });
  test('lasting: home, employer, job, habit words — one wins over "now"', () => {
    for (const q of ['Where does Lena live?', 'Where does Lena live now?', 'Where is Ben based?', "Where's Ana's home?", 'Where does Sam work?',
      "Who is Sam's employer?", "What is Raj's profession?", 'What does Ines usually eat?', 'What company does Eva work for?',
      "What is Mia's long-term plan?"]) assert.equal(validityAsked(q), 'lasting', q);
  });
  test('neither', () => {
    for (const q of ['What does Lena do?', 'When is the party?', 'Where did we put the keys yesterday?', 'What did Ana promise Ben?',
      'How does Gina stay confident in her business?', 'What did Caroline take away from the book?', 'Who is Lena?']) {
      assert.equal(validityAsked(q), null, q);
    }
  });
});

describe('inAskedOrder: a stay before the home for "present", the home first for "lasting"; nothing else moves', () => {
  const NOW = '2026-12-10T00:00:00.000Z';
  const fact = (id: string, slot: string | null, subjectId: string, validUntil: string | null, validTo: string | null = null): Fact =>
    ({ id, slot, subjectId, validUntil, validTo }) as Fact;
  const home = { kind: 'fact', id: 'home', score: 0.9, f: fact('home', 'lives_in', 'lena', null) };
  const other = { kind: 'turn', id: 't', score: 0.8 };
  const stay = { kind: 'fact', id: 'stay', score: 0.7, f: fact('stay', 'staying_in', 'lena', '2026-12-15T00:00:00.000Z') };
  const ben = { kind: 'fact', id: 'ben', score: 0.6, f: fact('ben', 'lives_in', 'ben', null) };
  const ranked = [home, other, stay, ben];
  const ids = (cs: readonly { id: string }[]): string[] => cs.map((c) => c.id);

  test('"present": the stay takes the home\'s place and score; the turn and the other person stay where they were', () => {
    const out = inAskedOrder(ranked, 'present', NOW);
    assert.deepEqual(ids(out), ['stay', 't', 'home', 'ben']);
    assert.deepEqual(out.map((c) => c.score), [0.9, 0.8, 0.7, 0.6], 'scores stay in order');
  });
  test('"lasting": the home before the stay; null: unchanged', () => {
    assert.deepEqual(ids(inAskedOrder([stay, other, home], 'lasting', NOW)), ['home', 't', 'stay']);
    assert.deepEqual(ids(inAskedOrder(ranked, null, NOW)), ids(ranked));
  });
  test('a stay that has ended, or a closed fact, is no current place: not moved', () => {
    assert.deepEqual(ids(inAskedOrder(ranked, 'present', '2026-12-20T00:00:00.000Z')), ids(ranked));
    const closed = { ...stay, f: fact('stay', 'staying_in', 'lena', '2026-12-15T00:00:00.000Z', '2026-12-05T00:00:00.000Z') };
    assert.deepEqual(ids(inAskedOrder([home, closed], 'present', NOW)), ['home', 'stay']);
  });
  test('a "living in Lisbon for a month" stay of lives_in counts as a stay too', () => {
    const lisbon = { kind: 'fact', id: 'lisbon', score: 0.5, f: fact('lisbon', 'lives_in', 'lena', '2026-12-31T00:00:00.000Z') };
    assert.deepEqual(ids(inAskedOrder([home, lisbon], 'present', NOW)), ['lisbon', 'home']);
    assert.deepEqual(ids(inAskedOrder([lisbon, home], 'lasting', NOW)), ['home', 'lisbon']);
  });
});

describe('inAskedOrder for every slot: a temporary value that holds before the lasting one it interrupts, or after', () => {
  const NOW = '2026-12-03T12:00:00.000Z';
  const fact = (id: string, slot: string | null, subjectId: string, validUntil: string | null): Fact =>
    ({ id, slot, subjectId, validUntil, validTo: null }) as Fact;
  const initech = { kind: 'fact', id: 'initech', score: 0.9, f: fact('initech', 'works_at', 'sam', null) };
  const turn = { kind: 'turn', id: 't', score: 0.8 };
  const hooli = { kind: 'fact', id: 'hooli', score: 0.7, f: fact('hooli', 'works_at', 'sam', '2026-12-05T00:00:00.000Z') };
  const vegan = { kind: 'fact', id: 'vegan', score: 0.6, f: fact('vegan', 'diet', 'sam', '2027-01-01T00:00:00.000Z') };
  const vegetarian = { kind: 'fact', id: 'vegetarian', score: 0.5, f: fact('vegetarian', 'diet', 'sam', null) };
  const ids = (cs: readonly { id: string }[]): string[] => cs.map((c) => c.id);

  test('an employer "until Friday" before the lasting employer for a present question, after it for a lasting one', () => {
    assert.deepEqual(ids(inAskedOrder([initech, turn, hooli], 'present', NOW)), ['hooli', 't', 'initech']);
    assert.deepEqual(ids(inAskedOrder([hooli, turn, initech], 'lasting', NOW)), ['initech', 't', 'hooli']);
  });
  test('each slot apart: a diet never takes an employer\'s place', () => {
    assert.deepEqual(ids(inAskedOrder([initech, vegetarian, hooli, vegan], 'present', NOW)), ['hooli', 'vegan', 'initech', 'vegetarian']);
    assert.deepEqual(ids(inAskedOrder([vegan, initech], 'lasting', NOW)), ['vegan', 'initech'], 'one value per slot: nothing to swap');
  });
  test('after its end the temporary value is no current value: nothing moves', () => {
    assert.deepEqual(ids(inAskedOrder([initech, hooli], 'present', '2026-12-20T00:00:00.000Z')), ['initech', 'hooli']);
  });
  test('a slotless temporary fact is no value of a slot: it never moves', () => {
    const bartender = { kind: 'fact', id: 'bar', score: 0.4, f: fact('bar', null, 'sam', '2026-12-15T00:00:00.000Z') };
    assert.deepEqual(ids(inAskedOrder([initech, bartender], 'present', NOW)), ['initech', 'bar']);
  });
});

describe('askedSlots: the slots whose current values answer a whereabouts question (answers2)', () => {
  test('a home: lives_in, then a stay; where someone is with nothing else asked: the stay, then the home; a workplace', () => {
    assert.deepEqual(askedSlots('Where does Ana live now?', ['live']), ['lives_in', 'staying_in']);
    assert.deepEqual(askedSlots('What city is Ben based in?', ['city', 'based']), ['lives_in', 'staying_in']);
    assert.deepEqual(askedSlots('Where is Zoe now?', []), ['staying_in', 'lives_in']);
    assert.deepEqual(askedSlots("where's zoe", []), ['staying_in', 'lives_in']);
    assert.deepEqual(askedSlots('Where does Ben work?', ['work']), ['works_at']);
  });
  test('none for the past tense, another thing\'s place, or a question that is not about whereabouts', () => {
    assert.deepEqual(askedSlots('Where did Ana live before?', ['live']), []);
    assert.deepEqual(askedSlots("Where is Ana's conference?", ['conference']), []);
    assert.deepEqual(askedSlots('What does Ana drink now?', ['drink']), []);
    assert.deepEqual(askedSlots('When did Ana move to Porto?', ['move', 'porto']), []);
  });
});
