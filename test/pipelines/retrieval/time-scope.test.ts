import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asksWho, expectedAnswerType, holdsAnswerType } from '../../../pipelines/retrieval/answer-type.js';
import { inScope, timeScope } from '../../../pipelines/retrieval/time-scope.js';

const NOW = new Date('2026-11-25T15:00:00Z'); // a Wednesday
const NO_SLACK = { slackBeforeDays: 0, slackAfterDays: 0 };
/** Monday 7 December 2026, when the "last <month>" questions (rules 111, 112) are asked. */
const DECEMBER = new Date('2026-12-07T10:00:00Z');
/** A period of whole days, `since` to `until` (YYYY-MM-DD, midnight UTC). */
const days = (since: string, until: string) => ({ since: `${since}T00:00:00.000Z`, until: `${until}T00:00:00.000Z` });

describe('the time a question names', () => {
  test('a calendar day, a month, a bare year: ranges of that precision, dates out of the keywords', () => {
    const day = timeScope('What painting did Melanie show to Caroline on October 13, 2023?', NOW, NO_SLACK);
    assert.deepEqual(day?.ranges, [{ since: '2023-10-13T00:00:00.000Z', until: '2023-10-14T00:00:00.000Z' }]);
    assert.doesNotMatch(day?.rest ?? '', /October|13|2023/);
    assert.match(day?.rest ?? '', /^What painting did Melanie show to Caroline/);
    const month = timeScope('Where did Joanna travel to in July 2022?', NOW, NO_SLACK);
    assert.deepEqual(month?.ranges, [{ since: '2022-07-01T00:00:00.000Z', until: '2022-08-01T00:00:00.000Z' }]);
    assert.equal(month?.rest.includes('July'), false);
    const year = timeScope('What did John do in 2022?', NOW, NO_SLACK);
    assert.deepEqual(year?.ranges, [{ since: '2022-01-01T00:00:00.000Z', until: '2023-01-01T00:00:00.000Z' }]);
  });

  test('a month without a year stands for that month in each recent year', () => {
    const s = timeScope('When did Melanie go camping in June?', NOW, { ...NO_SLACK, yearsBack: 3 });
    assert.deepEqual(s?.ranges.map((r) => r.since), ['2026-06-01T00:00:00.000Z', '2025-06-01T00:00:00.000Z', '2024-06-01T00:00:00.000Z']);
  });

  test('relative times count from now and stay keywords (relativeOut takes them out)', () => {
    const week = timeScope('What did Ana promise Ben last week?', NOW, NO_SLACK);
    assert.equal(week?.ranges.length, 1);
    const r = week!.ranges[0]!;
    assert.equal(Date.parse(r.until) - Date.parse(r.since), 7 * 86_400_000);
    assert.ok(inScope('2026-11-20T12:00:00Z', week!.ranges));
    assert.ok(!inScope('2026-11-02T12:00:00Z', week!.ranges));
    assert.equal(week?.rest, 'What did Ana promise Ben last week?');
    assert.equal(timeScope('What did Ana promise Ben last week?', NOW, { ...NO_SLACK, relativeOut: true })?.rest, 'What did Ana promise Ben ?');
    assert.equal(timeScope('What did Ana say two weeks ago?', NOW, { ...NO_SLACK, relativeOut: true })?.rest, 'What did Ana say ?');
    const yesterday = timeScope('what did we talk about yesterday', NOW, NO_SLACK);
    assert.deepEqual(yesterday?.ranges, [{ since: '2026-11-24T00:00:00.000Z', until: '2026-11-25T00:00:00.000Z' }]);
  });

  test('slack widens each range; durations, future times and bare time words are no scope', () => {
    const s = timeScope('What happened on 3 June, 2023?', NOW, { slackBeforeDays: 1, slackAfterDays: 14 });
    assert.deepEqual(s?.ranges, [{ since: '2023-06-02T00:00:00.000Z', until: '2023-06-18T00:00:00.000Z' }]);
    for (const q of ['How long has Caroline had her friends for?', 'Did Nate practice for a few weeks?', 'What will Ana do next month?',
      'What does Caroline do at night?', 'What does Ben do on the weekend?']) {
      assert.equal(timeScope(q, NOW), null, q);
    }
  });

  test('a time something was said at is the conversation\'s date: no slack after it', () => {
    const slack = { slackBeforeDays: 1, slackAfterDays: 14 };
    const said = timeScope('What new activity did Maria start recently, as mentioned on 3 June, 2023?', NOW, slack);
    assert.deepEqual(said?.ranges, [{ since: '2023-06-02T00:00:00.000Z', until: '2023-06-04T00:00:00.000Z' }]);
    const asOf = timeScope('How long has Tim been playing the piano for, as of December 2023?', NOW, slack);
    assert.deepEqual(asOf?.ranges, [{ since: '2023-11-30T00:00:00.000Z', until: '2024-01-01T00:00:00.000Z' }]);
    const told = timeScope('What did Tim say on November 6, 2023?', NOW, slack);
    assert.equal(told?.ranges[0]?.until, '2023-11-07T00:00:00.000Z');
    const happened = timeScope('Where did Maria volunteer on 3 June, 2023?', NOW, slack);
    assert.equal(happened?.ranges[0]?.until, '2023-06-18T00:00:00.000Z', 'an event\'s date keeps the slack: told days later');
    assert.equal(timeScope('What did Tim say on November 6, 2023?', NOW, { ...slack, saidAt: false })?.ranges[0]?.until, '2023-11-21T00:00:00.000Z');
  });
});

