import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { absoluteDates } from '../../../pipelines/memory/date-text.js';
import { eventDate, findDates } from '../../../pipelines/memory/relative-date.js';
import { clauseAround, toldAsPast } from '../../../pipelines/memory/told-tense.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';
import { namedDate } from '../../../pipelines/retrieval/memory-items.js';

// Friday 14 July 2023, 15:00 UTC.
const SAID = '2023-07-14T15:00:00.000Z';
const dateOf = (text: string): string | undefined => findDates(text, SAID)[0]?.date;

describe('relative dates told of the past', () => {
  test('a past-tense verb with no word that looks ahead tells of the past', () => {
    for (const t of ['We went camping in May.', 'I got it on Tuesday.', 'I have been to Rome in May.', 'We had a great time.']) assert.ok(toldAsPast(t), t);
    for (const t of ['I am going to Lisbon in May.', 'She needs a bed in March.', 'He goes there in June.', 'I will call you on Friday.',
      'I finished it and will send it next week.', 'I want to see it.']) assert.ok(!toldAsPast(t), t);
  });

  test('a month or weekday told of the past lies behind; said of the future, ahead', () => {
    assert.equal(dateOf('We went camping in May.'), '2023-05');
    assert.equal(dateOf("I'm going camping in May."), '2024-05');
    assert.equal(dateOf('I called her on Tuesday.'), '2023-07-11');
    assert.equal(dateOf('I will call her on Tuesday.'), '2023-07-18');
    assert.equal(dateOf('See you next Tuesday!'), '2023-07-18');
  });

  test('a phrase that names only a year gives the year, not a day', () => {
    assert.equal(dateOf('Last year, I helped renovate a community center.'), '2022');
    assert.equal(dateOf('I moved here 4 years ago.'), '2019');
    assert.equal(dateOf('Last month was busy.'), '2023-06');
    assert.equal(absoluteDates('I helped them last year.', findDates('I helped them last year.', SAID)), 'I helped them in 2022.');
  });

  test('"at the weekend" takes the date\'s own preposition, not "at on Saturday"', () => {
    const text = "I'm going to mow the lawn at the weekend.";
    const out = absoluteDates(text, findDates(text, SAID));
    assert.match(out, /lawn on Saturday \d+ July 2023/);
    assert.doesNotMatch(out, /\bat on\b/);
  });

  test('namedDate: the first date a turn names, none for durations or no date', () => {
    assert.equal(namedDate('Started to learn these tools today.', SAID), '2023-07-14');
    assert.equal(namedDate('Last week I scored 40 points.', SAID), '2023-07-03', 'a week: its Monday');
    assert.equal(namedDate("I can't lift heavy things for a month.", SAID), null, 'a duration is no event time');
    assert.equal(namedDate('I have 3 kids and 2 dogs.', SAID), null);
    assert.equal(namedDate('I may go there sometime.', SAID), null, '"may" the verb is no month');
  });
});

