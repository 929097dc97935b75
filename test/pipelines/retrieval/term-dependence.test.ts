import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_TERM_DEPENDENCE, dependenceList, isTimeWord, pairMatches, queryPairs, rescoreByDependence, termDependence, toldPart, turnsWithin,
} from '../../../pipelines/retrieval/term-dependence.js';
import { terms } from '../../../graph/lexical-terms.js';

describe('term dependence (sequential dependence model): the question\'s adjacent word pairs in a turn', () => {
  test('pairs are the adjacent content words of the question, stemmed; one word or none makes no pair', () => {
    assert.deepEqual(queryPairs(['paint', 'sunrise']), [['paint', 'sunris']]);
    assert.deepEqual(queryPairs(['adoption', 'agencies', 'researched']), [['adopt', 'agenc'], ['agenc', 'research']]);
    assert.deepEqual(queryPairs(['research']), []);
    assert.deepEqual(queryPairs([]), []);
  });

  test('an ordered match is the pair next to each other in order (stop words do not part them); a window match either order within N words', () => {
    const doc = terms('I painted a sunrise over the lake last week');
    assert.deepEqual(pairMatches(doc, ['paint', 'sunris'], 8), { ordered: 1, unordered: 1 });
    const reversed = terms('The sunrise I saw made me want to paint');
    assert.deepEqual(pairMatches(reversed, ['paint', 'sunris'], 8), { ordered: 0, unordered: 1 });
    const far = terms('I paint a lot, mostly landscapes of mountains rivers forests valleys and lakes, never a sunrise');
    assert.deepEqual(pairMatches(far, ['paint', 'sunris'], 8), { ordered: 0, unordered: 0 });
    assert.deepEqual(pairMatches(terms('Just a sunrise.'), ['paint', 'sunris'], 8), { ordered: 0, unordered: 0 });
    // Two occurrences count twice.
    assert.deepEqual(pairMatches(terms('painting sunrises, painting sunsets, painting sunrises again'), ['paint', 'sunris'], 8).ordered, 2);
  });

  test('the score: 0.85 of the list-normalised unigram score, 0.1 ordered and 0.05 window features, each saturated', () => {
    const q = ['paint', 'sunrise'];
    const near = termDependence(q, 'I painted a sunrise last week', 10, 10, 6);
    const apart = termDependence(q, 'The sunrise was red; later I painted', 10, 10, 6);
    const none = termDependence(q, 'I painted the fence last week', 10, 10, 6);
    assert.ok(near > apart && apart > none, `${near} > ${apart} > ${none}`);
    assert.equal(none, DEFAULT_TERM_DEPENDENCE.unigram);
    assert.ok(near < 1);
    // A question of one content word is scored by its unigram score alone.
    assert.equal(termDependence(['research'], 'researching adoption agencies', 5, 10, 6), 0.5 * DEFAULT_TERM_DEPENDENCE.unigram);
  });

  test('re-scoring a BM25 list lifts a turn holding the pair above a slightly better unigram match that holds the words apart', () => {
    const q = ['paint', 'sunrise'];
    const ranked = rescoreByDependence(q, [
      { id: 'apart', text: 'The sunrise was lovely; I also paint on weekends', score: 10 },
      { id: 'near', text: 'Last year I painted a sunrise by the lake', score: 9.8 },
      { id: 'weak', text: 'Painting is fun', score: 3 },
    ]);
    assert.deepEqual(ranked, ['near', 'apart', 'weak']);
    // A far better unigram match keeps its place.
    assert.deepEqual(rescoreByDependence(q, [
      { id: 'apart', text: 'The sunrise was lovely; I also paint on weekends', score: 20 },
      { id: 'near', text: 'Last year I painted a sunrise by the lake', score: 9 },
    ]), ['apart', 'near']);
    // No pair: the order stays as it came.
    assert.deepEqual(rescoreByDependence(['research'], [{ id: 'a', text: 'x research', score: 2 }, { id: 'b', text: 'research y', score: 1 }]), ['a', 'b']);
  });

  test('the dependence list ranks turns by their pair features alone and leaves out turns holding no pair', () => {
    const q = ['paint', 'sunrise'];
    assert.deepEqual(dependenceList(q, [
      { id: 'apart', text: 'The sunrise was lovely; I also paint on weekends' },
      { id: 'none', text: 'I painted the fence' },
      { id: 'near', text: 'Last year I painted a sunrise by the lake' },
    ]), ['near', 'apart']);
    assert.deepEqual(dependenceList(['research'], [{ id: 'a', text: 'research' }]), []);
  });

  test('the dependence list reads what a turn tells: a question asked again holds no pair; by sentence, a question after a statement leaves the statement', () => {
    const q = ['paint', 'sunrise'];
    assert.deepEqual(dependenceList(q, [
      { id: 'asks', text: 'When did you paint a sunrise?' },
      { id: 'tells', text: 'I painted a sunrise! Did you see it?' },
      { id: 'asks-after', text: 'Nice. Will you paint a sunrise again?' },
    ], undefined, 'sentences'), ['tells']);
    // By default only a turn that does nothing but ask is left out; a turn telling something is read whole.
    assert.deepEqual(dependenceList(q, [
      { id: 'asks', text: 'When did you paint a sunrise?' },
      { id: 'asks-after', text: 'Nice. Will you paint a sunrise again?' },
    ]), ['asks-after']);
    assert.deepEqual(dependenceList(q, [{ id: 'asks', text: 'When did you paint a sunrise?' }], undefined, 'kept'), ['asks']);
    assert.equal(toldPart('Nice. Will you paint a sunrise again?'), 'Nice.');
    assert.equal(toldPart('what does Miko like to eat?'), '');
  });

  test('untimed pairs leave out a pair holding a word that names a time; its neighbours do not pair across it', () => {
    const q = ['weeks', 'passed', 'adopting', 'shadow'];
    assert.deepEqual(queryPairs(q), [['week', 'pass'], ['pass', 'adopt'], ['adopt', 'shadow']]);
    assert.deepEqual(queryPairs(q, 'untimed'), [['pass', 'adopt'], ['adopt', 'shadow']]);
    assert.deepEqual(queryPairs(['camping', 'june', 'lake'], 'untimed'), []);
    assert.deepEqual(queryPairs(['paint', 'sunrise'], 'untimed'), [['paint', 'sunris']]);
    assert.ok(['weeks', 'June', 'Friday', 'yesterday', '2023', '3rd'].every(isTimeWord));
    assert.ok(!['passed', 'dance', 'studio'].some(isTimeWord));
    // "How many weeks passed …" pairs with another week's news only when the time word counts.
    const turns = [
      { id: 'grandma', text: 'Hey John, I have not talked to you in a while. Last week, my grandma passed away.' },
      { id: 'shadow', text: 'I just adopted this cute pup, Shadow, from a shelter.' },
    ];
    assert.ok(dependenceList(q, turns).includes('grandma'));
    assert.deepEqual(dependenceList(q, turns, undefined, 'turns', 'untimed'), ['shadow']);
  });

  test('with the times a question names, the dependence list reads only the turns said within them', () => {
    const turns = [
      { id: 'may', text: 'A sunrise like that makes me want to paint again.', time: '2023-05-01T10:00:00.000Z' },
      { id: 'june', text: 'Last week I painted a sunrise over the lake.', time: '2023-06-01T10:00:00.000Z' },
    ];
    const june = [{ since: '2023-05-31T00:00:00.000Z', until: '2023-07-08T00:00:00.000Z' }];
    assert.deepEqual(turnsWithin(turns, june).map((t) => t.id), ['june']);
    assert.deepEqual(turnsWithin(turns, null).map((t) => t.id), ['may', 'june']);
    assert.deepEqual(turnsWithin(turns, []).map((t) => t.id), ['may', 'june']);
    assert.deepEqual(dependenceList(['paint', 'sunrise'], turnsWithin(turns, june)), ['june']);
  });

  test('bad weights or windows are refused', () => {
    assert.throws(() => termDependence(['a', 'b'], 'a b', 1, 1, 2, { unigram: -1, ordered: 0.1, unordered: 0.05, window: 8 }), /weights/);
    assert.throws(() => termDependence(['a', 'b'], 'a b', 1, 1, 2, { unigram: 0.85, ordered: 0.1, unordered: 0.05, window: 1 }), /window/);
  });
});
