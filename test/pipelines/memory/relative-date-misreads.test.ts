import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { absoluteDates } from '../../../pipelines/memory/date-text.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';

// Saturday 5 December 2026: Christmas 2026 is a Friday, Christmas 2027 a Saturday, Easter 2027 on 28 March.
const NOW = '2026-12-05T10:00:00.000Z';
const rewrite = (text: string): string => absoluteDates(text, findDates(text, NOW));
const dated = (text: string): [string, string][] => findDates(text, NOW).map((d) => [d.phrase, d.date]);

describe('"the week before Christmas next year": one phrase, one date, the year it names, told after or before', () => {
  test('the year after the named day dates its week and is written once', () => {
    const cases: [string, string, string, string][] = [
      ['We fly out the week before Christmas next year.', 'the week before Christmas next year', '2027-12-20',
        'We fly out the week before Christmas 2027.'],
      ['We are moving the week after Easter next year.', 'the week after Easter next year', '2027-03-29',
        'We are moving the week after Easter 2027.'],
      ['We flew out the week before Christmas last year.', 'the week before Christmas last year', '2025-12-15',
        'We flew out the week before Christmas 2025.'],
      ['We went camping the week before Christmas 2025.', 'the week before Christmas 2025', '2025-12-15',
        'We went camping the week before Christmas 2025.'],
      ['Next year, the week before Christmas we fly out.', 'Next year, the week before Christmas', '2027-12-20',
        'the week before Christmas 2027 we fly out.'],
      ['I moved here last year, the week before Christmas.', 'last year, the week before Christmas', '2025-12-15',
        'I moved here the week before Christmas 2025.'],
    ];
    for (const [text, phrase, date, written] of cases) {
      assert.deepEqual(dated(text), [[phrase, date]], text);
      assert.equal(rewrite(text), written, text);
    }
  });

  test('Easter with no year is the next one; the week before a day on a weekend is the week leading into it', () => {
    assert.deepEqual(dated('We are moving the week after Easter.'), [['the week after Easter', '2027-03-29']]);
    assert.equal(rewrite('We are moving the week after Easter.'), 'We are moving the week after Easter 2027.');
    // Halloween 2027 is a Sunday: Monday 25 October begins the week that ends the day before it.
    assert.deepEqual(dated('The party is the week before Halloween.'), [['the week before Halloween', '2027-10-25']]);
    // Christmas 2026 is a Friday: the week that holds it is no week before it.
    assert.deepEqual(dated('We are going away the week before Christmas.'), [['the week before Christmas', '2026-12-14']]);
  });
});

describe('a habit or a general statement places nothing in time', () => {
  test('the week before a named day, said of every year, is no date and keeps its words', () => {
    for (const text of [
      'The week before Christmas is always busy.', 'Every year the week before Christmas is busy.',
      'We usually go away the week after Easter.', 'The week before Christmas is busy every year.',
    ]) {
      assert.deepEqual(findDates(text, NOW), [], text);
      assert.equal(rewrite(text), text);
    }
  });

  test('a habit with the year named is still dated', () => {
    assert.deepEqual(dated('We always go, but next year we fly out the week before Christmas 2027.').at(-1), ['the week before Christmas 2027', '2027-12-20']);
  });
});

describe('how often is no date', () => {
  test('a count of days, evenings, nights or hours in each week or month', () => {
    for (const text of [
      'I volunteer one day a week at the library.', 'We meet three evenings a week.', 'I work a few days a week.',
      'I swim several mornings a week.', 'I go out a few nights a month.', 'We train two or three evenings per week.',
      'I work one weekend a month.', 'I study ten hours a week.', 'I run four times a week.', 'I work five days a week.',
    ]) {
      assert.deepEqual(findDates(text, NOW), [], text);
      assert.equal(rewrite(text), text);
    }
  });

  test('a span that is a time, not how often, is still dated', () => {
    assert.deepEqual(dated('I will call you next week.'), [['next week', '2026-12-07']]);
    assert.deepEqual(dated('We meet three evenings a week, starting next Monday.').map(([, d]) => d), ['2026-12-07']);
  });
});

describe('"a day off", "my last day": no date, and a weekday is written once', () => {
  test('the weekday that is the subject is dated once and the rest stays as said', () => {
    assert.equal(rewrite('Sunday is a day off.'), 'Sunday 6 December 2026 is a day off.');
    assert.equal(rewrite('Sunday is my last day at work.'), 'Sunday 6 December 2026 is my last day at work.');
    assert.equal(rewrite('The last day of term is Friday.'), 'The last day of term is on Friday 11 December 2026.');
    assert.deepEqual(findDates('I need a day to rest.', NOW), []);
    assert.deepEqual(findDates('One day I will go to Japan.', NOW), []);
  });

  test('"for a day" stays a duration', () => {
    assert.deepEqual(findDates("I'm off for a day.", NOW).map((d) => d.duration), [true]);
  });

  test('a date already written is not found again by a later phrase with the same words', () => {
    assert.equal(rewrite('Sunday is a day off, so see you Sunday.'),
      'Sunday 6 December 2026 is a day off, so see you on Sunday 6 December 2026.');
  });
});