describe('durations told in the perfect or the past, and dates read sentence by sentence', () => {
  test('"can\'t" is no past tense: a weekday it names lies ahead', () => {
    assert.ok(!toldAsPast("I can't come on Friday."));
    assert.equal(dateOf("I can't come on Tuesday."), '2023-07-18');
    assert.equal(dateOf('I came on Tuesday.'), '2023-07-11', 'told of the past: behind');
  });

  test('a duration in the perfect or the past ends no state ahead; in the present it does', () => {
    assert.equal(stateEnd('I have been vegetarian for two years.', SAID), null, 'the two years lie behind');
    assert.equal(stateEnd("I've had them for 3 years now.", SAID), null);
    assert.equal(stateEnd('I lived there for five years.', SAID), null);
    assert.equal(stateEnd("I'm off work for a month.", SAID), '2023-08-14T15:00:00.000Z');
    assert.equal(stateEnd("I hurt my back, so I can't lift heavy things for a month.", SAID), '2023-08-14T15:00:00.000Z',
      'the clause holding the duration counts, not an earlier one in the past');
    assert.equal(stateEnd("I broke my leg so I'm on crutches for six weeks.", SAID), '2023-08-25T15:00:00.000Z');
  });

  test('a duration in the perfect gives when the state began, as precise as its unit', () => {
    const since = (t: string): string | undefined => findDates(t, SAID).find((d) => d.since)?.since;
    assert.equal(since("I've had them for 3 years now."), '2020');
    assert.equal(since("She's been teaching for six months."), '2023-01');
    assert.equal(since("I've been off sick for ten days."), '2023-07-04');
    assert.equal(since("I'm away for two weeks."), undefined, 'the present: an end ahead, no start');
    assert.equal(since('I lived there for five years.'), undefined, 'the past: it ended, when is not said');
  });

  test('a bare day of the month told of the past lies behind', () => {
    assert.equal(dateOf('I met up with my teammates on the 12th.'), '2023-07-12');
    assert.equal(dateOf('I met up with them on the 20th.'), '2023-06-20');
    assert.equal(dateOf('The party is on the 20th.'), '2023-07-20');
  });

  test('clauseAround: the clause holding a position', () => {
    const t = "I hurt my back, so I can't lift heavy things for a month.";
    assert.equal(clauseAround(t, t.indexOf('for a month')).trim(), "I can't lift heavy things for a month");
    assert.equal(clauseAround(t, 3).trim(), 'I hurt my back');
  });

  test('clauseAround: one splitter for tenses and ends, joining words break, a clause with no verb is the sentence', () => {
    const t = 'For two years, I lived there.';
    assert.equal(clauseAround(t, 0), t, '"For two years" has no verb of its own');
    assert.equal(clauseAround('I rang her on Tuesday', 10), 'I rang her on Tuesday', 'one clause: the sentence');
    assert.equal(stateEnd(t, SAID), null, 'the duration is told of the past');
    assert.equal(dateOf('Your mum called and she wants us over on Sunday.'), '2023-07-16',
      'the date is to come by its own clause after "and", the call before it is past');
  });

  test('namedDate: each sentence on its own, a perfect state\'s start, an act just done', () => {
    assert.equal(namedDate("On Tuesday I got great news. Next month I'm off to Ireland!", SAID), '2023-07-11',
      'the look-ahead of another sentence does not move the Tuesday ahead');
    assert.equal(namedDate("I've had them for 3 years now and they bring me joy!", SAID), '2020', 'not "now"');
    assert.equal(namedDate('Hey! I just got accepted for an internship!', SAID), '2023-07-14');
    assert.equal(namedDate("It's just a hobby, really.", SAID), null, '"just" with nothing done');
    assert.equal(namedDate('I just love it.', SAID), null);
  });

  test('eventDate: a perfect state\'s start before a "now", else the first date, else today for an act just done', () => {
    assert.equal(eventDate("I've had them for 3 years now.", SAID), '2020');
    assert.equal(eventDate('I went there last Tuesday.', SAID), '2023-07-11');
    assert.equal(eventDate("We've just finished the kitchen.", SAID), '2023-07-14');
    assert.equal(eventDate("It's just a hobby.", SAID), null);
    assert.equal(eventDate("I'm away for two weeks.", SAID), null, 'a duration ahead is an end, no event date');
  });

  test('"was" is a past form: a day it names lies behind, and an "until" told of the past ends nothing', () => {
    assert.equal(dateOf('I was in Paris on Tuesday.'), '2023-07-11');
    assert.equal(dateOf('She is at the vet on Tuesday.'), '2023-07-18');
    assert.equal(stateEnd('I was off until Monday.', SAID), null);
    assert.equal(stateEnd("I'm off until Monday.", SAID), '2023-07-18T00:00:00.000Z');
  });

  test('"until the 9th": a bare day of the month ends a state on the day after it', () => {
    assert.equal(stateEnd("Heads up, I'm on nights at the hospital until the 20th, so evenings are tricky.", SAID), '2023-07-21T00:00:00.000Z');
    assert.equal(stateEnd('The shop is shut till the 3rd.', SAID), '2023-08-04T00:00:00.000Z', 'a day gone by this month: next month\'s');
  });

  test('a participle after a present "be" is a state now, not a past act: its duration or "until" ends it ahead', () => {
    assert.equal(stateEnd('The road is closed for two weeks.', SAID), '2023-07-28T15:00:00.000Z');
    assert.equal(stateEnd("I'm tied up for a week.", SAID), '2023-07-21T15:00:00.000Z');
    assert.equal(stateEnd('Our card machine is broken until Wednesday.', SAID), '2023-07-20T00:00:00.000Z');
    assert.equal(stateEnd('The shop has been closed for two weeks.', SAID), null, 'the perfect: behind');
    assert.ok(!toldAsPast('The meeting is scheduled for Friday.'));
  });
});

describe('"this week" and abbreviated weekdays', () => {
  test('"this week" is the week holding the day it was said, told of the past or not', () => {
    assert.equal(dateOf('Guess what I did this week?'), '2023-07-10');
    assert.equal(dateOf("I'm working from home this week."), '2023-07-10');
    assert.equal(dateOf('I went there last week.'), '2023-07-03');
  });

  test('"Tues" and "Weds" are weekdays, and an abbreviated weekday on its own reads as the full one', () => {
    assert.equal(dateOf('I just joined a new activist group last Tues.'), '2023-07-11');
    assert.equal(dateOf("I'll see her on Weds."), '2023-07-19');
    assert.equal(dateOf('I saw her on Wed.'), '2023-07-12');
    assert.equal(dateOf('So, I sat with her and we talked.'), undefined, '"sat" is no Saturday');
    assert.ok(!findDates('They will wed in June.', SAID).some((d) => /wed/i.test(d.phrase)), '"wed" is no Wednesday');
    const said = 'I just joined a new activist group last Tues.';
    assert.equal(absoluteDates(said, findDates(said, SAID)), 'I just joined a new activist group on Tuesday 11 July 2023.');
  });
});

