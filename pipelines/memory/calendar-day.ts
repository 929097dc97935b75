/**
 * Calendar days written `YYYY-MM-DD`, as the rules resolve dates (relative-date.ts, week-from.ts) and as an LLM writes
 * them (a day glued onto a fact's text, glued-dates.ts; a reply's `valid_from` / `valid_until`, llm-extractor.ts): one
 * reading of what is a day and of a day moved by days, for all of them.
 */
import { DAY_MS } from '../../graph/core/time.js';

/**
 * Midnight UTC of `iso` (`YYYY-MM-DD`) in milliseconds, or null when it is no day of the calendar: "2026-02-30" is none,
 * though `Date.parse` reads it as 2 March.
 */
export function calendarDayStart(iso: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return null;
  const t = Date.parse(`${iso}T00:00:00.000Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === iso ? t : null;
}

/** True when `iso` (`YYYY-MM-DD`) is a day of the calendar ("2026-02-30" is none). */
export function isCalendarDay(iso: string): boolean {
  return calendarDayStart(iso) !== null;
}

/** `day` (`YYYY-MM-DD`) moved by `days` days. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The day of `weekday` (0 Sunday … 6 Saturday) in the calendar week, Monday first, after the one `day` (`YYYY-MM-DD`)
 * is in: what "next Wednesday" names, as chrono reads it. Said on a Monday or Tuesday it is not the Wednesday two or
 * one days on but the one after; said Thursday to Sunday, the coming one (next week's); said on a Wednesday, a week on.
 */
export function weekdayOfNextWeek(day: string, weekday: number): string {
  const today = new Date(Date.parse(`${day}T00:00:00.000Z`)).getUTCDay();
  const toMonday = 7 - ((today + 6) % 7);
  return addDays(day, toMonday + ((weekday + 6) % 7));
}
