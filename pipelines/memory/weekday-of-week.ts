/**
 * A weekday named by the week it lies in (reviewB #9): "Friday next week", "next week on Friday", "the Friday after
 * next", "Friday week". chrono reads the first whole but the rules took its "week" for a week's Monday, reads the second as two phrases
 * ("next week" and this week's "on Friday") and the third as the coming Friday. Each is the day itself, read as "next
 * Friday" is (rules 61: that day of next week, Monday first; `weekdayOfNextWeek`), "after next" a week later.
 */
import { addDays, weekdayOfNextWeek } from './calendar-day.js';
import { WEEKDAY_NAME } from './months.js';

/** A weekday told by its week, where it stands in the text and the day it names. */
export interface WeekdayOfWeek {
  index: number;
  /** The words as said ("on Friday next week", "next week on Friday", "Friday after next": a "the" before it is left to date-text.ts). */
  phrase: string;
  /** `YYYY-MM-DD`. */
  date: string;
}

const DAY = String.raw`(mon|tues|wednes|thurs|fri|satur|sun)day`;
/**
 * Not the last day of a range of weekdays ("I'm off Monday to Wednesday next week": the whole range is next week's,
 * relative-date.ts `rangeEnd`; rules 111).
 */
const RANGE_END = String.raw`(?<!${WEEKDAY_NAME}(?:\s+(?:to|through|thru|till|until)\s+|\s*[-–]\s*))`;
/**
 * "(on) Friday (of) next week", "next week(,) (on) Friday", "(on) Friday after next" (also after "the"), and the British
 * "(on) Friday week" (rules 68): Friday of next week, as "Friday next week" is; not the end of a span of days ("a Monday to
 * Friday week", "a Monday-Friday week": rules 74).
 */
/**
 * A weekday listed before another said with "next week" ("Tuesday and Friday next week", "Tuesday, Wednesday and Friday
 * next week"; rules 112): of next week too, not the coming one.
 */
const listedBefore = (week: string): string => String.raw`(?=(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:on\s+)?(?:${WEEKDAY_NAME}(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)(?:on\s+)?)*${WEEKDAY_NAME}\s+(?:of\s+)?${week}\s+week\b)`;
const LISTED_BEFORE = listedBefore('next');
const FORMS = new RegExp(String.raw`(?<![\w'’])(?:${RANGE_END}(?:on\s+)?${DAY}(?:${LISTED_BEFORE}|\s+(?:of\s+)?next\s+week)|next\s+week,?\s+(?:on\s+)?${DAY}|(?:on\s+)?${DAY}\s+after\s+next|(?<!\b(?:to|till|until|through|thru)\s+|[-–]\s*)(?:on\s+)?${DAY}\s+week)(?![\w'’])`, 'gi');
/**
 * "(on) Friday (of) last week", "Tuesday and Friday last week", "last week on Friday" (rules 114, M7): that day of last
 * week, as "Friday next week" is of next (chrono read "Friday last week" as the week, and "Tuesday" as the last one).
 */
const LAST_FORMS = new RegExp(String.raw`(?<![\w'’])(?:${RANGE_END}(?:on\s+)?${DAY}(?:${listedBefore('last')}|\s+(?:of\s+)?last\s+week)|last\s+week,?\s+on\s+${DAY})(?![\w'’])`, 'gi');
const WEEKDAYS = ['sun', 'mon', 'tues', 'wednes', 'thurs', 'fri', 'satur'];

/** Every weekday `text` names by its week, resolved against `refIso` (UTC), in the order said. */
export function weekdaysOfWeeks(text: string, refIso: string): WeekdayOfWeek[] {
  const today = refIso.slice(0, 10);
  const ahead = [...text.matchAll(FORMS)].map((m) => {
    const [, first, second, third, fourth] = m as unknown as [string, string | undefined, string | undefined, string | undefined, string | undefined];
    const next = weekdayOfNextWeek(today, WEEKDAYS.indexOf((first ?? second ?? third ?? fourth)!.toLowerCase()));
    return { index: m.index, phrase: m[0], date: third ? addDays(next, 7) : next };
  });
  const behind = [...text.matchAll(LAST_FORMS)].map((m) => {
    const day = WEEKDAYS.indexOf((m[1] ?? m[2])!.toLowerCase());
    return { index: m.index, phrase: m[0], date: addDays(weekdayOfNextWeek(today, day), -14) };
  });
  return [...ahead, ...behind].sort((a, b) => a.index - b.index);
}

/** `text` with each weekday told by its week blanked (same length, indices hold), for chrono to read the rest. */
export function withoutWeekdaysOfWeeks(text: string, found: readonly WeekdayOfWeek[]): string {
  let out = text;
  for (const w of found) out = `${out.slice(0, w.index)}${' '.repeat(w.phrase.length)}${out.slice(w.index + w.phrase.length)}`;
  return out;
}