describe('a weekday or week is a date only when it is a time, not what a generic statement is about', () => {
  // Saturday 5 December 2026.
  const NOW = '2026-12-05T10:00:00.000Z';
  const rewrite = (text: string): string => absoluteDates(text, findDates(text, NOW));

  test('generic statements keep their words and name no date', () => {
    for (const text of [
      'Sunday is my favourite day.', 'Sunday is the best part of the week.', 'I love the week before Christmas.',
      'Monday is always hard.', 'My favourite day is Sunday.', 'I hate Monday.', 'Friday is my favorite day of the week.',
      'Saturday is a lazy day.', 'Tuesdays are quiet.', 'I work five days a week.', 'She hates the week after New Year.',
      'The week before the wedding was chaos.',
    ]) {
      assert.deepEqual(findDates(text, NOW), [], text);
      assert.equal(rewrite(text), text);
    }
  });

  test('a weekday or week that places something in time is dated, and no word is dropped', () => {
    const cases: [string, string, string][] = [
      ['See you on Sunday.', '2026-12-06', 'See you on Sunday 6 December 2026.'],
      ["I'll see you this Sunday.", '2026-12-06', "I'll see you on Sunday 6 December 2026."],
      ['Friday is the deadline.', '2026-12-11', 'Friday 11 December 2026 is the deadline.'],
      ['We are going away the week before Christmas.', '2026-12-14', 'We are going away the week before Christmas 2026.'],
      ['We went skiing the week after Christmas.', '2025-12-29', 'We went skiing the week after Christmas 2025.'],
      // Halloween 2027 is a Sunday: the week before it is the one leading into it.
      ['The party is the week before Halloween.', '2027-10-25', 'The party is the week before Halloween 2027.'],
      ['The week after next is free.', '2026-12-14', 'the week of Monday 14 December 2026 is free.'],
      ['The week before last was rough.', '2026-11-16', 'the week of Monday 16 November 2026 was rough.'],
      ['I will call you next week.', '2026-12-07', 'I will call you in the week of Monday 7 December 2026.'],
      ['I saw her last week.', '2026-11-23', 'I saw her in the week of Monday 23 November 2026.'],
    ];
    for (const [text, date, written] of cases) {
      assert.equal(findDates(text, NOW)[0]?.date, date, text);
      assert.equal(rewrite(text), written, text);
    }
  });
});

describe('"next <weekday>" said on each day of the week (rules 56)', () => {
  // Sunday 29 November to Saturday 5 December 2026, noon UTC.
  const days = ['2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05'];
  // What each names said on each of those days, "next Wednesday" as chrono reads it: Wednesday of next week, Monday first.
  const nextWednesday = ['2026-12-02', '2026-12-09', '2026-12-09', '2026-12-09', '2026-12-09', '2026-12-09', '2026-12-09'];
  const thisWednesday = ['2026-12-02', '2026-12-02', '2026-12-02', '2026-12-09', '2026-12-09', '2026-12-09', '2026-12-09'];
  const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

  test('a plan\'s day, the date written into its text and the end of a state agree, and follow chrono for "next"', () => {
    days.forEach((day, i) => {
      const said = `${day}T12:00:00.000Z`;
      const next = findDates("I'll send the report by next Wednesday.", said);
      assert.deepEqual(next.map((d) => d.date), [nextWednesday[i]], `next Wednesday said ${day}`);
      assert.equal(eventDate("I'll send the report next Wednesday.", said), nextWednesday[i], `plan next Wednesday said ${day}`);
      assert.match(absoluteDates("I'll send the report by next Wednesday.", next), new RegExp(` ${Number(nextWednesday[i]!.slice(8))} December 2026`));
      assert.equal(stateEnd("I'm in Lisbon until next Wednesday.", said), dayAfter(nextWednesday[i]!), `until next Wednesday said ${day}`);
      for (const words of ['this Wednesday', 'on Wednesday']) {
        assert.deepEqual(findDates(`I'll send the report ${words}.`, said).map((d) => d.date), [thisWednesday[i]], `${words} said ${day}`);
      }
    });
  });

  test('"next Sunday" said on a Saturday is the Sunday of next week; "next Monday" said on a Sunday, the next day', () => {
    assert.equal(findDates('See you next Sunday.', '2026-12-05T12:00:00.000Z')[0]?.date, '2026-12-13');
    assert.equal(stateEnd("I'm off until next Sunday.", '2026-12-05T12:00:00.000Z'), '2026-12-14T00:00:00.000Z');
    assert.equal(findDates('See you next Monday.', '2026-11-29T12:00:00.000Z')[0]?.date, '2026-11-30');
    assert.equal(findDates('See you next Friday.', '2026-12-04T12:00:00.000Z')[0]?.date, '2026-12-11');
  });
});
