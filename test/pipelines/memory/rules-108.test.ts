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

  test('a past range in an earlier month: its end moves back with its start, and it ends nothing ahead (review H1)', async () => {
    // Before: "from Sunday 3 May 2026 to Monday 10 May 2027", validUntil 2027-05-11 (the start read back a year, the end not).
    for (const [s, start, last] of [
      ['I was in Rome from May 3 to May 10.', '2026-05-03', 'Sunday 10 May 2026'],
      ['I was away from March 3 to March 10.', '2026-03-03', 'Tuesday 10 March 2026'],
      ['We stayed at the hotel from Jan 2 to Jan 5.', '2026-01-02', 'Monday 5 January 2026'],
    ] as const) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      assert.ok(facts.length > 0, s);
      assert.ok(facts.every((f) => !f.validUntil), `${s}: ${JSON.stringify(facts)}`);
      const f = facts.find((x) => x.eventTime === start);
      assert.ok(f, `${s}: ${JSON.stringify(facts)}`);
      assert.ok(f.content.includes(last), `${s}: ${f.content}`);
      assert.ok(!f.content.includes('2027'), `${s}: ${f.content}`);
    }
    const [found] = findDates('I was in Rome from May 3 to May 10.', MONDAY).filter((d) => d.end);
    assert.deepEqual([found?.date, found?.end], ['2026-05-03', '2026-05-10']);
  });

  test('a past-told range of days of the month ends nothing ahead (review M1)', async () => {
    // Before: "between Thursday 3 December 2026 and Thursday 10 December 2026", validUntil 2026-12-11.
    const facts = await factsSaid('I was in Rome between the 3rd and the 10th.', MONDAY, MARIA, JO);
    assert.ok(facts.length > 0);
    assert.ok(facts.every((f) => !f.validUntil), JSON.stringify(facts));
    // What a booking is for lies ahead whatever the tense: its end stays.
    const booked = await factsSaid('I booked the cottage for Dec 20 to Dec 27.', MONDAY, MARIA, JO);
    assert.ok(booked.some((f) => f.validUntil === '2026-12-28T00:00:00.000Z'), JSON.stringify(booked));
  });

  test('weekdays of a range said with "next week" lie in next week, or the range has no end (review H3)', async () => {
    // Before: "next week I'm off Monday to Wednesday" read as 7 to 9 December, validUntil 2026-12-10 (this week's Wednesday).
    for (const s of ["next week I'm off Monday to Wednesday", "Next week I'm off from Monday to Wednesday.", "I'm off Monday to Wednesday next week."]) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      assert.ok(facts.length > 0, s);
      for (const f of facts) {
        assert.ok(!f.validUntil || f.validUntil === '2026-12-17T00:00:00.000Z', `${s}: ${JSON.stringify(f)}`);
        assert.ok(!/\b(?:7|8|9) December/.test(f.content), `${s}: ${f.content}`);
      }
    }
    const facts = await factsSaid("next week I'm off Monday to Wednesday", MONDAY, MARIA, JO);
    const f = facts.find((x) => /off/.test(x.content));
    assert.ok(f, JSON.stringify(facts));
    assert.match(f.content, /Monday 14 December 2026 to Wednesday 16 December 2026/);
    assert.equal(f.validUntil, '2026-12-17T00:00:00.000Z');
  });

  test('"lasts until Sunday": the verb stays, the day is the end, no range from today (review H4)', async () => {
    // Before: "The festival from Monday 7 December 2026 to Sunday 13 December 2026" ("lasts" read as a range from today).
    for (const [s, subject, last, end] of [
      ['The festival lasts until Sunday.', 'The festival', 'Sunday 13 December 2026', '2026-12-14'],
      ['the exhibition lasts until friday', 'The exhibition', 'Friday 11 December 2026', '2026-12-12'],
    ] as const) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      const f = facts.find((x) => x.content.startsWith(subject));
      assert.ok(f, `${s}: ${JSON.stringify(facts)}`);
      assert.equal(f.content, `${subject} lasts until ${last}`);
      assert.equal(f.validUntil, `${end}T00:00:00.000Z`, `${s}: ${JSON.stringify(f)}`);
    }
  });

  test('a range of days of the month without its second "the", or without "between / from" (review H5)', async () => {
    // Before: "between on Sunday 20 December 2026 and 27th" / "on Sunday 20 December 2026 to the 27th", no end.
    for (const s of ['My mum is visiting between the 20th and 27th.', 'my mum is visiting the 20th to the 27th']) {
      const facts = await factsSaid(s, MONDAY, MARIA, JO);
      const f = facts.find((x) => /mum is visiting/.test(x.content));
      assert.ok(f, `${s}: ${JSON.stringify(facts)}`);
      assert.match(f.content, /(?:between|from) Sunday 20 December 2026 (?:and|to) Sunday 27 December 2026$/, s);
      assert.equal(f.validUntil, '2026-12-28T00:00:00.000Z', `${s}: ${JSON.stringify(f)}`);
    }
    // Two days named with "and", no "between": two days, no range.
    const [two] = findDates("I'm free the 20th and the 27th.", MONDAY);
    assert.equal(two?.end, undefined);
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
