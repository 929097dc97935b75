/**
 * Rules 112 (ranges2): dates and ranges the reviews of rules 110 and 111 left misread (issue #16 item 2). Each failed on
 * main 8521edc9 (what it did there in the comment); the guards of what stays as it was did not.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { factsSaid } from '../../helpers/extract-said.js';

/** Monday 7 December 2026. */
const MONDAY = '2026-12-07T10:00:00.000Z';
const MARIA = ['maria', 'Maria'] as const;
const JO = ['jo', 'Jo'] as const;

const read = async (s: string): Promise<Array<[string, string | null, string | null]>> =>
  (await factsSaid(s, MONDAY, MARIA, JO)).map((f) => [f.content, f.eventTime ?? null, f.validUntil ?? null]);

describe('rules 112: ranges of weekdays', () => {
  test('"Monday to Wednesday last week" is last week\'s, with its end', async () => {
    // On main: "Maria was off on Monday 7 December 2026", no end.
    for (const s of ['I was off Monday to Wednesday last week.', 'Last week I was off Monday to Wednesday.', 'I was off from Monday to Wednesday last week.']) {
      // "Last week" before the clause is a week of its own, as "Next week I'm off…" is.
      assert.deepEqual(findDates(s, MONDAY).filter((d) => !d.week).map((d) => [d.date, d.end ?? null]), [['2026-11-30', '2026-12-02']], s);
      const facts = await read(s);
      assert.ok(facts.length > 0 && facts.every(([c, ev, until]) => ev === '2026-11-30' && !until && /Monday 30 November 2026 to Wednesday 2 December 2026/.test(c)),
        `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('dashed weekdays "Monday-Wednesday next week", "Mon–Wed next week" end the day after the last', async () => {
    // On main: 14 to 16 December in the text, validUntil null.
    for (const s of ["I'm off Monday-Wednesday next week.", "I'm off Mon–Wed next week.", "I'm off Monday - Wednesday next week."]) {
      const facts = await read(s);
      assert.deepEqual(facts.map(([, ev, until]) => [ev, until]), [['2026-12-14', '2026-12-17T00:00:00.000Z']], `${s}: ${JSON.stringify(facts)}`);
      assert.match(facts[0]![0], /Monday 14 December 2026 to Wednesday 16 December 2026/, s);
    }
  });

  test('"Tuesday and Friday next week": both days of next week', async () => {
    // On main: "on Tuesday 8 December 2026 and on Friday 18 December 2026".
    for (const s of ["I'm off Tuesday and Friday next week.", "I'm off on Tuesday and Friday next week.", "I'm off Tuesday, Wednesday and Friday next week."]) {
      const dates = findDates(s, MONDAY).map((d) => d.date);
      assert.equal(dates[0], '2026-12-15', `${s}: ${JSON.stringify(dates)}`);
      assert.equal(dates.at(-1), '2026-12-18', s);
      assert.ok(!dates.includes('2026-12-08'), s);
    }
    // Another week's day stays its own: "Tuesday" of this week, "Friday next week".
    assert.deepEqual(findDates('I saw Tom on Tuesday and I fly out on Friday next week.', MONDAY).map((d) => d.date), ['2026-12-01', '2026-12-18']);
    assert.equal(findDates('the week after next', MONDAY)[0]?.date, '2026-12-21');
  });

  test('weekly schedules, hours and scores keep as they were', async () => {
    for (const s of ['I work Monday to Friday.', 'I work Monday-Friday.', 'The shop is open Mon–Sat.', 'I worked Monday to Friday.']) {
      assert.ok(findDates(s, MONDAY).every((d) => !d.end), s);
      const facts = await read(s);
      assert.ok(facts.every(([c, , until]) => !until && !/ to \w+day /.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
    for (const [s, ev] of [['My shift is 9–5 tomorrow.', '2026-12-08'], ['The match finished 2 - 1 yesterday.', '2026-12-06']] as const) {
      const facts = await read(s);
      assert.ok(facts.length > 0 && facts.every(([, e, until]) => e === ev && !until), `${s}: ${JSON.stringify(facts)}`);
    }
  });
});

describe('rules 112: days of the month, hours, the march, a slot booked days ago', () => {
  test('"it\'s from the 20th to the 22nd" after a booking told as past is this month\'s stay', async () => {
    // On main: "from Friday 20 November 2026 to Sunday 22 November 2026", no end.
    const s = "I booked the hotel, it's from the 20th to the 22nd.";
    assert.deepEqual(findDates(s, MONDAY).map((d) => [d.date, d.end ?? null]), [['2026-12-20', '2026-12-22']]);
    const facts = await read(s);
    assert.ok(facts.length > 0 && facts.every(([c, ev, until]) => ev === '2026-12-20' && until === '2026-12-23T00:00:00.000Z' && /20 December 2026 to .*22 December 2026/.test(c)),
      JSON.stringify(facts));
    // A stay booked "from the 20th to the 22nd" lies ahead as one booked "for" it does; told with its outcome it is behind.
    for (const b of ["I've booked the cottage from the 20th to the 22nd.", 'I booked the hotel from the 20th to the 22nd.', 'I booked a room from Friday to Sunday.']) {
      assert.ok(findDates(b, MONDAY).every((d) => d.date >= '2026-12-07'), `${b}: ${JSON.stringify(findDates(b, MONDAY))}`);
    }
    assert.equal(findDates('I booked the cottage from the 20th to the 22nd and it was lovely.', MONDAY)[0]?.date, '2026-11-20');
    // Told of the past, a range is still behind.
    assert.deepEqual(findDates('I was in Rome between the 3rd and the 5th.', MONDAY).map((d) => [d.date, d.end ?? null]), [['2026-12-03', '2026-12-05']]);
  });

  test('reported speech keeps the hour: "Jo said the movie is on Tuesday at seven fifteen / 7:15"', async () => {
    // On main: "Jo said the movie is on Tuesday 8 December 2026", the hour dropped.
    for (const s of ['Jo said the movie is on Tuesday at seven fifteen.', 'Jo said the movie is on Tuesday at 7:15.']) {
      assert.deepEqual(findDates(s, MONDAY).map((d) => [d.date, d.clock ?? null]), [['2026-12-08', '19:15']], s);
      const facts = await read(s);
      assert.ok(facts.some(([c]) => /Tuesday 8 December 2026 at 7:15pm/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
    // No saying, no hour guessed for a sentence told as past.
    assert.equal(findDates('I called her on Tuesday at 7.', MONDAY)[0]?.clock, undefined);
    assert.equal(findDates('Jo said she called on Tuesday at 7.', MONDAY)[0]?.clock, undefined);
  });

  test('"the march is on Saturday": a noun, no month', async () => {
    // On main: "March 2027 is on Saturday 12 December 2026", dated 2027-03.
    for (const s of ['The march is on Saturday.', 'The march starts at noon on Saturday.']) {
      const dates = findDates(s, MONDAY);
      assert.ok(dates.every((d) => d.date !== '2027-03') && dates.some((d) => d.date === '2026-12-12'), `${s}: ${JSON.stringify(dates)}`);
    }
    // The month still is.
    assert.equal(findDates('The March meeting is on the 3rd of March.', MONDAY).some((d) => d.date.startsWith('2027-03')), true);
    assert.equal(findDates("We're going in March.", MONDAY)[0]?.date, '2027-03');
  });

  test('"Two days ago I reserved a room on Friday at 3pm": the slot is the coming Friday', async () => {
    // On main: "…reserved a room on Friday 4 December 2026 at 3pm".
    for (const s of ['Two days ago I reserved a room on Friday at 3pm.', 'A few days ago I booked a table on Friday at 8pm.', 'The day before yesterday I booked a table on Friday at 8pm.']) {
      const friday = findDates(s, MONDAY).find((d) => /friday/i.test(d.phrase));
      assert.equal(friday?.date, '2026-12-11', s);
    }
    // "Two days ago I had a table on Friday at 8pm": no booking, still behind; "last Friday" too.
    assert.equal(findDates('Last Friday I had a table at 8pm.', MONDAY)[0]?.date, '2026-12-04');
  });
});

describe('rules 112 after review', () => {
  test('H1: "this march", "that march" in lower case (as speech is written) are still the month', () => {
    // Before: no date at all for each ("this" / "that" was read as the noun's determiner).
    for (const [s, month] of [["i'm moving to spain this march", '2027-03'], ['we are getting married this march', '2027-03'],
      ['my exam is at the end of this march', '2027-03'], ['this march is going to be busy', '2027-03'],
      ["I'm moving to Spain this march.", '2027-03'], ['i was in rome that march', '2026-03']] as const) {
      assert.ok(findDates(s, MONDAY).some((d) => d.date.startsWith(month)), `${s}: ${JSON.stringify(findDates(s, MONDAY))}`);
    }
    // The noun after "the" stays no month.
    assert.ok(findDates('We joined the march.', MONDAY).every((d) => !d.date.includes('-03')));
  });

  test('H3: a weekly schedule with "last week" in another clause keeps no range', async () => {
    // Before: "Maria works from Monday 30 November 2026 to Friday 4 December 2026 they were sick".
    for (const s of ['I work Monday to Friday, last week I was sick.', 'i play football monday to friday last week was fun']) {
      assert.ok(findDates(s, MONDAY).every((d) => !d.end && d.date !== '2026-11-30'), `${s}: ${JSON.stringify(findDates(s, MONDAY))}`);
      const facts = await read(s);
      assert.ok(facts.every(([c]) => !/30 November 2026 to/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('M1: reported speech keeps the hour only up to its clause\'s end', () => {
    // Before: "… we watched a movie on Tuesday 8 December 2026 at 7:15pm".
    for (const s of ['Jo said it is cold, and we watched a movie on Tuesday at 7:15.', 'Jo said she is tired because the movie on Tuesday at 7:15 went long.']) {
      assert.equal(findDates(s, MONDAY).find((d) => /tuesday/i.test(d.phrase))?.clock, undefined, s);
    }
  });

  test('M2: a weekday in reported speech of what is or will be lies ahead, with its hour', () => {
    // Before: Saturday 5 December, Friday 4 December (no hour), Friday 4 December at 6pm.
    for (const [s, date, clock] of [['Tom told me the party is on Saturday at 8.', '2026-12-12', '20:00'], ["Jo said she's coming on Friday at 6.", '2026-12-11', '18:00'],
      ['He mentioned that the game is on Friday at 6pm.', '2026-12-11', '18:00']] as const) {
      assert.deepEqual(findDates(s, MONDAY).map((d) => [d.date, d.clock ?? null]), [[date, clock]], s);
    }
    // Told as past, or "since" a day: behind still.
    assert.equal(findDates("Jo said it's been raining since Tuesday.", MONDAY)[0]?.date, '2026-12-01');
    assert.equal(findDates('Jo said the party was on Saturday.', MONDAY)[0]?.date, '2026-12-05');
  });
});