describe('speech acts and named periods', () => {
  const slack = { slackBeforeDays: 1, slackAfterDays: 14 };
  const DAY = 86_400_000;

  test('a time a speech act was done in is when it was said: no slack after it', () => {
    for (const q of ['What did the caller ask for last week?', 'What did Ana request last week?', 'What did Ana promise Ben last week?',
      'What did the customer complain about last week?', 'Who called the help desk last week?', 'What did we agree on last week?',
      'What did Ben order last week?', 'What did Ana offer to the caller last week?']) {
      const s = timeScope(q, NOW, slack);
      assert.equal(s?.ranges[0]?.until, '2026-11-23T00:00:00.000Z', q);
    }
  });

  test('an embedded event keeps the slack: the time may be its, told later', () => {
    for (const q of ['What did Ana promise to do last week?', 'What did the caller ask about the parcel delivered last week?',
      'What did Ben say he would fix last week?', 'What did Ana agree that Ben did last week?', 'Where did the caller travel last week?']) {
      const s = timeScope(q, NOW, slack);
      assert.equal(s?.ranges[0]?.until, new Date(Date.parse('2026-11-23T00:00:00.000Z') + 14 * DAY).toISOString(), q);
    }
    // A promise about next week names no time a memory is from.
    assert.equal(timeScope('What did Ana promise to do next week?', NOW, slack), null);
    // The old reading, on request: only verbs of saying.
    assert.equal(timeScope('What did the caller ask for last week?', NOW, { ...slack, speechActs: false })?.ranges[0]?.until,
      new Date(Date.parse('2026-11-23T00:00:00.000Z') + 14 * DAY).toISOString());
  });

  test('a week is the calendar week, Monday to Sunday; the period itself comes without slack', () => {
    const last = timeScope('What did the caller ask for last week?', NOW, slack);
    assert.deepEqual(last?.periods, [{ since: '2026-11-16T00:00:00.000Z', until: '2026-11-23T00:00:00.000Z' }]);
    assert.equal(last?.ranges[0]?.since, '2026-11-15T00:00:00.000Z');
    assert.ok(!inScope('2026-11-24T09:00:00Z', last!.periods), 'this Tuesday is not last week');
    const thisWeek = timeScope('What did we talk about this week?', NOW, NO_SLACK);
    assert.deepEqual(thisWeek?.periods, [{ since: '2026-11-23T00:00:00.000Z', until: '2026-11-30T00:00:00.000Z' }]);
    const askedAgo = timeScope('What did the school ask for three weeks ago?', NOW, NO_SLACK);
    assert.deepEqual(askedAgo?.periods, [{ since: '2026-11-02T00:00:00.000Z', until: '2026-11-09T00:00:00.000Z' }], '"for … ago" is no duration');
    const ago = timeScope('What happened two weeks ago?', NOW, NO_SLACK);
    assert.deepEqual(ago?.periods, [{ since: '2026-11-09T00:00:00.000Z', until: '2026-11-16T00:00:00.000Z' }]);
    const rolling = timeScope('What did the caller ask for last week?', NOW, { ...NO_SLACK, calendarWeeks: false });
    assert.deepEqual(rolling?.periods, [{ since: '2026-11-18T00:00:00.000Z', until: '2026-11-25T00:00:00.000Z' }]);
    const day = timeScope('Where did Maria volunteer on 3 June, 2023?', NOW, slack);
    assert.deepEqual(day?.periods, [{ since: '2023-06-03T00:00:00.000Z', until: '2023-06-04T00:00:00.000Z' }]);
    assert.equal(day?.ranges[0]?.until, '2023-06-18T00:00:00.000Z');
    const before = timeScope('Where did Lena live before June 2024?', NOW, slack);
    assert.deepEqual(before?.periods, before?.ranges);
  });
});

