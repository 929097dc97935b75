/**
 * Dates written into a fact's text (split from relative-date.ts, rules 43, no change of behaviour): a date phrase found
 * by `findDates` ("next Friday") replaced by the calendar date it meant ("on Friday 4 December 2026"), so the fact still
 * reads right next month.
 */
import { spokenClock } from './clock-time.js';
import { SUBJECT_PLACE, type FoundDate } from './relative-date.js';
import { MONTH_NAMES } from './months.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** A verb right after a date phrase: the phrase is its subject ("This week has been swamped", "Tomorrow is my birthday"). */
const SUBJECT_VERB = /^\s*(?:['’]s\b|(?:is|was|has|had|will|would|could|might|may|must|seems?|seemed|looks?|looked|feels?|felt|went|goes|flew|flies|works?|worked|suits?|suited)\b)/i;
/** A preposition already before the date: it takes no "on" of its own ("booked for Friday", not "for on Friday"; text7). */
const HAS_PREPOSITION = /\b(?:on|in|during|over|through|throughout|by|until|till|before|after|from|since|of|to|for)\s+$/i;
/** A day had ("Dr. Patel has Tuesday at 10am", "we have Tuesday off"; rules 84): the object of "have", no "on". */
const HAD_DAY = /\b(?:has|have|had)\s+$/i;
/**
 * A part of the day said with the day ("Saturday morning", "tomorrow evening"): kept when the date is written (text7,
 * "on the morning of Saturday 5 December 2026"), not dropped with the words it was said in.
 */
const PART_OF_DAY = /\b(morning|afternoon|evening|night)\b/i;

/** `2026-12-04` -> `Friday 4 December 2026`; `2027-01` -> `January 2027`; else unchanged (`2022` stays). */
export function spokenDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (y === undefined || m === undefined) return date;
  if (d === undefined) return `${MONTH_NAMES[m - 1] ?? ''} ${y}`.trim();
  return `${WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]} ${d} ${MONTH_NAMES[m - 1]} ${y}`;
}

/**
 * `text` with each relative date phrase ("next Friday", "tomorrow") replaced by the calendar date
 * it meant ("on Friday 4 December 2026"), so the fact still reads right next month. Durations
 * ("for a month") stay as spoken: their end is a field (`validUntil`, see `stateEnd` in state-end.ts), not text.
 */
export function absoluteDates(text: string, dates: FoundDate[]): string {
  let out = text;
  // The dates written so far, [start, end) of `out`: a later phrase is never found inside one ("Sunday is free, see you
  // Sunday" must not find its second "Sunday" in "Sunday 6 December 2026").
  const written: [number, number][] = [];
  // Where each date written with no preposition ends in `out` (only while nothing after it has grown).
  const bareSpans: number[] = [];
  for (const d of dates) {
    // "we've got enough now": "now" says no day worth writing into the text (it stays the event time).
    if (d.duration || /^(?:right\s+)?now$/i.test(d.phrase)) continue;
    // A whole-word match: "in May" is no part of "Maya is…".
    const matches = out.matchAll(new RegExp(`(?<![\\w'’])${d.phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w'’])`, 'g'));
    const at = [...matches].find((m) => !written.some(([s, e]) => m.index < e && m.index + d.phrase.length > s))?.index ?? -1;
    if (at < 0) continue;
    // "until the end of the month": the article goes with the phrase it leads.
    // "at the weekend" (a day's date, no clock time): the date takes its own preposition ("on Saturday 14 March").
    // "this past weekend": the "this" goes with the phrase too.
    const before = out.slice(0, at).replace(/\bthe\s+$/i, '').replace(/\bthis\s+$/i, (m) => (/^past\b/i.test(d.phrase) ? '' : m)).replace(/\bat\s+$/i, (m) => (d.date.length === 10 && !/\d/.test(d.phrase) ? '' : m));
    const bare = d.phrase.replace(/^(?:on|by|until|till|before|after|from|since)\s+/i, '');
    const lead = d.phrase.slice(0, d.phrase.length - bare.length);
    // "This week has been swamped", "Last year was tough": the date is the subject, it takes no preposition.
    const subject = lead === '' && SUBJECT_PLACE.test(before) && SUBJECT_VERB.test(out.slice(at + d.phrase.length));
    // "…has Tuesday at 10am or Thursday at 3pm": a day joined to one that took no "on" takes none either (rules 84).
    const joined = /\s+(?:or|and)\s+$/i.exec(before);
    const thing = subject || HAD_DAY.test(before) || (joined !== null && bareSpans.some((end) => end === joined.index));
    // A range of days ("Dec 3 to Dec 10", "between the 20th and the 27th"; rules 108): both days, "from … to …".
    const between = d.end !== undefined && /\bbetween\s+$/i.test(before);
    const prep = lead || (thing || d.written !== undefined || between || HAS_PREPOSITION.test(before) ? '' : d.end ? 'from '
      : d.date.length <= 7 || d.week ? 'in ' : 'on ');
    const part = d.written === undefined && !d.week && d.date.length === 10 ? PART_OF_DAY.exec(bare)?.[1]?.toLowerCase() : undefined;
    // "Friday evening at 7pm": the clock time said stays (rules 50).
    const spoken = d.written ?? (d.end ? `${spokenDate(d.date)} ${between ? 'and' : 'to'} ${spokenDate(d.end)}` : d.week ? `the week of ${spokenDate(d.date)}`
      : `${part ? `the ${part} of ` : ''}${spokenDate(d.date)}${d.clock ? ` at ${spokenClock(d.clock)}` : ''}`);
    const grown = before.length + prep.length + spoken.length - (at + d.phrase.length);
    for (const span of written) if (span[0] >= at) { span[0] += grown; span[1] += grown; }
    for (const [k, end] of bareSpans.entries()) if (end > at) bareSpans[k] = end + grown;
    written.push([before.length, before.length + prep.length + spoken.length]);
    if (thing && lead === '') bareSpans.push(before.length + spoken.length);
    out = `${before}${prep}${spoken}${out.slice(at + d.phrase.length)}`;
  }
  return out;
}
