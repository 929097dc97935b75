/**
 * Rules 65 (reviewB #8, #9): a vocative that calls one of the people a turn is said to narrows its "you" to that one; a
 * weekday named by its week ("Friday next week", "next week on Friday", "the Friday after next") is that day.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';

/** Monday 23 November 2026. */
const MONDAY = '2026-11-23T10:00:00.000Z';

/** The facts [content, subject, addressees] of `text` said by Sam to `to` (ids of Maria, Tom and Ana). */
async function read(text: string, to: string[] = ['maria', 'tom'], time = MONDAY): Promise<Array<[string, string, string[]]>> {
  const { facts } = await new EmbeddedExtractor().extract({
    current: { id: 'u1', speakerId: 'sam', addresseeIds: to, text, time, sessionId: 's', confidence: null } as never,
    previous: [], names: { sam: 'Sam', maria: 'Maria', tom: 'Tom', ana: 'Ana Lopez' },
  });
  return facts.map((f) => [f.content, f.subjectId, f.addresseeIds]);
}

describe('rules 65: a vocative narrows "you" (reviewB #8)', () => {
  test('"Tom, …" or "…, Tom" said to Maria and Tom: "you" and "your" are Tom\'s for the whole turn', async () => {
    // On main b4863cfa: "Sam changed Maria and Tom's order to size 56", "Sam asked Maria and Tom to send Sam the receipt".
    assert.deepEqual(await read('Tom, I changed your order to size 56.'), [["Sam changed Tom's order to size 56", 'sam', ['tom']]]);
    assert.deepEqual(await read('Done Tom, I changed your order to size 56.'), [["Sam changed Tom's order to size 56", 'sam', ['tom']]]);
    assert.deepEqual((await read('I changed your order to size 56, Tom. I will call you tomorrow.')).map(([c]) => c),
      ["Sam changed Tom's order to size 56", 'Sam will call Tom on Tuesday 24 November 2026']);
    assert.deepEqual(await read('Tom, can you send me the invoice?'), [['Sam asked Tom to send Sam the invoice', 'sam', ['tom']]]);
    assert.deepEqual((await read('Please send me the receipt, Maria.')).map(([c, , to]) => [c, to]), [['Sam asked Maria to send Sam the receipt', ['maria']]]);
    // One word of a longer name calls its holder.
    assert.deepEqual((await read('Ana, I will call you tomorrow.', ['maria', 'ana'])).map(([c]) => c), ['Sam will call Ana Lopez on Tuesday 24 November 2026']);
  });

  test('"we" is still the whole room; no vocative, two called in one sentence, or a name no addressee holds: "you" is everyone addressed', async () => {
    assert.deepEqual((await read('Tom, we should cut the marketing costs.')).map(([c]) => c), ['Sam and the group should cut the marketing costs']);
    assert.deepEqual((await read('I changed your order to size 56.')).map(([c, , to]) => [c, to]),
      [["Sam changed Maria and Tom's order to size 56", ['maria', 'tom']]]);
    assert.deepEqual((await read('Maria and Tom, I changed your orders to size 56.')).map(([, , to]) => to), [['maria', 'tom']]);
    // Two called, each opening a sentence of their own: since rules 84 each sentence is said to the one it calls
    // (later-call.ts; was "Maria and Tom's order is ready", "Sam will call Maria and Tom…").
    assert.deepEqual((await read('Tom, your order is ready. Maria, I will call you tomorrow.')).map(([c]) => c),
      ["Tom's order is ready", 'Sam will call Maria on Tuesday 24 November 2026']);
    // "Tom" said inside the sentence calls no one.
    assert.deepEqual((await read('I told Tom your order is ready.')).map(([c]) => c), ["Sam told Tom Maria and Tom's order is ready"]);
  });
});

describe('rules 65: a weekday named by its week (reviewB #9)', () => {
  const dates = (text: string, time = MONDAY): Array<[string, string, boolean]> => findDates(text, time).map((d) => [d.phrase, d.date, d.week]);

  test('"Friday next week", "next week on Friday" and "the Friday after next" are the day, as "next Friday" is (rules 61)', () => {
    // On main b4863cfa: the Monday of next week (a week), "next week" then this week's Friday, and this week's Friday.
    assert.deepEqual(dates('The party is on Friday next week.'), [['on Friday next week', '2026-12-04', false]]);
    assert.deepEqual(dates('The party is next week on Friday.'), [['next week on Friday', '2026-12-04', false]]);
    assert.deepEqual(dates('The party is Friday of next week.'), [['Friday of next week', '2026-12-04', false]]);
    assert.deepEqual(dates('The party is next week, Friday.'), [['next week, Friday', '2026-12-04', false]]);
    assert.deepEqual(dates('The party is the Friday after next.'), [['Friday after next', '2026-12-11', false]]);
    assert.deepEqual(dates('The party is on Friday next week.'), dates('The party is next Friday.').map(([, d, w]) => ['on Friday next week', d, w]));
    // Said on a Thursday: next week's Friday, as "next Friday" is then.
    assert.deepEqual(dates('The party is on Friday next week.', '2026-11-26T10:00:00.000Z'), [['on Friday next week', '2026-12-04', false]]);
    // Other dates of the sentence keep their order and their own reading.
    assert.deepEqual(dates('Tomorrow I book it, and the party is next week on Friday.'),
      [['Tomorrow', '2026-11-24', false], ['next week on Friday', '2026-12-04', false]]);
    assert.deepEqual(dates('I am busy next week.'), [['next week', '2026-11-30', true]]);
  });

  test('a plan and a statement write the day and date themselves; a state ends after it', async () => {
    // On main b4863cfa: "The party is on the week of Monday 30 November 2026", "…in the week of Monday 30 November 2026 on
    // Friday 27 November 2026", "…on Friday 27 November 2026 after next"; the states ended on 1 December and 28 November.
    const facts = async (text: string) => (await new EmbeddedExtractor().extract({
      current: { id: 'u1', speakerId: 'sam', addresseeIds: ['tom'], text, time: MONDAY, sessionId: 's', confidence: null } as never,
      previous: [], names: { sam: 'Sam', tom: 'Tom' },
    })).facts.map((f) => [f.content, f.eventTime]);
    assert.deepEqual(await facts('The party is on Friday next week.'), [['The party is on Friday 4 December 2026', '2026-12-04']]);
    assert.deepEqual(await facts("I'll send the report next week on Friday."), [['Sam will send the report on Friday 4 December 2026', '2026-12-04']]);
    assert.deepEqual(await facts("I'll send the report on the Friday after next."), [['Sam will send the report on Friday 11 December 2026', '2026-12-11']]);
    assert.equal(stateEnd("I'm away until Friday next week.", MONDAY), '2026-12-05T00:00:00.000Z');
    assert.equal(stateEnd("I'm away until next week on Friday.", MONDAY), '2026-12-05T00:00:00.000Z');
    assert.equal(stateEnd("I'm away till the Friday after next.", MONDAY), '2026-12-12T00:00:00.000Z');
  });
});
