/**
 * The holidays the rules read, in one table: the fixed days of Christmas and the new year, Easter by the computus, and
 * the days the school holidays end by. Read by the ends of temporary states (`namedEnd`: "until Christmas", "for the
 * holidays") and by the span of a stay ("over Easter", "over Christmas": `staySpan`).
 */
import { DAY_MS } from '../../graph/core/time.js';

/** A day of the year: `month` 0-based, `day` of the month. */
export interface YearDay {
  month: number;
  day: number;
}

/** The fixed days, each once. */
export const HOLIDAY_DAYS = {
  christmasEve: { month: 11, day: 24 },
  christmasDay: { month: 11, day: 25 },
  /** Boxing Day, the last day of a stay "over Christmas". */
  boxingDay: { month: 11, day: 26 },
  newYearsDay: { month: 0, day: 1 },
  /** The Christmas holidays end after New Year's Day. */
  christmasHolidaysEnd: { month: 0, day: 2 },
  /** The summer holidays end as September begins. */
  summerHolidaysEnd: { month: 8, day: 1 },
} as const satisfies Record<string, YearDay>;

/** Midnight (UTC) of `at` in `year`. */
export function dayIn(year: number, at: YearDay): number {
  return Date.UTC(year, at.month, at.day);
}

/** `instant(year)` for `refIso`'s year when it lies after `refIso`, else for the year after. */
function firstAfter(refIso: string, instant: (year: number) => number): number {
  const ref = Date.parse(refIso);
  const year = new Date(ref).getUTCFullYear();
  const t = instant(year);
  return t > ref ? t : instant(year + 1);
}

/** Midnight (UTC) of `at` in the first year from `refIso`'s on whose date lies after `refIso`. */
export function nextDay(refIso: string, at: YearDay): number {
  return firstAfter(refIso, (year) => dayIn(year, at));
}

/** The end of `at` (midnight UTC after it) in the first year from `refIso`'s in which that end lies after `refIso`. */
export function nextDayEnd(refIso: string, at: YearDay): number {
  return firstAfter(refIso, (year) => dayIn(year, at) + DAY_MS);
}

/** Easter Sunday of `year` (Gregorian, the anonymous computus), as midnight UTC. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const h = (19 * a + b - Math.floor(b / 4) - Math.floor((8 * b + 13) / 25) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/** A feast a stay may span ("over Easter", "for Christmas"). */
export type Feast = 'easter' | 'christmas';

/**
 * A feast's days in `year`, the end exclusive: Easter from Good Friday to Easter Monday, Christmas from Christmas Eve
 * to Boxing Day.
 */
export function feastDays(feast: Feast, year: number): [number, number] {
  if (feast === 'easter') {
    const sunday = easterSunday(year);
    return [sunday - 2 * DAY_MS, sunday + 2 * DAY_MS];
  }
  return [dayIn(year, HOLIDAY_DAYS.christmasEve), dayIn(year, HOLIDAY_DAYS.boxingDay) + DAY_MS];
}
