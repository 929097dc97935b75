import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { absoluteDates, findDates, toldAsPast } from '../../../pipelines/memory/relative-date.js';
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
