/**
 * Moved and retimed bookings (rules 68, fixmove): a day a thing is moved to lies ahead though the move is told as done;
 * a new time of day said with the new day replaces the old one; "Friday week" is Friday of next week; a person told as
 * with something now, instead of what they were with, replaces the fact that held the old one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { factsSaid } from '../../helpers/extract-said.js';

const T = '2026-12-01T10:00:00.000Z'; // a Tuesday
const dates = (text: string, time = T): string[] => findDates(text, time).map((d) => d.date);

describe('a day a thing is moved to', () => {
  test('lies ahead, though the move is told as done', async () => {
    // Before: 2025-12-07, a December gone by (the clause is told as past).
    assert.deepEqual(dates("I moved Leo's checkup to Monday December 7."), ['2026-12-07']);
    assert.deepEqual(dates('We pushed the dentist back to Friday.'), ['2026-12-04']);
    assert.deepEqual(dates('She rescheduled it until the 12th.'), ['2026-12-12']);
    assert.deepEqual(dates('I booked a table for the 12th.'), ['2026-12-12']);
    const [fact] = await factsSaid("I moved Leo's checkup to Monday December 7.", T, ['maria', 'Maria'], ['jo', 'Jo']);
    assert.equal(fact?.eventTime, '2026-12-07');
    assert.match(fact?.content ?? '', /Monday 7 December 2026/);
  });

  test('a day told as past with no move stays past', () => {
    assert.deepEqual(dates('I called her on Friday.'), ['2026-11-27']);
    assert.deepEqual(dates('We went camping in May.'), ['2026-05']);
    assert.deepEqual(dates('I met up with them on the 15th.'), ['2026-11-15']);
  });
});
