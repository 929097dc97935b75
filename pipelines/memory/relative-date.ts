/**
 * Spoken dates ("next Friday", "tomorrow", "for a month") resolved against the utterance time with
 * chrono-node. Dates become fields of a fact (`eventTime`, `validTo`), never text glued onto it.
 */
import * as chrono from 'chrono-node';

/** One date phrase found in a sentence. */
export interface FoundDate {
  /** The words as spoken, e.g. `next Friday`. */
  phrase: string;
  /** ISO date `YYYY-MM-DD`, or `YYYY-MM` / `YYYY` when only that much is known. */
  date: string;
  /** True for a duration from now ("for a month"): the end of a temporary state. */
  duration: boolean;
  /** True when only the week is known ("last week"): `date` is its Monday. */
  week: boolean;
}

const PAST = /\b(?:last|past|ago|yesterday|previous)\b/i;
const BARE_WEEKDAY = /^(?:on\s+|this\s+|next\s+|coming\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day$/i;
const DURATION = /^for\s+/i;
const WEEK = /\bweek\b/i;

function precise(c: chrono.ParsedComponents): string {
  const d = c.date().toISOString();
  if (c.isCertain('day') || c.isCertain('weekday')) return d.slice(0, 10);
  if (c.isCertain('month')) return d.slice(0, 7);
  return d.slice(0, 10);
}

/**
 * Every date phrase of `text`, resolved against `refIso` (UTC). Future is preferred unless the phrase
 * looks back ("last Monday"); a bare or `next` weekday is its next occurrence after today.
 */
export function findDates(text: string, refIso: string): FoundDate[] {
  const instant = new Date(refIso);
  const dayStart = refIso.slice(0, 10);
  const out: FoundDate[] = [];
  for (const r of chrono.en.parse(text, { instant, timezone: 0 }, { forwardDate: !PAST.test(text) })) {
    const phrase = r.text.trim();
    let date = precise(r.start);
    if (BARE_WEEKDAY.test(phrase)) {
      // "next Friday" / "on Tuesday": the next such day after today (chrono skips a week for "next").
      const target = r.start.get('weekday') ?? 0;
      const now = instant.getUTCDay();
      const days = ((target - now + 7) % 7) || 7;
      date = new Date(Date.parse(`${dayStart}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
    }
    const week = WEEK.test(phrase) && !DURATION.test(phrase);
    if (week) {
      const d = new Date(`${date.slice(0, 10)}T00:00:00.000Z`);
      date = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    }
    out.push({ phrase, date, duration: DURATION.test(phrase), week });
  }
  return out;
}

/** The ISO date (or `YYYY-MM`) a date phrase refers to, or null if not understood. */
export function resolveDatePhrase(phrase: string, refIso: string): string | null {
  return findDates(phrase, refIso)[0]?.date ?? null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const HAS_PREPOSITION = /\b(?:on|by|until|till|before|after|from|since|of)\s+$/i;

/** `2026-12-04` -> `Friday 4 December 2026`; `2027-01` -> `January 2027`; else unchanged. */
export function spokenDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (y === undefined || m === undefined) return date;
  if (d === undefined) return `${MONTHS[m - 1] ?? ''} ${y}`.trim();
  return `${WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]} ${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * `text` with each relative date phrase ("next Friday", "tomorrow") replaced by the calendar date
 * it meant ("on Friday 4 December 2026"), so the fact still reads right next month. Durations
 * ("for a month") stay as spoken: their end is a field (`validTo`), not text.
 */
export function absoluteDates(text: string, dates: FoundDate[]): string {
  let out = text;
  for (const d of dates) {
    if (d.duration) continue;
    const at = out.indexOf(d.phrase);
    if (at < 0) continue;
    const before = out.slice(0, at);
    const bare = d.phrase.replace(/^(?:on|by|until|till|before|after|from|since)\s+/i, '');
    const lead = d.phrase.slice(0, d.phrase.length - bare.length);
    const prep = lead || (HAS_PREPOSITION.test(before) ? '' : d.date.length === 7 || d.week ? 'in ' : 'on ');
    const spoken = d.week ? `the week of ${spokenDate(d.date)}` : spokenDate(d.date);
    out = `${before}${prep}${spoken}${out.slice(at + d.phrase.length)}`;
  }
  return out;
}
