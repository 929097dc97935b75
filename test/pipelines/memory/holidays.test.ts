/** The one holiday table (pipelines/memory/holidays.ts): its days, the next one after a moment, a feast's span. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOLIDAY_DAYS, feastDays, nextDay, nextDayEnd } from '../../../pipelines/memory/holidays.js';

const iso = (ms: number): string => new Date(ms).toISOString();

test('nextDay: this year\'s day while it lies ahead, else next year\'s', () => {
  assert.equal(iso(nextDay('2026-12-01T12:00:00.000Z', HOLIDAY_DAYS.newYearsDay)), '2027-01-01T00:00:00.000Z');
  assert.equal(iso(nextDay('2026-07-10T09:00:00.000Z', HOLIDAY_DAYS.summerHolidaysEnd)), '2026-09-01T00:00:00.000Z');
  assert.equal(iso(nextDay('2026-09-01T00:00:00.000Z', HOLIDAY_DAYS.summerHolidaysEnd)), '2027-09-01T00:00:00.000Z', 'at its midnight: passed');
});

test('nextDayEnd: the midnight after the day, this year\'s while that lies ahead (said on the day itself, today\'s)', () => {
  assert.equal(iso(nextDayEnd('2026-12-25T10:00:00.000Z', HOLIDAY_DAYS.christmasDay)), '2026-12-26T00:00:00.000Z');
  assert.equal(iso(nextDayEnd('2026-12-26T10:00:00.000Z', HOLIDAY_DAYS.christmasDay)), '2027-12-26T00:00:00.000Z');
  assert.equal(iso(nextDayEnd('2026-12-01T12:00:00.000Z', HOLIDAY_DAYS.christmasEve)), '2026-12-25T00:00:00.000Z');
});

test('feastDays: Christmas Eve to Boxing Day, Good Friday to Easter Monday (end exclusive)', () => {
  assert.deepEqual(feastDays('christmas', 2026).map(iso), ['2026-12-24T00:00:00.000Z', '2026-12-27T00:00:00.000Z']);
  assert.deepEqual(feastDays('easter', 2027).map(iso), ['2027-03-26T00:00:00.000Z', '2027-03-30T00:00:00.000Z']);
});