describe('a day, weekend or week before or after a date', () => {
  const period = (q: string, options = {}): unknown => timeScope(q, NOW, { ...NO_SLACK, ...options })?.periods;
  const day = (d: string, days = 1): unknown => [{ since: `${d}T00:00:00.000Z`, until: new Date(Date.parse(`${d}T00:00:00Z`) + days * 86_400_000).toISOString() }];

  test('"the Monday before July 24, 2023" is one Monday, not everything before that date', () => {
    // 24 July 2023 is a Monday: the Monday before it is a week earlier.
    assert.deepEqual(period('What did Joanna do on the Monday before July 24, 2023?'), day('2023-07-17'));
    assert.deepEqual(period('What did Joanna do on the Friday before July 24, 2023?'), day('2023-07-21'));
    assert.deepEqual(period('What did Joanna do the Monday after July 24, 2023?'), day('2023-07-31'));
    assert.deepEqual(period('What did Joanna do the Tuesday after July 24, 2023?'), day('2023-07-25'));
    const s = timeScope('What did Joanna do on the Monday before July 24, 2023?', NOW, NO_SLACK);
    assert.deepEqual(s?.expressions, ['the Monday before July 24, 2023']);
    assert.doesNotMatch(s?.rest ?? '', /Monday|July|before/);
    assert.deepEqual(s?.windows, [{ since: '2023-07-17T00:00:00.000Z', until: '2023-07-18T00:00:00.000Z', open: false }]);
  });

  test('"the weekend before 4th October, 2023" is that Saturday and Sunday; a day and a week likewise', () => {
    // 4 October 2023 is a Wednesday.
    assert.deepEqual(period('What did Tim do the weekend before 4th October, 2023?'), day('2023-09-30', 2));
    assert.deepEqual(period('What did Tim do the weekend after 4th October, 2023?'), day('2023-10-07', 2));
    // 8 October 2023 is a Sunday: its own weekend is not over by then.
    assert.deepEqual(period('What did Tim do the weekend before 8 October 2023?'), day('2023-09-30', 2));
    assert.deepEqual(period('What did Tim do the weekend before 9 October 2023?'), day('2023-10-07', 2));
    assert.deepEqual(period('What did Tim do the day before 4 October 2023?'), day('2023-10-03'));
    assert.deepEqual(period('What did Tim do the day after 4 October 2023?'), day('2023-10-05'));
    assert.deepEqual(period('What did Tim do the week before 4 October 2023?'), day('2023-09-25', 7));
    assert.deepEqual(period('What did Tim do the week after 4 October 2023?'), day('2023-10-09', 7));
    assert.deepEqual(period('What did Tim do the week before 4 October 2023?', { calendarWeeks: false }), day('2023-09-27', 7));
  });

  test('slack, a speech act and a date without a year work as for the date itself', () => {
    const slack = timeScope('Where did Tim go the weekend before 4th October, 2023?', NOW, { slackBeforeDays: 1, slackAfterDays: 14 });
    assert.deepEqual(slack?.ranges, [{ since: '2023-09-29T00:00:00.000Z', until: '2023-10-16T00:00:00.000Z' }]);
    const said = timeScope('What did Tim say the day before 4 October 2023?', NOW, { slackBeforeDays: 1, slackAfterDays: 14 });
    assert.equal(said?.ranges[0]?.until, '2023-10-04T00:00:00.000Z');
    const yearless = timeScope('What did Tim do the day before 4 October?', NOW, { ...NO_SLACK, yearsBack: 2 });
    assert.deepEqual(yearless?.periods, [...(day('2026-10-03') as object[]), ...(day('2025-10-03') as object[])]);
  });

  test('a plain "before <date>" is still everything before it; the old reading on request', () => {
    const plain = timeScope('What did Joanna do before July 24, 2023?', NOW, NO_SLACK);
    assert.deepEqual(plain?.periods, [{ since: new Date(0).toISOString(), until: '2023-07-24T00:00:00.000Z' }]);
    assert.equal(plain?.windows[0]?.open, true);
    const old = timeScope('What did Joanna do on the Monday before July 24, 2023?', NOW, { ...NO_SLACK, relativeDays: false });
    assert.deepEqual(old?.periods, [{ since: new Date(0).toISOString(), until: '2023-07-24T00:00:00.000Z' }]);
    // A day word with no date after it is untouched ("the day before" alone names no date).
    assert.equal(timeScope('What did Joanna do the day before?', NOW, NO_SLACK), null);
  });
});

