/**
 * Rules 104 (fix100; review rv100 of rules 100): a length of time counted from a day told ("two weeks from today", "a week
 * from Friday", "six months from March", "a week this Friday") or shifting a thing ("push it back two weeks", "bring it
 * forward a week") is a time, not a bare length, as before rules 100. Each fails on main 042443b7 (what it did there in
 * the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { factsSaid } from '../../helpers/extract-said.js';

/** Monday 7 December 2026: Friday is the 11th. */
const MONDAY = '2026-12-07T10:00:00.000Z';
const MARIA = ['maria', 'Maria'] as const;
const JESS = ['jess', 'Jess'] as const;

describe('rules 104: a length counted from a day, or a shift, is a time', () => {
  test('"<length> from <day>", "<length> this <weekday>": the length is no bare duration', () => {
    // On main: the length a duration, the fact dated on the anchor day (today, Friday, March).
    for (const [s, length] of [['We\'ll meet two days from today.', 'two days'], ['I\'ll pay you back a month from today.', 'a month'],
      ['The interview is a week from Friday.', 'a week'], ['I\'ll call you a week from tomorrow.', 'a week'],
      ['My flight is two weeks from Monday.', 'two weeks'], ['My lease ends six months from March.', 'six months'],
      ['Let\'s meet a week this Friday.', 'a week'], ['I\'ll call you a week from Dec 3.', 'a week']] as const) {
      const found = findDates(s, MONDAY);
      const said = found.find((d) => d.phrase.toLowerCase().startsWith(length));
      assert.ok(said && !said.duration, `${s}: ${JSON.stringify(found)}`);
    }
  });

  test('a plan two weeks from today is keyed two weeks ahead, not today', async () => {
    // On main: plan:seeing:2026-12-07 "… two weeks from Monday 7 December 2026" @2026-12-07.
    const facts = await factsSaid('I\'m seeing the dentist two weeks from today.', MONDAY, MARIA, JESS);
    assert.ok(facts.some((f) => f.kind === 'plan' && f.eventTime?.startsWith('2026-12-21')), JSON.stringify(facts));
  });

  test('a length after push back / bring forward / delay is a shift: the request is kept', async () => {
    // On main: no facts at all.
    for (const s of ['Can we push it back two weeks?', 'Can we push it back a week?', 'Can we bring it forward a week?',
      'Can we push it back an hour?']) {
      const facts = await factsSaid(s, MONDAY, MARIA, JESS);
      assert.ok(facts.length > 0, s);
      const found = findDates(s, MONDAY);
      assert.ok(found.length > 0 && found.every((d) => !d.duration), `${s}: ${JSON.stringify(found)}`);
    }
  });

  test('still bare: a length as a value, before or after a thing told, "two hours on Friday"', () => {
    for (const s of ['My commute is an hour.', 'I need two days from you.', "We'll leave two days after the wedding.",
      'I pushed myself two hours.', 'I moved here two years ago.', 'Could you push my appointment back an hour?']) {
      const found = findDates(s, MONDAY);
      if (s.includes('ago')) assert.ok(found.some((d) => !d.duration), s);
      else assert.ok(found.every((d) => d.duration), `${s}: ${JSON.stringify(found)}`);
    }
  });
});
