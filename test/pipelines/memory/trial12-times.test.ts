/**
 * trial12 F9, F10, F16 (a dental clinic's phone line): a booking asked bare is a request, a bare hour said with a day
 * ahead is a clock time by business hours, and a fact told from one clause is dated by the date its words keep. Each fails on main f63906b0 (what it did there
 * in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { factsSaid } from '../../helpers/extract-said.js';

/** A Monday and a Friday. */
const MONDAY = '2026-12-07T10:00:00.000Z';
const FRIDAY = '2026-12-04T16:00:00.000Z';
const read = async (text: string, time = MONDAY): Promise<Array<[string, string | null]>> =>
  (await factsSaid(text, time, ['maria', 'Maria Gomez'], ['jo', 'Receptionist Jo'])).map((f: ExtractedFact) => [f.content, f.eventTime ?? null]);

describe('trial12 F10: a bare hour with a day ahead', () => {
  test('is a clock time by business hours', async () => {
    // On main: "…on Friday 11 December 2026" (the 10 dropped), in text and as a phone transcript.
    assert.deepEqual(await read('I want to book a cleaning for myself on Friday at 10.'),
      [['Maria Gomez wants to book a cleaning for themself on Friday 11 December 2026 at 10am', '2026-12-11']]);
    assert.deepEqual(await read('i want to put the new filling appointment on friday at 10'),
      [['Maria Gomez wants to put the new filling appointment on Friday 11 December 2026 at 10am', '2026-12-11']]);
    // 12 to 6 is the afternoon.
    assert.deepEqual(await read("Let's meet at 4 on Friday."),
      [['Maria Gomez and Receptionist Jo plan to meet on Friday 11 December 2026 at 4pm', '2026-12-11']]);
    // am / pm said stays as said.
    assert.deepEqual(await read('I want to book a cleaning on Friday at 8 pm.'),
      [['Maria Gomez wants to book a cleaning on Friday 11 December 2026 at 8pm', '2026-12-11']]);
  });

  test('told of the past, a bare hour is still left out', async () => {
    const [fact] = await read('I woke up at 4 on Friday.');
    assert.ok(fact && !/\dam|\dpm/.test(fact[0]), String(fact?.[0]));
  });
});

describe('trial12 F16: a fact told from one clause', () => {
  test('is dated by the date its words keep', async () => {
    // On main: event time 2026-12-10, the Thursday of the other clause.
    const facts = await read('Hi, Sam Lee again. I need to cancel my Thursday cleaning, I will call back next month to rebook.', FRIDAY);
    assert.deepEqual(facts.filter(([c]) => /call back/.test(c)), [['Maria Gomez will call back in January 2027 to rebook', '2027-01']]);
  });
});

describe('trial12 F9: a booking asked without "please"', () => {
  test('is a request, after "And" too', async () => {
    // On main: no fact at all ("Please book my son Leo…" gave one).
    assert.deepEqual(await read('And book Leo a fluoride treatment on Tuesday at 3 pm.'),
      [['Maria Gomez asked Receptionist Jo to book Leo a fluoride treatment on Tuesday 8 December 2026 at 3pm', '2026-12-08']]);
    assert.deepEqual((await read('Also, please book my son Leo a cleaning.')).map(([c]) => c),
      ["Leo is Maria Gomez's son", 'Maria Gomez asked Receptionist Jo to book their son Leo a cleaning']);
    // A noun "book" opening a statement is none.
    assert.deepEqual(await read('Book club was fun.'), [['Book club was fun', null]]);
  });
});
