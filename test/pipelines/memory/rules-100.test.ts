/**
 * Rules 100 (months; issue #16 item 2): one month reader (months.ts) for the rules; a month's short form with a day's number
 * beside a relation is a date, no name; a length of time said bare is a value, no time. Each fails on main abd378e4 (what
 * it did there in the comment), except where said.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isMonthWord, MONTH_NAMES, MONTHS_SAID } from '../../../pipelines/memory/months.js';
import { isHouseNumber } from '../../../pipelines/memory/not-dates.js';
import { isDaySaid } from '../../../pipelines/memory/relation-apposition.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { retellsTime } from '../../../pipelines/memory/retimed.js';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-11-30T09:00:00.000Z';
const MARIA = ['maria', 'Maria Lopez'] as const;
const JESS = ['jess', 'Jess'] as const;

const contents = (facts: readonly { content: string }[]): string[] => facts.map((f) => f.content);
const relations = (facts: readonly { content: string; kind: string }[]): string[] => facts.filter((f) => f.kind === 'relation').map((f) => f.content);

describe('rules 100: the one month reader', () => {
  test('names, short forms with and without a dot, "Sept"; no other word', () => {
    for (const w of ['January', 'december', 'MAY', 'Sept']) assert.ok(isMonthWord(w, w === 'Sept'), w);
    for (const w of ['Dec', 'Dec.', 'sept.', 'Sep', 'Apr', 'jun.', 'Feb']) {
      assert.ok(isMonthWord(w, true), w);
      assert.ok(!isMonthWord(w), `${w}: a short form only when asked`);
    }
    for (const w of ['Decade', 'mayor', 'Marc', 'June1', 'julia', 'octopus', '']) assert.ok(!isMonthWord(w, true), w);
  });

  test('the names in order, and each said form reads its own month only', () => {
    assert.equal(MONTH_NAMES.length, 12);
    MONTH_NAMES.forEach((name, i) => {
      const said = MONTHS_SAID.map((m) => new RegExp(`^(?:${m})$`, 'i'));
      assert.deepEqual(said.flatMap((r, k) => (r.test(name) ? [k] : [])), [i], name);
    });
  });
});

describe('rules 100: a month\'s short form and its day beside a relation is a date (issue #16 item 2)', () => {
  test('"I will visit my mother Dec 3.": no relation, the visit kept', async () => {
    // On main: "Dec is Maria Lopez's mother" besides the visit.
    const facts = await factsSaid('I will visit my mother Dec 3.', MONDAY, MARIA, JESS);
    assert.deepEqual(relations(facts), []);
    assert.deepEqual(contents(facts), ['Maria Lopez will visit their mother on Thursday 3 December 2026']);
  });

  test('other short forms, with a dot and an ordinal: no relation', async () => {
    // On main: "Sept is Maria Lopez's brother", "Jan is Maria Lopez's sister", "Feb is Maria Lopez's mother".
    for (const s of ['I will call my brother Sept. 12.', 'I will see my sister Jan 5th.', 'I will visit my mother Feb 2.']) {
      const facts = await factsSaid(s, MONDAY, MARIA, JESS);
      assert.deepEqual(relations(facts), [], `${s}: ${JSON.stringify(contents(facts))}`);
      assert.ok(facts.some((f) => f.kind === 'commitment'), `${s}: ${JSON.stringify(contents(facts))}`);
    }
  });

  test('a name beside the relation stays the relative, a month\'s name or short form with no day after it too', async () => {
    // Passes on main too: what the fix must keep.
    const april = await factsSaid('My daughter April starts school on Monday.', MONDAY, MARIA, JESS);
    assert.deepEqual(april.filter((f) => f.kind === 'relation').map((f) => f.value), ['April']);
    const jan = await factsSaid('My sister Jan is visiting on Friday.', MONDAY, MARIA, JESS);
    assert.deepEqual(relations(jan), ["Jan is Maria Lopez's sister"]);
    assert.ok(!isDaySaid('Jan', ' is visiting'));
    assert.ok(isDaySaid('Jan', ' 5th'));
    assert.ok(isDaySaid('Dec', '. 3'));
  });
});

describe('rules 100: the forms a month list missed', () => {
  test('"at 4 December 12th": a clock time, no house number (not-dates.ts TIME_AFTER read "dec", not "december")', () => {
    const text = "Let's meet at 4 December 12th.";
    // On main: true (the hour read as a house number).
    assert.equal(isHouseNumber(text, text.indexOf('at 4'), 'at 4'), false);
    const house = 'We live at 4 Rose Court.';
    assert.equal(isHouseNumber(house, house.indexOf('at 4'), 'at 4'), true);
  });

  test('"moved it to Dec 3": a move to a day (retimed.ts read a month\'s name only)', () => {
    // On main: false for both short forms.
    assert.ok(retellsTime('We moved it to Dec 3.'));
    assert.ok(retellsTime('They moved the party to Sept. 12th.'));
    assert.ok(retellsTime('We moved it to December 3.'));
    assert.ok(!retellsTime('We moved the sofa to the window.'));
  });
});

describe('rules 100: a length of time said bare is a value, no time (issue #16 item 3)', () => {
  test('"my new commute is an hour", "my new shift is eight hours", "the drive is an hour each way"', async () => {
    // On main: "…new commute is on Monday 30 November 2026" (and "…commute is hour"), "…shift is on Monday 30 November
    // 2026", "The drive is on Monday 30 November 2026 each way".
    const said: [string, string][] = [
      ['My new commute is an hour.', "Maria Lopez's new commute is an hour"],
      ['My new shift is eight hours.', "Maria Lopez's new shift is eight hours"],
      ['The drive is an hour each way.', 'The drive is an hour each way'],
      ['My commute is 45 minutes.', "Maria Lopez's commute is 45 minutes"],
    ];
    for (const [s, content] of said) {
      assert.deepEqual(contents(await factsSaid(s, MONDAY, MARIA, JESS)), [content], s);
    }
  });

  test('a bare length is a duration; "in", "ago", "away", "from now" keep a time', () => {
    for (const s of ['It takes about an hour.', 'My commute is half an hour.', 'The course is a week.', 'My shift is two hours.']) {
      const found = findDates(s, MONDAY);
      assert.ok(found.length > 0 && found.every((d) => d.duration), `${s}: ${JSON.stringify(found)}`);
    }
    // On main: "two hours" dated today besides Friday.
    const rehearsal = findDates('Rehearsal runs two hours on Friday.', MONDAY);
    assert.deepEqual(rehearsal.map((d) => [d.phrase, d.duration]), [['two hours', true], ['on Friday', false]]);
    // On main: "Maria Lopez arrived on Monday 30 November 2026 the meeting", "… will leave on Wednesday 2 December 2026 the wedding".
    for (const s of ['I arrived an hour before the meeting.', "We'll leave two days after the wedding."]) {
      const found = findDates(s, MONDAY);
      assert.ok(found.length > 0 && found.every((d) => d.duration), `${s}: ${JSON.stringify(found)}`);
    }
    // Pass on main too: a time from now, weeks from a weekday.
    for (const [s, date] of [['I will call you in two hours.', '2026-11-30'], ["It's two weeks away.", '2026-12-14'],
      ['I will be there two days from now.', '2026-12-02'], ['He called an hour ago.', '2026-11-30'], ['See you a week on Tuesday.', '2026-12-07']] as const) {
      const found = findDates(s, MONDAY);
      assert.ok(found.some((d) => !d.duration && d.date === date), `${s}: ${JSON.stringify(found)}`);
    }
  });
});
