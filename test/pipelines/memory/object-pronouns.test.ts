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

  test('a thing is written in only when the whole window names no other of its number', () => {
    // On main 0bb6ea29 the nearest sentence with one thing won: "send the weather", "sign the office".
    assert.equal(named('I will send it tomorrow.', ['I finished the report.', 'We watched the weather.']), 'I will send it tomorrow.');
    assert.equal(named('I will sign it.', ['Legal sent the contract.', 'The lawyers are busy.', 'Legal sent the draft.']), 'I will sign it.');
    // A thing in the clause before does not hide another said before it.
    assert.equal(named('The draft is here, so I will sign it.', ['Legal sent the contract.']), 'The draft is here, so I will sign it.');
    // The other number does not compete: "them" passes over the singular, "it" over the plural.
    assert.equal(named('I will sign it.', ['Legal sent the contract.', 'The lawyers sent the notes.']), 'I will sign the contract.');
    // The same thing said twice is one thing.
    assert.equal(named('I can take it.', ['Someone needs to handle the vendor contract.', 'Ben was handling the vendor contract.']),
      'I can take the vendor contract.');
  });

  test('the subject of "is / was + adjective" is no thing acted upon', () => {
    // On main 0bb6ea29: "Let us cancel the weather", "I already paid the electricity".
    assert.equal(named('Let us cancel it.', ['The weather was awful.']), 'Let us cancel it.');
    assert.equal(named('I already paid it.', ['The electricity was expensive.']), 'I already paid it.');
    assert.equal(named('I will open it.', ['The office is closed on Monday.']), 'I will open it.');
    assert.equal(named('I already paid it.', ['The electricity was out.']), 'I already paid it.');
    // It does not compete either: the report is the one thing.
    assert.equal(named('I will send it tomorrow.', ['I finished the report.', 'The weather was awful.']), 'I will send the report tomorrow.');
  });

  test('"raise it", "bring it up", "keep it", "leave it", "let it" are kept as said', () => {
    // On main 0bb6ea29: "I'll raise the budget with finance", the meaning reversed.
    for (const s of ["I'll raise it with finance.", 'I will bring it up with finance.', 'I will bring it tomorrow.', 'We should keep it.',
      'Just leave it.', 'Let it go.']) {
      assert.equal(named(s, ['The budget is too tight.']), s);
    }
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

  test('the extracted fact keeps its pronoun where the window names two things or an adjective\'s subject', async () => {
    const time = '2026-11-16T10:00:00.000Z';
    for (const [before, said] of [['I finished the report. The weather was awful.', 'I will send it tomorrow.'],
      ['Legal sent the contract. The office is closed on Monday.', 'I will sign it on Tuesday.'],
      ['The budget is too tight.', "I'll raise it with finance."]] as const) {
      const contents = await contentsAfter(before, said, time);
      assert.ok(!contents.some((c) => /weather|office|budget/.test(c)), `${said} → ${JSON.stringify(contents)}`);
    }
  });

  test('a turn of another session is never read', async () => {
    const turn = (id: string, sessionId: string, speakerId: string, text: string, seq: number) => ({ id, sessionId, speakerId,
      addresseeIds: [speakerId === 'ana' ? 'tom' : 'ana'], text, startMs: null, endMs: null, time: '2026-11-16T10:00:00.000Z', confidence: null, audioRef: null, seq });
    const { facts } = await new EmbeddedExtractor().extract({ current: turn('u2', 's2', 'tom', 'I can take it.', 1),
      previous: [turn('u1', 's1', 'ana', 'Someone needs to handle the vendor contract.', 1)], names: { ana: 'Ana', tom: 'Tom' } });
    assert.deepEqual(facts.map((f) => f.content), ['Tom can take it']);
  });
});
