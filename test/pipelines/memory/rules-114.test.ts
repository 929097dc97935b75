/**
 * Rules 114 (ranges3): ranges and dates the review of rules 112 left (issue #16 item 2). Each failed on main bc038ba3 (what
 * it did there in the comment); the guards of what stays as it was did not.
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
const ranges = (s: string): Array<[string, string | null]> => findDates(s, MONDAY).filter((d) => !d.week).map((d) => [d.date, d.end ?? null]);

describe('rules 114: a booked range carries its end', () => {
  test('M4: "I booked the cabin from Friday to Sunday" ends after Sunday 13 December', async () => {
    // On main: "Maria booked the cabin from Friday 11 December 2026", no end.
    for (const s of ['I booked the cabin from Friday to Sunday.', "We've booked the cabin from Friday to Sunday."]) {
      assert.deepEqual(ranges(s), [['2026-12-11', '2026-12-13']], s);
      const facts = await read(s);
      assert.ok(facts.length > 0 && facts.every(([c, ev, until]) => ev === '2026-12-11' && until === '2026-12-14T00:00:00.000Z'
        && /Friday 11 December 2026 to Sunday 13 December 2026/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
    // On main: "from Sunday 20 December 2026 to Tuesday 22 December 2026", no end.
    const facts = await read('I booked the hotel from the 20th to the 22nd.');
    assert.ok(facts.length > 0 && facts.every(([, ev, until]) => ev === '2026-12-20' && until === '2026-12-23T00:00:00.000Z'), JSON.stringify(facts));
    // Told with its outcome, behind: no end ahead.
    assert.ok((await read('I booked the cabin from Friday to Sunday and it was lovely.')).every(([, , until]) => until === null));
  });
});

describe('rules 114: an ordinal range with its month after', () => {
  test('M5, M8: "from the 2nd to the 5th of January", "the 20th to the 22nd of January" are both days of January 2027', async () => {
    // On main: 2 January and 5 January apart, no end; "the 20th" was 20 December, "…to Friday 22 January 2027".
    for (const [s, first, last] of [["I'm away from the 2nd to the 5th of January.", '2027-01-02', '2027-01-05'],
      ["I'm away the 20th to the 22nd of January.", '2027-01-20', '2027-01-22'],
      ["I'm in Rome from the 20th to the 22nd of January.", '2027-01-20', '2027-01-22'],
      ["My mum is visiting from the 20th to the 22nd of January.", '2027-01-20', '2027-01-22'],
      ["I'm in Rome from the 8th to the 10th of December.", '2026-12-08', '2026-12-10']] as const) {
      assert.deepEqual(ranges(s), [[first, last]], s);
      const facts = await read(s);
      const end = new Date(Date.parse(`${last}T00:00:00.000Z`) + 86_400_000).toISOString();
      assert.ok(facts.length > 0 && facts.every(([, ev, until]) => ev === first && until === end), `${s}: ${JSON.stringify(facts)}`);
    }
    // Told as past, last January's; said on 1 December, "the 2nd" is still January's.
    assert.deepEqual(ranges('I was in Rome from the 20th to the 22nd of January.'), [['2026-01-20', '2026-01-22']]);
    assert.deepEqual(findDates("I'm away from the 2nd to the 5th of January.", '2026-12-01T10:00:00.000Z').map((d) => [d.date, d.end ?? null]),
      [['2027-01-02', '2027-01-05']]);
    // A range across the month's start: the first day in the month before.
    assert.deepEqual(ranges("I'm away from the 30th to the 2nd of January."), [['2026-12-30', '2027-01-02']]);
    // A month of its own after "of" for something else stays as it was.
    assert.deepEqual(ranges("I'm away from the 20th to the 22nd."), [['2026-12-20', '2026-12-22']]);
  });
});

describe('rules 114: a booking made days ago', () => {
  test('M6: "a couple of / ten / 10 days ago I booked…" is the booking, its slot ahead', async () => {
    // On main: no fact at all for "A couple of days ago…".
    for (const s of ['A couple of days ago I booked a table for Friday.', 'A couple of weeks ago I called Tom.']) {
      assert.ok((await read(s)).length > 0, s);
    }
    const facts = await read('A couple of days ago I booked a table for Friday.');
    assert.ok(facts.some(([c]) => /booked a table for Friday 11 December 2026/.test(c)), JSON.stringify(facts));
    // On main: Friday 4 December (one digit only, no words).
    for (const s of ['10 days ago I booked a table on Friday at 8pm.', 'Ten days ago I booked a table on Friday at 8pm.',
      'A couple of days ago I booked a table on Friday at 8pm.', 'Three days ago I booked a table on Friday at 8pm.']) {
      const friday = findDates(s, MONDAY).find((d) => /friday/i.test(d.phrase));
      assert.equal(friday?.date, '2026-12-11', s);
    }
    // A time gone by that is no act's day keeps the slot behind.
    assert.equal(findDates('Last Friday I had a table at 8pm.', MONDAY)[0]?.date, '2026-12-04');
  });
});

describe('rules 114: the tense before weekdays with "last week"', () => {
  test('D3: "need", "feed" are no past tense: "I need Monday to Wednesday off" is no range of last week', () => {
    // On main: 30 November to 2 December ("need" read as a past "-ed").
    for (const s of ['Last week was crazy, I need Monday to Wednesday off.', 'After last week I need Monday to Wednesday off.']) {
      assert.ok(findDates(s, MONDAY).every((d) => d.date !== '2026-11-30' || d.week), `${s}: ${JSON.stringify(findDates(s, MONDAY))}`);
    }
    assert.deepEqual(ranges('I need Monday to Wednesday off next week.').filter(([, end]) => end), [['2026-12-14', '2026-12-16']]);
    // Told as past, still last week's.
    for (const s of ['I was off Monday to Wednesday last week.', 'Last week I took Monday to Wednesday off.', 'Last week I worked Monday to Wednesday.']) {
      assert.deepEqual(ranges(s), [['2026-11-30', '2026-12-02']], s);
    }
  });
});

describe('rules 114: dashed weekdays at a sentence\'s end, weekdays listed with "last week"', () => {
  test('M7: "I\'m off Mon-Wed." is a fact with its end; a week\'s schedule names no day', async () => {
    // On main: no fact for either (three words).
    for (const s of ["I'm off Mon-Wed.", "I'm off Monday-Wednesday."]) {
      const facts = await read(s);
      assert.deepEqual(facts.map(([, ev, until]) => [ev, until]), [['2026-12-07', '2026-12-10T00:00:00.000Z']], `${s}: ${JSON.stringify(facts)}`);
    }
    // On main: "Maria works on Monday 7 December 2026" (a schedule read as its first day).
    for (const s of ['I work Monday to Friday.', 'I work Monday-Friday.']) {
      assert.deepEqual(findDates(s, MONDAY), [], s);
      const facts = await read(s);
      assert.ok(facts.every(([c, ev, until]) => ev === null && until === null && !/December/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('M7: "Tuesday and Friday last week" are 1 and 4 December', async () => {
    // On main: Tuesday 1 December and "the week of Monday 30 November" (Friday read as the week).
    for (const s of ['I was in Paris Tuesday and Friday last week.', 'I was in Paris on Tuesday and Friday last week.']) {
      assert.deepEqual(findDates(s, MONDAY).map((d) => [d.date, d.week]), [['2026-12-01', false], ['2026-12-04', false]], s);
      const facts = await read(s);
      assert.ok(facts.some(([c]) => /Tuesday 1 December 2026 and on Friday 4 December 2026/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
    assert.deepEqual(findDates('I saw Tom on Friday last week.', MONDAY).map((d) => d.date), ['2026-12-04']);
    // A range with "last week" is still last week's whole.
    assert.deepEqual(ranges('I was off Monday to Wednesday last week.'), [['2026-11-30', '2026-12-02']]);
  });
});

describe('rules 114 after review', () => {
  test('H2: a stay or state told in the present over weekdays is one stretch with its end, not a week\'s schedule', async () => {
    // Before the fix: no date at all (on main the first day only, no end).
    for (const [s, first, last] of [["I'm on holiday Monday to Friday.", '2026-12-07', '2026-12-11'],
      ["I'm in Leeds Monday to Friday for a conference.", '2026-12-07', '2026-12-11'],
      ["We're in Spain Monday to Friday.", '2026-12-07', '2026-12-11'],
      ["i'm on holiday monday to friday", '2026-12-07', '2026-12-11'],
      ["I'm on leave Monday to Wednesday.", '2026-12-07', '2026-12-09'],
      ["I'm busy Monday to Wednesday.", '2026-12-07', '2026-12-09'],
      ["I'm free Tuesday to Thursday.", '2026-12-08', '2026-12-10'],
      ["I'm in Leeds Tuesday to Thursday.", '2026-12-08', '2026-12-10'],
      ["I'm in Leeds Friday to Sunday.", '2026-12-11', '2026-12-13'],
      ["We're closed Monday to Wednesday for the holidays.", '2026-12-07', '2026-12-09']] as const) {
      assert.deepEqual(ranges(s)[0], [first, last], s);
      const facts = await read(s);
      assert.ok(facts.some(([, ev]) => ev === first), `${s}: ${JSON.stringify(facts)}`);
    }
    // A day still, as on main: "I have exams Monday to Friday".
    assert.ok((await read('I have exams Monday to Friday.')).some(([, ev]) => ev === '2026-12-07'));
    // Still a week's schedule, no day: work, opening hours, a place of every week, a habit.
    for (const s of ['I work Monday to Friday.', 'The shop is open Mon–Sat.', "I'm in the office Monday to Friday.",
      'I usually swim Monday to Friday.', 'I play football Monday to Friday.']) {
      assert.deepEqual(ranges(s), [], s);
    }
  });

  test('M4: "My mum is visiting Monday to Wednesday" is a visit, no profile of mum', async () => {
    // Before the fix: also the profile "mum=visiting Monday to Wednesday".
    const facts = await factsSaid('My mum is visiting Monday to Wednesday.', MONDAY, MARIA, JO);
    assert.ok(facts.length > 0 && facts.every((f) => !f.slot), JSON.stringify(facts));
    assert.deepEqual(ranges('My mum is visiting Monday to Wednesday.'), [['2026-12-07', '2026-12-09']]);
  });

  test('H3: a promise reported as past ("A couple of days ago I said I\'d …on Friday") is the coming Friday', async () => {
    // Before the fix: Friday 4 December (on main no fact for "A couple of days ago…", and 4 December after "Yesterday").
    for (const s of ["A couple of days ago I said I'd call Tom on Friday.", "A couple of days ago I told you I'd be in Leeds on Friday.",
      "Yesterday I said I'd call Tom on Friday."]) {
      const facts = await read(s);
      // Dated by the saying (ev), the promise's day in the words.
      assert.ok(facts.length > 0 && facts.every(([c, ev]) => /on Friday 11 December 2026/.test(c) && ev !== '2026-12-04'), `${s}: ${JSON.stringify(facts)}`);
    }
    // Told as past, not a promise: still behind.
    assert.deepEqual(findDates('Yesterday I said I called Tom on Friday.', MONDAY).map((d) => d.date), ['2026-12-06', '2026-12-04']);
  });

  test('M3: lower-case "may" / "march" after an ordinal range is a verb, not the month', () => {
    // Before the fix: May 2027 and March 2027.
    assert.deepEqual(ranges("I'm away from the 1st to the 3rd may be longer.")[0], ['2027-01-01', '2027-01-03']);
    assert.deepEqual(ranges('The 20th to the 22nd may work for us.')[0], ['2026-12-20', '2026-12-22']);
    assert.deepEqual(ranges("I'm off from the 2nd to the 5th march on then.")[0], ['2027-01-02', '2027-01-05']);
    // The month still: with "of", capitalised, or at the end.
    assert.deepEqual(ranges("I'm away from the 1st to the 3rd of may.")[0], ['2027-05-01', '2027-05-03']);
    assert.deepEqual(ranges("I'm away from the 1st to the 3rd May, I think.")[0], ['2027-05-01', '2027-05-03']);
    assert.deepEqual(ranges("I'm away from the 1st to the 3rd may.")[0], ['2027-05-01', '2027-05-03']);
  });
});
