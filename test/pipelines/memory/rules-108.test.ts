/**
 * Rules 108 (dates): a range of days carries its end ("My mum is visiting Dec 3 to Dec 10": `validUntil` the day after
 * the last, as a temporary state's "for a month" does); a length after "lasts" is how long, no date; "in like an hour",
 * "in an hour or so" are dated as "in an hour". Each fails on main 35a87d3e (what it did there in the comment), but the
 * guards of what stays as it was: a range told of the past, weekdays as a schedule, "the 3rd to the 10th of January".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { factsSaid } from '../../helpers/extract-said.js';

/** Monday 7 December 2026. */
const MONDAY = '2026-12-07T10:00:00.000Z';
const MARIA = ['maria', 'Maria'] as const;
const JO = ['jo', 'Jo'] as const;

describe('rules 108: date ranges and lengths', () => {
  test('a range of days: the start is the event time, the day after the last the end (validUntil)', async () => {
    // On main: no end (validUntil null), "to Dec 10" dropped from the text; Dec 3 read as 3 December 2027.
    for (const [s, start, end] of [
      ['My mum is visiting Dec 3 to Dec 10.', '2026-12-03', '2026-12-11'],
      ['My mum is visiting from December 20 to December 27.', '2026-12-20', '2026-12-28'],
      ['My mum is visiting from Monday to Wednesday.', '2026-12-07', '2026-12-10'],
      ['My mum is visiting between the 20th and the 27th.', '2026-12-20', '2026-12-28'],
    ] as const) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      const f = facts.find((x) => /mum is visiting/.test(x.content));
      assert.ok(f, `${s}: ${JSON.stringify(facts)}`);
      assert.equal(f.eventTime, start, `${s}: ${JSON.stringify(f)}`);
      assert.equal(f.validUntil, `${end}T00:00:00.000Z`, `${s}: ${JSON.stringify(f)}`);
      assert.match(f.content, /\b(?:to|and) \w+day \d+ December 2026$/, s);
    }
  });

  test('a range told of the past ends nothing ahead', async () => {
    const facts = await factsSaid('My mum visited from November 3 to November 10.', MONDAY, MARIA, JO);
    assert.ok(facts.every((f) => !f.validUntil), JSON.stringify(facts));
  });

  test('weekdays said as a weekly schedule are no range that ends; "the 3rd to the 10th of January" keeps its month', async () => {
    for (const s of ['I work Monday to Friday.', 'The shop is open Monday to Saturday.', 'I usually go to the gym Monday to Wednesday.']) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      assert.ok(facts.length > 0 && facts.every((f) => !f.validUntil && !/ to \w+day /.test(f.content)), `${s}: ${JSON.stringify(facts)}`);
    }
    const facts = await factsSaid('My exams are from the 3rd to the 10th of January.', MONDAY, MARIA, JO);
    assert.ok(facts.length > 0 && facts.every((f) => !/of January/.test(f.content)), JSON.stringify(facts));
  });

  test('a length after "lasts" or "takes" is how long: no date', async () => {
    // On main: "lasts" read as a date, "The workshop on Monday 7 December 2026 eight hours".
    for (const s of ['The workshop lasts eight hours.', 'The workshop takes eight hours.', 'The flight lasted two hours.']) {
      const found = findDates(s, MONDAY);
      assert.ok(found.every((d) => d.duration), `${s}: ${JSON.stringify(found)}`);
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      assert.ok(facts.every((f) => !f.eventTime && !/December/.test(f.content)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('"in like an hour", "in about an hour", "in an hour or so": dated as "in an hour"', async () => {
    // On main: "in like an hour" undated; "… on Monday 7 December 2026 or so".
    for (const s of ["I'll be there in like an hour.", "I'll be there in about an hour.", "I'll be there in an hour or so."]) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      assert.deepEqual(facts.map((f) => [f.content, f.eventTime]), [['Maria will be there on Monday 7 December 2026', '2026-12-07']], s);
    }
  });
});
