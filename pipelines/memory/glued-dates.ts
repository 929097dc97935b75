/**
 * Calendar days glued onto a fact's text as ISO dates (llmpath): an LLM asked to resolve "next Friday" writes "next Friday
 * 2026-12-04" or "on Friday (2026-12-04)". A fact reads as a person would write it, with the day written out as the rules
 * write it ("on Friday 4 December 2026", date-text.ts), and the day is the fact's `eventTime`, a field, not text.
 */
import { isCalendarDay } from './calendar-day.js';
import { absoluteDates } from './date-text.js';
import { findDates, type FoundDate } from './relative-date.js';

/** An ISO day, bare or in brackets. */
const ISO_DAY = /\(\s*(\d{4}-\d{2}-\d{2})\s*\)|(?<![\w-])(\d{4}-\d{2}-\d{2})(?![\w-])/g;

/** The text with ISO days written out, and the days found (in order), for `eventTime`. */
export interface UngluedText {
  text: string;
  days: string[];
}

/**
 * `text` with each ISO day written as the rules write a date (`absoluteDates`): the date phrase said right before it
 * ("next Friday 2026-12-04") and the ISO day together become the day written out ("on Friday 4 December 2026"), by the
 * ISO day (what the writer resolved); an ISO day alone becomes the day written out, with "on" unless a preposition
 * leads it ("by Friday 4 December 2026"). `time` (the turn's ISO time) resolves the phrase found before it.
 */
export function withoutGluedDates(text: string, time: string): UngluedText {
  const unbracketed = text.replace(ISO_DAY, (m, bracketed: string | undefined, bare: string | undefined) => {
    // "Friday (2026-12-04)": the day without its brackets, a word of its own.
    if (bracketed !== undefined) return isCalendarDay(bracketed) ? ` ${bracketed}` : m;
    return bare ?? m;
  }).replace(/ {2,}/g, ' ');
  const dates: FoundDate[] = [];
  for (const m of unbracketed.matchAll(/(?<![\w-])(\d{4}-\d{2}-\d{2})(?![\w-])/g)) {
    const iso = m[1]!;
    if (!isCalendarDay(iso)) continue;
    const head = unbracketed.slice(0, m.index).trimEnd();
    const said = findDates(head, time).filter((d) => !d.duration && head.endsWith(d.phrase)).pop();
    const start = said ? head.length - said.phrase.length : m.index;
    dates.push({ phrase: unbracketed.slice(start, m.index + iso.length), date: iso, duration: false, week: false });
  }
  if (dates.length === 0) return { text, days: [] };
  return { text: absoluteDates(unbracketed, dates), days: dates.map((d) => d.date) };
}
