/** The precise-negatives judge (bench/lib/precise-expect.ts): an ending is met only by one of what the line names (rules 42). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judge, type Expected } from '../../bench/lib/precise-expect.js';
import type { ExtractedFact } from '../../pipelines/memory/extractor.js';

/** A fact as the extractor gives it, with the fields the judge reads. */
function fact(slot: string | null, value: string | null, content: string, retraction: boolean, kind: ExtractedFact['kind'] = 'profile'): ExtractedFact {
  return { eventTime: null, content, kind, subjectId: 'ana', speakerId: 'ana', addresseeIds: [], slot, value, retraction, confidence: 0.7, referIds: ['u1'] };
}

const missed = (facts: ExtractedFact[], e: Expected): number => judge(facts, undefined, [e]).missed.length;

describe('precise-expect: endings', () => {
  test('a withdrawal of another value does not end the one named', () => {
    const nurse: Expected = { words: ['nurse'], ends: true };
    // On main each was met: any withdrawal met `ends`.
    assert.equal(missed([fact('occupation:midwife', 'midwife', 'Ana is not a nurse now, Ana is a midwife', true)], nurse), 1);
    assert.equal(missed([fact('works_at', null, 'Ana is not a nurse now', true)], nurse), 1);
    assert.equal(missed([fact('occupation', 'nurse', 'Ana is not a nurse now', true)], nurse), 0);
  });

  test('a slot ended whole meets a line naming the slot or its key; a withdrawal with no slot, its words', () => {
    assert.equal(missed([fact('works_at', null, 'Ana is retired now', true)], { slot: 'works_at', words: [], ends: true }), 0);
    assert.equal(missed([fact('preference:coffee', null, "Ana doesn't drink coffee anymore", true, 'preference')], { kind: 'preference', words: ['coffee'], ends: true }), 0);
    assert.equal(missed([fact(null, null, "Ana doesn't smoke now", true, 'statement')], { words: ['smoke'], ends: true }), 0);
    assert.equal(missed([fact(null, null, "Ana doesn't drink now", true, 'statement')], { words: ['smoke'], ends: true }), 1);
  });

  test('a withdrawal of a value is no memory that it holds', () => {
    // On main a withdrawn midwife met "she is a midwife".
    assert.equal(missed([fact('occupation:midwife', 'midwife', 'Ana is not a nurse now, Ana is a midwife', true)], { slot: 'occupation:', words: ['midwife'] }), 1);
    assert.equal(missed([fact('occupation:midwife', 'midwife', 'Ana is also a midwife', false)], { slot: 'occupation:', words: ['midwife'] }), 0);
  });
});

describe('precise-expect: what still counts', () => {
  test('a liking withdrawn ends its thing; a cancellation still settles', () => {
    assert.equal(missed([fact('preference:running', 'like', "Ana doesn't like running anymore", true, 'preference')], { kind: 'preference', words: ['running'], ends: true }), 0);
    const cancel = { ...fact(null, null, "Ana can't make it to the meeting after all", true, 'statement'), settles: 'cancelled' as const };
    assert.equal(missed([cancel], { settles: 'cancelled', words: ['meeting'] }), 0);
  });
});
