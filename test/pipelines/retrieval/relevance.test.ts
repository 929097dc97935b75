import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ANSWERABLE_RELEVANCE, answerable, relevance, relevanceSignals, topicForms, topicMatched } from '../../../pipelines/retrieval/relevance.js';
import type { WordNet } from '../../../pipelines/retrieval/wordnet.js';

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

describe('topic gate: an answer is answerable only when some item shares the question\'s topic', () => {
  const s = (topicLexical: number | null, topicDense: number | null) => ({ lexical: 0, dense: 0.7, named: 1, topicLexical, topicDense });
  const bars = { lexical: 0.5, dense: 0.6 };

  test('an item holding enough topic words, or close enough in meaning, matches; none of them: no match', () => {
    assert.equal(topicMatched([s(0, 0.4), s(0.5, 0.4)], bars), true);
    assert.equal(topicMatched([s(0, 0.4), s(0, 0.65)], bars), true);
    assert.equal(topicMatched([s(0, 0.4), s(0.4, 0.55)], bars), false);
    assert.equal(topicMatched([], bars), false, 'nothing retrieved matches nothing');
  });

  test('a question without topic words ("Who is Ana?") passes the gate', () => {
    assert.equal(topicMatched([s(null, null)], bars), true);
  });

  test('answerable: the relevance threshold and the gate must both hold; null bars leave the gate out', () => {
    const items = [{ relevance: 0.9 }];
    assert.equal(answerable(items, [s(0, 0.4)], bars), false);
    assert.equal(answerable(items, [s(1, 0.4)], bars), true);
    assert.equal(answerable(items, [s(0, 0.4)], null), true);
    assert.equal(answerable([{ relevance: 0.01 }], [s(1, 0.9)], bars), false);
  });

  test('topic words are read with their WordNet forms when given, and held with the stem-prefix rule', () => {
    const wordnet = { synonymsOf: (w: string) => (w === 'job' ? ['occupation'] : []), derivedForms: () => [] } as unknown as WordNet;
    const forms = topicForms(['job', 'blood'], wordnet);
    assert.deepEqual(forms, [['job', 'occupation'], ['blood']]);
    const sig = relevanceSignals(item('My occupation is nursing'), ['job', 'blood'], [], null, null, { words: forms, vector: null });
    assert.equal(sig.topicLexical, 0.5);
    assert.equal(sig.topicDense, null);
    assert.equal(relevanceSignals(item('x'), [], [], null, null, { words: [], vector: null }).topicLexical, null);
  });
});
