/**
 * Service calls into memory (fix7b), from a newcomer's trial with phone calls read by pocketsphinx (lower case, no
 * punctuation): a phatic opening or closing is no fact, an apology calls the listener by name, a number stated is kept
 * with its digits joined, a home told by its address fills the home slot, and a misheard "place" fills none.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractionResult } from '../../../pipelines/memory/extractor.js';
import { withoutPhatic } from '../../../pipelines/memory/call-phrases.js';
import { spokenNumber } from '../../../graph/spoken-digits.js';
import { factsSaid, slotsOf } from '../../helpers/extract-said.js';

const TIME = '2026-11-23T10:00:00.000Z';

/** What the rules read from `text` said by `a` to `to` (none: to no one), names as given (null: not known yet). */
function extract(text: string, names: Record<string, string | null>, to: string[] = ['b'], confidence: number | null = null): Promise<ExtractionResult> {
  return new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'a', addresseeIds: to, text, time: TIME, sessionId: 's', confidence } as never,
    previous: [], names,
  });
}

describe('fix7b: phatic openings and closings', () => {
  test('a call opening or closing gives no fact', async () => {
    for (const text of ['thank you for calling brexite home services this is tom how can i help you today',
      'thank you for calling brightside home services how can i help you', 'Thanks for calling Brightside, how can I help you today?',
      "you're welcome is there anything else i can help you with", 'thank you so much have a nice day', 'is there anything else']) {
      for (const to of [['b'], []]) {
        const { facts } = await extract(text, { a: null, b: null }, to);
        assert.deepEqual(facts.map((f) => f.content), [], `${text} (to ${to.length})`);
      }
    }
  });

  test('what is said beside a formula stays, and "thanks for calling me back" is no formula', () => {
    assert.equal(withoutPhatic('thank you for calling brightside home services this is tom how can i help you'), 'this is tom');
    assert.equal(withoutPhatic('have a nice day i will send the invoice tomorrow'), 'i will send the invoice tomorrow');
    assert.equal(withoutPhatic('thanks for calling me back'), 'thanks for calling me back');
  });
});

describe('fix7b: an apology and the name it calls', () => {
  test('"i am sorry james" is no fact, and "your refund" is James\'s', async () => {
    const text = 'i am sorry james i will process your refund within five working days';
    const unnamed = await extract(text, { a: null, b: null });
    assert.deepEqual(unnamed.facts.map((f) => [f.kind, f.content, f.subjectId]),
      [['commitment', "An unnamed speaker will process James's refund within five working days", 'a']]);
    const toNoOne = await extract(text, { a: 'Tom' }, []);
    assert.deepEqual(toNoOne.facts.map((f) => f.content), ["Tom will process James's refund within five working days"]);
    // A listener already named keeps the name.
    const named = await extract(text, { a: 'Tom', b: 'Jim' });
    assert.deepEqual(named.facts.map((f) => f.content), ["Tom will process Jim's refund within five working days"]);
  });

  test('an apology for something keeps what it is for', async () => {
    const facts = await factsSaid("I'm sorry for the delay with the parcel.", TIME, ['a', 'Tom'], ['b', 'Ann']);
    assert.ok(facts.every((f) => !/is sorry [A-Z]/.test(f.content)), JSON.stringify(facts.map((f) => f.content)));
  });
});

describe('fix7b: a number the speaker states', () => {
  test('digits read out are joined, and a leading "yes" does not hide it', async () => {
    for (const text of ['yes my order number is four five seven two one', 'my order number is 45721', 'yeah so my order number is 45721']) {
      const { facts, profileUpdates } = await extract(text, { a: 'James', b: 'Tom' });
      assert.deepEqual(facts.map((f) => [f.kind, f.content, f.slot, f.value, f.subjectId]),
        [['profile', "James's order number is 45721", 'order_number:45721', '45721', 'a']], text);
      // Since rules 49 each order number is a slot (and attribute) of its own: a caller may have several.
      assert.deepEqual(profileUpdates.map((p) => [p.participantId, p.attribute, p.value]), [['a', 'order_number:45721', '45721']], text);
    }
    const yours = await extract('your booking reference is double oh seven four two', { a: 'Tom', b: 'James' });
    assert.deepEqual(yours.facts.map((f) => [f.content, f.subjectId]), [["James's booking reference is 00742", 'b']]);
  });

  test('spoken numbers', () => {
    assert.equal(spokenNumber('four five seven two one'), '45721');
    assert.equal(spokenNumber('forty five seven please'), '457');
    assert.equal(spokenNumber('late'), null);
  });
});

describe('fix7b: homes told by address, and misheard ones', () => {
  test('"live at <address> in <town>" fills the home slot with the town, and keeps the address', async () => {
    for (const text of ['I live at twelve Baker Street in Manchester', 'i live at twelve baker street in manchester']) {
      const { facts, profileUpdates } = await extract(text, { a: 'Sarah', b: 'Tom' });
      // Recognised speech is capitalised after extraction (proper-noun-case.ts).
      assert.deepEqual(slotsOf(facts).map((v) => v.toLowerCase()), ['lives_in=manchester'], text);
      // Since rules 55 the house number said in words is written in digits.
      assert.match(facts[0]!.content, /^Sarah lives at 12 Baker Street in Manchester$/i);
      assert.deepEqual(profileUpdates.map((p) => [p.attribute, p.value.toLowerCase()]), [['lives_in', 'manchester']], text);
    }
  });

  test('a "place" that names none fills no slot, and the fact stays', async () => {
    const { facts, profileUpdates } = await extract('i moved to leave my new and drifted 40 park lanes', { a: 'Sarah', b: 'Tom' });
    assert.deepEqual(slotsOf(facts), []);
    assert.ok(facts.some((f) => /^Sarah moved to leave my new/.test(f.content)), JSON.stringify(facts.map((f) => f.content)));
    assert.deepEqual(profileUpdates, []);
  });

  test('a word that may be a town fills the slot, whatever the confidence (the decider weighs that)', async () => {
    for (const confidence of [0.2, 0.9]) {
      const leeds = await extract('i moved to leeds', { a: 'Sarah', b: 'Tom' }, ['b'], confidence);
      assert.deepEqual(slotsOf(leeds.facts), ['lives_in=leeds']);
      const unlisted = await extract('i moved to brexton', { a: 'Sarah', b: 'Tom' }, ['b'], confidence);
      assert.deepEqual(slotsOf(unlisted.facts), ['lives_in=brexton']);
    }
  });
});