describe('the answer a question asks for', () => {
  test('"when" asks for a time, "how many" for a number; other questions for neither', () => {
    assert.equal(expectedAnswerType('When did Nate win his third tournament?'), 'time');
    assert.equal(expectedAnswerType('How long has Melanie been creating art?'), 'time');
    assert.equal(expectedAnswerType('How many pets does Andrew have?'), 'number');
    assert.equal(expectedAnswerType('What did Ana promise Ben?'), null);
  });

  test('a turn holds a time when it names one, a number when it counts', () => {
    assert.ok(holdsAnswerType('I won another regional tournament last week!', 'time'));
    assert.ok(holdsAnswerType('We went there on 8 May, it was great.', 'time'));
    assert.ok(!holdsAnswerType('I love playing video games with friends.', 'time'));
    assert.ok(holdsAnswerType('I have three turtles now.', 'number'));
    assert.ok(!holdsAnswerType('I love turtles.', 'number'));
  });

  test('a question that asks for a person (its evidence is the turn that says the thing)', () => {
    for (const q of ['Who told Monica about the party?', 'whom did Ana invite?', 'Whose idea was the rota?', 'To whom did Ben send the draft?',
      'Which of them offered to drive?', 'Which person fixed the kettle?', 'Which team member booked the van?']) assert.ok(asksWho(q), q);
    for (const q of ['What did Ana promise Ben?', 'Which book did Ben like?', 'When did Ana tell Ben?', 'Did Ben say who came?']) assert.ok(!asksWho(q), q);
  });

});

describe('"last" and a month (rules 111)', () => {
  test('"last May", "last March": the latest such month before this one, one year only', () => {
    // On main: "last May" named no time (null); "last March" scoped March of each of ten years.
    for (const [q, since, until] of [
      ['What did Ana do last May?', '2026-05-01', '2026-06-01'],
      ['What did Ana do last March?', '2026-03-01', '2026-04-01'],
      ['Where did Ana go last December?', '2025-12-01', '2026-01-01'],
    ] as const) {
      const s = timeScope(q, DECEMBER, NO_SLACK);
      assert.deepEqual(s?.periods, [days(since, until)], q);
      assert.deepEqual(s?.windows, [{ ...days(since, until), open: false }], q);
      assert.doesNotMatch(s?.rest ?? '', /May|March|December/, q);
    }
    // A month with no "last" still stands for that month in each recent year; "the last may be" names none.
    assert.equal(timeScope('What did Ana do in March?', DECEMBER, { ...NO_SLACK, yearsBack: 3 })?.periods.length, 3);
    assert.equal(timeScope('Which of the last may be true?', DECEMBER, NO_SLACK), null);
  });
});

