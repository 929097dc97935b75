/**
 * Spans of time said in words: a count ("two", "a few", "several": one table, `countOf`), a length counted in days,
 * nights, weeks, fortnights or months (`countedLength`), a start ahead ("from Monday", "next week": `startAhead`), and
 * the words that say an end outright ("until", "till", "through": `UNTIL`).
 */
import * as chrono from 'chrono-node';
import { DAY_MS } from '../../graph/core/time.js';
import { monthAheadYear } from './month-ahead.js';
import { NUMBER_WORDS } from '../../graph/spoken-digits.js';
import { MONTH_NAME, WEEKDAY_NAME } from './months.js';

/** The number words a span is counted by, "one" to "twelve" (their numbers: the one table, `NUMBER_WORDS`). */
const COUNT_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'] as const;

/** Words that count a span ("two", "a few", "10"): `countOf` reads them as a number. */
export const COUNT = String.raw`(?:a|an|${COUNT_WORDS.join('|')}|a\s+few|a\s+couple\s+of|several|\d+)`;
/** A counted span as chrono reads it ("two weeks", "a month", "10 days"), not a day it names ("the weekend"). */
export const COUNTED = new RegExp(String.raw`^${COUNT}\s+(?:days?|nights?|weeks?|fortnights?|months?|years?)$`, 'i');
/** The one count table: the number words (`NUMBER_WORDS`), "a few" 3 as chrono reads "a few days", "a couple of" 2, "several" 3. */
const COUNTS: Record<string, number> = {
  a: 1, an: 1, ...Object.fromEntries(COUNT_WORDS.map((w) => [w, NUMBER_WORDS[w]!])), 'a few': 3, 'a couple of': 2, several: 3,
};

/** The largest count read (about ten years of days): "for 100000 days" is said in jest, no span to store (rules 35). */
export const MAX_COUNT = 3660;

/** The number a count (`COUNT`, as said) names: "two" 2, "a couple of" 2, "10" 10; null above `MAX_COUNT`. */
export function countOf(words: string): number | null {
  const c = words.toLowerCase().replace(/\s+/g, ' ');
  const n = /^\d+$/.test(c) ? Number(c) : COUNTS[c] ?? 1;
  return n <= MAX_COUNT ? n : null;
}

/** The words that say an end outright ("until Friday", "till June", "through the end of the year"). */
export const UNTIL = String.raw`(?:until|till|til|through|thru)`;
/** An end said outright in a sentence ("until the 20th", "till June"). */
export const UNTIL_SAID = new RegExp(String.raw`\b${UNTIL}\s+\S`, 'i');

/** A length said as a count of days (nights), weeks, fortnights or months: "for two weeks", "spending a month". */
export interface CountedLength {
  count: number;
  unit: 'day' | 'week' | 'fortnight' | 'month';
}

/** How long, counted, after "for" or "spend" (as `findDates` reads a duration): "for ten days", "for the next two weeks". */
const LENGTH = new RegExp(String.raw`\b(?:for|spend(?:s|ing)?)\s+(?:the\s+next\s+)?(${COUNT})\s+(days?|nights?|weeks?|fortnights?|months?)\b`, 'i');

/** The first length `text` says something lasts, counted ("for a few nights": 3 days; "a couple of" is 2); null when none or the length is past `MAX_COUNT` days. */
export function countedLength(text: string): CountedLength | null {
  const m = LENGTH.exec(text);
  if (!m) return null;
  const count = countOf(m[1]!);
  if (count === null) return null;
  const u = m[2]!.toLowerCase();
  const unit = u.startsWith('month') ? 'month' : u.startsWith('fortnight') ? 'fortnight' : u.startsWith('week') ? 'week' : 'day';
  // The bound is on the length, not the count: "for 3000 weeks" is as much said in jest as "for 100000 days".
  return count * UNIT_DAYS[unit] <= MAX_COUNT ? { count, unit } : null;
}

/** Days in a unit of `CountedLength`, a month at its longest (for the bound only). */
const UNIT_DAYS: Record<CountedLength['unit'], number> = { day: 1, week: 7, fortnight: 14, month: 31 };

/** `ms` plus `length` (months by the calendar, keeping the time of day). */
export function afterLength(ms: number, length: CountedLength): number {
  if (length.unit === 'month') {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + length.count, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  }
  return ms + length.count * { day: 1, week: 7, fortnight: 14 }[length.unit] * DAY_MS;
}

/** The Monday (00:00 UTC) after the Monday-to-Sunday week holding `ms`. */
export function nextMonday(ms: number): number {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  return day + (7 - ((new Date(ms).getUTCDay() + 6) % 7)) * DAY_MS;
}

/** A start ahead named: "from Monday", "starting Friday", "next week / month", "in January", "on Friday", "tomorrow". */
/** A month's name in full. */
const MONTH = `(?:${MONTH_NAME})`;
const AHEAD = new RegExp(String.raw`\b(?:from|starting)\s+\S[^,.;!?]*|\bnext\s+(?:week|month)\b|\b(?:in|this|next)\s+${MONTH}\b`
  + String.raw`|\bon\s+${WEEKDAY_NAME}\b|\btomorrow\b`, 'i');

/**
 * The start ahead `text` names (`AHEAD`, "for …" after it left out), read forward from `refMs` with chrono: its first day
 * (00:00 UTC; a month alone: its 1st) and the exclusive end of the day, week ("next week") or month it names, null after
 * "from" or "starting" (a first day, no last). Null when it names none; the start may lie before `refMs`.
 */
export function startAhead(text: string, refMs: number): { start: number; end: number | null } | null {
  const phrase = AHEAD.exec(text)?.[0].replace(/\s+for\s+.*$/i, '');
  if (phrase === undefined) return null;
  const [r] = chrono.en.parse(phrase, { instant: new Date(refMs), timezone: 0 }, { forwardDate: true });
  if (!r) return null;
  const at = r.start.date().getTime();
  if (/\bnext\s+week\b/i.test(phrase)) {
    const monday = nextMonday(refMs);
    return { start: monday, end: monday + 7 * DAY_MS };
  }
  if (!r.start.isCertain('day') && !r.start.isCertain('weekday') && r.start.isCertain('month')) {
    // "in December" said in December: this one, its rest ahead; "next December": next year's (`monthAheadYear`).
    const month = new Date(at).getUTCMonth();
    const year = monthAheadYear(month, refMs, phrase.slice(0, phrase.search(new RegExp(MONTH, 'i'))));
    return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
  }
  const day = Math.floor(at / DAY_MS) * DAY_MS;
  return { start: day, end: /^(?:from|starting)\b/i.test(phrase) ? null : day + DAY_MS };
}
