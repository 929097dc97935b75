/** An object pronoun written as the one thing said just before (trial10 F4). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { wink } from '../../../pipelines/wink.js';
import { withObjectNamed } from '../../../pipelines/memory/object-pronouns.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { contentsAfter } from '../../helpers/extract-said.js';

const named = (sentence: string, before: string[]): string => withObjectNamed(wink(), sentence, before);

describe('an object pronoun', () => {
  test('"it", "them" and "that" take the one thing of their number said before', () => {
    // On main 9025de92 each was kept with its pronoun.
    assert.equal(named('I can take it.', ['Someone needs to handle the vendor contract.']), 'I can take the vendor contract.');
    assert.equal(named('We should cut them.', ['The marketing costs are too high.']), 'We should cut the marketing costs.');
    assert.equal(named('I will handle that now.', ['Ben is handling the vendor contract.']), 'I will handle the vendor contract now.');
    // A phrasal verb's particle goes before the whole phrase; "a" is "the" once said.
    assert.equal(named('I can take it over.', ['Ben is handling the vendor contract.']), 'I can take over the vendor contract.');
    assert.equal(named('Sure, I will order it today.', ['Can you order a chocolate cake?']), 'Sure, I will order the chocolate cake today.');
    // The clause before it in its own sentence; not the pronoun's own clause ("The team needs it").
    assert.equal(named('The printer broke, so I will fix it.', []), 'The printer broke, so I will fix the printer.');
    assert.equal(named('The team needs it.', []), 'The team needs it.');
    // The nearest sentence that names a thing of the pronoun's number: "them" passes over the singular.
    assert.equal(named('I will book them.', ['We need the flights for Lisbon.', 'The budget is fine.']), 'I will book the flights.');
  });

  test('with no thing said before, the sentence is kept as said', () => {
    assert.equal(named('I can take it.', []), 'I can take it.');
    assert.equal(named('I can take it.', ['Sounds good.']), 'I can take it.');
  });

  test('a person is no antecedent of "it"', () => {
    assert.equal(named('I can take it.', ['I talked to the new intern yesterday.']), 'I can take it.');
    assert.equal(named('I can take it.', ['Ben is handling it.']), 'I can take it.');
  });

  test('two things, one told with a possessive or with no determiner: unresolved', () => {
    assert.equal(named('I can take it.', ['I will handle the budget and the contract.']), 'I can take it.');
    assert.equal(named('I will review it.', ['I finished my report.']), 'I will review it.');
    assert.equal(named('Ana sent it on Friday.', ["We'll use ClickHouse for analytics instead."]), 'Ana sent it on Friday.');
  });

  test('a place a preposition names is never written in for "it"', () => {
    // Written in before the guard: "and bought the store", "I fixed the garage".
    assert.equal(named('I went to the store, and bought it.', []), 'I went to the store, and bought it.');
    assert.equal(named('I fixed it.', ['The bike was in the garage.']), 'I fixed it.');
    assert.equal(named('I can take it.', ['Someone needs to handle the vendor contract.']), 'I can take the vendor contract.');
  });

  test('a pronoun that is no object standing for a thing is left alone', () => {
    for (const s of ['I find it hard to sleep.', 'I think it is fine.', 'I will make it.', 'I said that he can come.', 'I like this plan.',
      // An action or what was said, not a thing in it.
      "Let's do it.", 'I can do that.', 'I agree with that.', 'I know that.']) {
      assert.equal(named(s, ['The vendor contract is late.']), s);
    }
  });

  test('the extracted fact reads with its thing', async () => {
    assert.deepEqual(await contentsAfter('Someone needs to handle the vendor contract.', 'I can take it.', '2026-11-16T10:00:00.000Z'),
      ['Tom can take the vendor contract']);
    assert.deepEqual(await contentsAfter('The marketing costs are too high.', 'We should cut them.', '2026-11-16T10:00:00.000Z'),
      ['Tom and Ana should cut the marketing costs']);
  });

  test('a turn of another session is never read', async () => {
    const turn = (id: string, sessionId: string, speakerId: string, text: string, seq: number) => ({ id, sessionId, speakerId,
      addresseeIds: [speakerId === 'ana' ? 'tom' : 'ana'], text, startMs: null, endMs: null, time: '2026-11-16T10:00:00.000Z', confidence: null, audioRef: null, seq });
    const { facts } = await new EmbeddedExtractor().extract({ current: turn('u2', 's2', 'tom', 'I can take it.', 1),
      previous: [turn('u1', 's1', 'ana', 'Someone needs to handle the vendor contract.', 1)], names: { ana: 'Ana', tom: 'Tom' } });
    assert.deepEqual(facts.map((f) => f.content), ['Tom can take it']);
  });
});