describe('"last may", "last march" in lower case (rules 111 after review, M3)', () => {
  test('ASR\'s lower case "last may" ending the question is May', () => {
    // On ed8aaa7f: "last may" named no time (null); "last march" scoped March of each of ten years.
    for (const [q, since, until] of [
      ['what did ana do last may', '2026-05-01', '2026-06-01'],
      ['what did ana do last march?', '2026-03-01', '2026-04-01'],
    ] as const) {
      assert.deepEqual(timeScope(q, DECEMBER, NO_SLACK)?.periods, [days(since, until)], q);
    }
    // Not the verb: "the last may be".
    assert.equal(timeScope('which of the last may be true?', DECEMBER, NO_SLACK), null);
  });
});

describe('"since last May", "between last March and last May" (rules 112)', () => {
  test('"since last May" searches May 2026 until now', () => {
    // On main: the turns searched were May 2026 only (periods and ranges to 1 June).
    const s = timeScope('What has Ana done since last May?', DECEMBER, NO_SLACK);
    assert.deepEqual(s?.periods, [{ since: '2026-05-01T00:00:00.000Z', until: '2026-12-07T10:00:00.000Z' }]);
    assert.deepEqual(s?.windows, [{ since: '2026-05-01T00:00:00.000Z', until: '2026-12-07T10:00:00.000Z', open: true }]);
    // "last May" alone is still the month.
    assert.deepEqual(timeScope('What did Ana do last May?', DECEMBER, NO_SLACK)?.periods, [{ since: '2026-05-01T00:00:00.000Z', until: '2026-06-01T00:00:00.000Z' }]);
  });

  test('"between last March and last May" is March to May 2026', () => {
    // On main: March 2026 and May 2026, two ranges with April left out.
    const s = timeScope('What did Ana do between last March and last May?', DECEMBER, NO_SLACK);
    assert.deepEqual(s?.periods, [{ since: '2026-03-01T00:00:00.000Z', until: '2026-06-01T00:00:00.000Z' }]);
    assert.deepEqual(s?.windows, [{ since: '2026-03-01T00:00:00.000Z', until: '2026-06-01T00:00:00.000Z', open: false }]);
    assert.deepEqual(s?.expressions, ['between last March and last May']);
    // "between last November and last January" runs over the year's end.
    assert.deepEqual(timeScope('What did Ana do between last November and last January?', new Date('2026-03-07T10:00:00Z'), NO_SLACK)?.periods,
      [{ since: '2025-11-01T00:00:00.000Z', until: '2026-02-01T00:00:00.000Z' }]);
  });
});

describe('"between last month and last May" (rules 112 after review, H2)', () => {
  test('a relative first side is read from now, not from the month after "and"', () => {
    // Before: 2026-04-01 to 2026-06-01 ("last month" read as the month before May).
    for (const q of ['What did Ana do between last month and last May?', 'What did Ana do between last week and last May?']) {
      const s = timeScope(q, DECEMBER, NO_SLACK);
      assert.ok(s?.periods.every((p) => p.since !== '2026-04-01T00:00:00.000Z' && !p.since.startsWith('2026-04-24')), `${q}: ${JSON.stringify(s?.periods)}`);
      assert.ok(s?.periods.some((p) => p.since === '2026-05-01T00:00:00.000Z'), `${q}: ${JSON.stringify(s?.periods)}`);
    }
  });
});

