import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ANSWERABLE_RELEVANCE, answerable, relevance, relevanceSignals } from '../../../pipelines/retrieval/relevance.js';

const ana = { id: 'p-ana', name: 'Ana' };
const ben = { id: 'p-ben', name: 'Ben' };
const item = (text: string, sourceText: string | null = null, speaker = ana, addressees = [ben]) =>
  ({ text, source_text: sourceText, speaker, addressees });
const unit = (...xs: number[]): Float32Array => {
  const v = Float32Array.from(xs);
  const n = Math.hypot(...xs);
  return v.map((x) => x / n);
};

describe('relevance: an estimate that an item answers the question, comparable across questions', () => {
  test('the lexical signal is the share of the question\'s content words the item holds, a fact read with its source words', () => {
    assert.equal(relevanceSignals(item('I will send the draft on Friday'), ['send', 'draft'], [], null, null).lexical, 1);
    assert.equal(relevanceSignals(item('I will send it'), ['send', 'draft'], [], null, null).lexical, 0.5);
    assert.equal(relevanceSignals(item('Ana promised something', 'I will send the draft'), ['send', 'draft'], [], null, null).lexical, 1);
    assert.equal(relevanceSignals(item('Anything at all'), [], [], null, null).lexical, 0, 'no content word: nothing matched');
  });

  test('the named signal is 1 only when a participant the question names said or heard the item', () => {
    assert.equal(relevanceSignals(item('x'), ['x'], ['p-ben'], null, null).named, 1);
    assert.equal(relevanceSignals(item('x'), ['x'], ['p-eva'], null, null).named, 0);
    assert.equal(relevanceSignals(item('x'), ['x'], [], null, null).named, 0);
  });

  test('the dense signal is the cosine of the two vectors, null when either is missing', () => {
    const s = relevanceSignals(item('x'), ['x'], [], unit(1, 0), unit(1, 1));
    assert.ok(Math.abs((s.dense ?? 0) - Math.SQRT1_2) < 1e-6);
    assert.equal(relevanceSignals(item('x'), ['x'], [], unit(1, 0), null).dense, null);
  });

  test('relevance lies in [0, 1] and rises with every signal', () => {
    const base = { lexical: 0.5, dense: 0.6, named: 0 };
    const r = relevance(base);
    assert.ok(r > 0 && r < 1);
    assert.ok(relevance({ ...base, lexical: 1 }) > r);
    assert.ok(relevance({ ...base, dense: 0.9 }) > r);
    assert.ok(relevance({ ...base, named: 1 }) > r);
    assert.ok(relevance({ lexical: 0, dense: -1, named: 0 }) >= 0);
    assert.ok(relevance({ lexical: 1, dense: 1, named: 1 }) <= 1);
  });

  test('it does not depend on the other items of an answer: a weak best item stays weak', () => {
    const weak = relevance({ lexical: 0, dense: 0.45, named: 0 });
    const strong = relevance({ lexical: 1, dense: 0.85, named: 1 });
    assert.ok(weak < 0.2, `weak ${weak}`);
    assert.ok(strong > 0.8, `strong ${strong}`);
  });

  test('an answer is answerable when its best item reaches the threshold; an empty one is not', () => {
    assert.equal(answerable([{ relevance: ANSWERABLE_RELEVANCE }, { relevance: 0 }]), true);
    assert.equal(answerable([{ relevance: ANSWERABLE_RELEVANCE - 0.01 }, { relevance: 0.99 }]), false, 'the best item decides');
    assert.equal(answerable([]), false);
  });
});