describe('one span from "last March" to a month, the week before last (rules 114)', () => {
  test('M3: "between last March and June", "from last March to last May" are one span of 2026', () => {
    // On bc038ba3: March 2026 to July 2027 ("June" read from now); "from last March to last May" was March 2026 to now
    // and May 2026, two ranges.
    for (const [q, since, until] of [['What did Ana do between last March and June?', '2026-03-01', '2026-07-01'],
      ['What did Ana do from last March to last May?', '2026-03-01', '2026-06-01'],
      ['What did Ana do from last March to June?', '2026-03-01', '2026-07-01']] as const) {
      const s = timeScope(q, DECEMBER, NO_SLACK);
      assert.deepEqual(s?.periods, [days(since, until)], q);
      assert.deepEqual(s?.windows, [{ ...days(since, until), open: false }], q);
    }
    // Still as they were: "between last March and last May", "since last May".
    assert.deepEqual(timeScope('What did Ana do between last March and last May?', DECEMBER, NO_SLACK)?.periods, [days('2026-03-01', '2026-06-01')]);
    assert.deepEqual(timeScope('What has Ana done since last May?', DECEMBER, NO_SLACK)?.periods, [{ since: '2026-05-01T00:00:00.000Z', until: '2026-12-07T10:00:00.000Z' }]);
  });

  test('M7: "the week before last" is the calendar week before last week, 23 to 29 November', () => {
    // On bc038ba3: no time named (null).
    const s = timeScope('What did Ana do the week before last?', DECEMBER, NO_SLACK);
    assert.deepEqual(s?.periods, [days('2026-11-23', '2026-11-30')]);
    assert.deepEqual(s?.expressions, ['the week before last']);
    assert.doesNotMatch(s?.rest ?? '', /week|before|last/);
    // "last week" is still the week after it.
    assert.deepEqual(timeScope('What did Ana do last week?', DECEMBER, NO_SLACK)?.periods, [days('2026-11-30', '2026-12-07')]);
  });
});

describe('"last March" with "now", a bare month after it, "the week before last …" (rules 114 after review)', () => {
  test('H1: "between last March and now / today", "from last March to now" run from 1 March to now', () => {
    // Before the fix: 1 to 2 March 2026 ("now" read from 1 March).
    for (const q of ['What did I do between last March and now?', 'What did I do between last March and today?',
      'What did I do from last March to now?', 'What did I do from last March until today?']) {
      const p = timeScope(q, DECEMBER, NO_SLACK)?.periods;
      assert.equal(p?.length, 1, q);
      assert.equal(p![0]!.since, '2026-03-01T00:00:00.000Z', q);
      assert.ok(p![0]!.until >= '2026-12-07T10:00:00.000Z', `${q}: ${JSON.stringify(p)}`);
    }
  });

  test('M2: "between last June and March" is one span, from June 2026 to now (the March after it is still to come)', () => {
    // Before the fix: last June and March of every year apart (11 periods).
    assert.deepEqual(timeScope('What did I do between last June and March?', DECEMBER, NO_SLACK)?.periods, [days('2026-06-01', '2026-12-08')]);
    // A month after it gone by: to its end ("between last March and June": March to June 2026).
    assert.deepEqual(timeScope('What did I do between last March and June?', DECEMBER, NO_SLACK)?.periods, [days('2026-03-01', '2026-07-01')]);
  });

  test('M1: "the week before last Christmas / month\'s / year\'s" is not the week before last week', () => {
    // Before the fix: 23 to 30 November for each.
    for (const q of ['What happened the week before last Christmas?', "What happened the week before last month's trip?",
      "What happened the week before last year's trip?"]) {
      const s = timeScope(q, DECEMBER, NO_SLACK);
      assert.ok(!(s?.expressions ?? []).includes('the week before last'), `${q}: ${JSON.stringify(s?.expressions)}`);
      assert.ok(!(s?.periods ?? []).some((p) => p.since === '2026-11-23T00:00:00.000Z'), `${q}: ${JSON.stringify(s?.periods)}`);
    }
  });
});
