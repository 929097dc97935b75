/**
 * When a temporary state ends by its own words ("for two weeks", "until Friday", "through the end of the year"),
 * resolved against the utterance time with chrono-node (`stateEnd`).
 */
import * as chrono from 'chrono-node';
import { DURATION, LASTS_UNTIL, SPEND_BEFORE, findDates, namesDay, ordinalDay } from './relative-date.js';
import { bookedFor } from './booked-for.js';
import { clauseAround, toldAsPast } from './told-tense.js';
import { COUNTED, MAX_COUNT, UNTIL } from './spans.js';
import { DAY_MS } from '../../graph/core/time.js';
import { namedEnd } from './named-ends.js';
import { weekdaysOfWeeks, withoutWeekdaysOfWeeks } from './weekday-of-week.js';
import { WEEKDAY_DASH } from './months.js';

const FOR_BEFORE = /\b(?:for|over)\s+(?:the\s+)?$/i;
const UNTIL_ORDINAL = /\b(?:until|till|til)\s+the\s+\d{1,2}(?:st|nd|rd|th)\b/i;
const UNTIL_BEFORE = new RegExp(String.raw`\b${UNTIL}\s+(?:the\s+)?$`, 'i');
/** A date phrase that opens with its "until" (chrono may keep the word in its phrase). */
const UNTIL_FIRST = new RegExp(String.raw`^${UNTIL}\s`, 'i');
const THIS_SPAN = /^(?:for\s+)?(?:the\s+)?(?:rest\s+of\s+)?this\s+(week|month)$/i;
/** A plan or report ("I'll send it this week", "I moved…") rather than a state that holds now. */
const NOT_A_STATE = /\b(?:will|'ll|going to|gonna|shall|did|was|were|had)\b/i;
/** "for the rest of the month", "the rest of the week": chrono reads no date in them. */
const REST_OF = new RegExp(String.raw`\b(?:the\s+)?rest\s+of\s+(?:the|this)\s+(week|month|year)\b|\b(?:${UNTIL}|to)\s+the\s+end\s+of\s+(?:the|this)\s+(week|month|year)\b`, 'i');

/**
 * A word a range of days is said with ("Dec 3 to Dec 10", "between the 20th and the 27th", "Dec 21 - Dec 28"), or a dash
 * between days ("14-18 December", "14–18 Dec"; rules 111) or weekdays (months.ts `WEEKDAY_DASH`): only then is one looked for.
 */
const RANGE_WORD = new RegExp(String.raw`\s(?:to|and|through|thru|till|until|-|–)\s|\d\s*[-–]\s*\d|${WEEKDAY_DASH}`, 'i');

/** Away on named days ("I'm out on Thursday and Friday", "she's off on Monday"): the state ends after the last of them. */
const AWAY_ON = /\b(?:I(?:['’]m| am)|(?:he|she)(?:['’]s| is)|(?:we|they)(?:['’]re| are))\s+(?:out|off|away|on leave|on holiday|on vacation|out of (?:the )?office)\s+(?=on\s)/i;

/** A season spent or stayed for ("spending the summer in Maine", "for the winter"): it ends where the next begins. */
const SEASON_SPAN = /\b(?:for|spend(?:s|ing)?)\s+(?:the\s+)?(summer|winter|spring|autumn|fall)\b/i;
/** The month (0-based) each season ends before, by the meteorological seasons of the northern hemisphere. */
const SEASON_ENDS: Record<string, number> = { spring: 5, summer: 8, autumn: 11, fall: 11, winter: 2 };

/**
 * The start (UTC) of the month after `season` as it holds at `refIso` or next comes: "the summer" said in July ends on
 * 1 September; said in October, next year's. Winter runs December to February, so said in December it ends on 1 March.
 */
function seasonEnd(season: string, refIso: string): string {
  const instant = new Date(refIso);
  const endMonth = SEASON_ENDS[season.toLowerCase()]!;
  let end = Date.UTC(instant.getUTCFullYear(), endMonth, 1);
  if (end <= instant.getTime()) end = Date.UTC(instant.getUTCFullYear() + 1, endMonth, 1);
  return new Date(end).toISOString();
}

/** The start (UTC) of the week (Monday), month or year after the one holding `refIso`. */
function spanEnd(span: string, refIso: string): string {
  const instant = new Date(refIso);
  if (span === 'week') {
    const day = Date.parse(`${refIso.slice(0, 10)}T00:00:00.000Z`);
    return new Date(day + (7 - ((instant.getUTCDay() + 6) % 7)) * DAY_MS).toISOString();
  }
  if (span === 'month') return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + 1, 1)).toISOString();
  return new Date(Date.UTC(instant.getUTCFullYear() + 1, 0, 1)).toISOString();
}

/**
 * When a temporary state ends by its own words, as an ISO-8601 instant (exclusive: the state holds
 * before it), resolved against the utterance time `refIso` with chrono-node; null when the text gives
 * no end. Forms:
 * - a duration, "for a month" / "for two weeks" / "for 3 days", or a counted span spent ("spending two weeks in Rome"):
 *   `refIso` plus the duration;
 * - a season, "spending the summer in Maine", "for the winter": the start of the month after it (`seasonEnd`);
 *   "for the next few days" is chrono's reading of "few", 3 days (an approximation); not when the clause holding it
 *   is told of the past or in the perfect ("I lived there for five years", "I've had them for three years now");
 * - "until Friday": the start of the day after that day (UTC); "till June", "until next month" (no day named): the
 *   start of that month; "till / through the end of the week, month, year": the start of the next one;
 * - away on named days, "I'm out on Thursday and Friday": the start of the day after the last of them;
 * - "this week" / "this month" / "the rest of the month" in a present-tense statement ("I'm working from home
 *   this week", not "I'll send it this week"): the start of the next week (Monday), month or year (UTC).
 */
export function stateEnd(text: string, refIso: string): string | null {
  const instant = new Date(refIso);
  if (Number.isNaN(instant.getTime())) return null;
  const rest = REST_OF.exec(text);
  if (rest && !NOT_A_STATE.test(text)) return spanEnd((rest[1] ?? rest[2])!.toLowerCase(), refIso);
  const away = AWAY_ON.exec(text);
  if (away && !NOT_A_STATE.test(text)) {
    const days = findDates(text.slice(away.index + away[0].length), refIso).filter((d) => !d.duration && !d.week && d.date.length === 10);
    const last = days.map((d) => d.date).sort().pop();
    if (last) return new Date(Date.parse(`${last}T00:00:00.000Z`) + DAY_MS).toISOString();
  }
  // "My mum is visiting Dec 3 to Dec 10", "between the 20th and the 27th": a range of days ends the day after its last
  // (rules 108); one told of the past ("I was in Rome between the 3rd and the 10th", its clause's tense) ends nothing ahead,
  // unless it is what a booking is for ("I booked the cottage for Dec 20 to Dec 27": `bookedFor`).
  const toldBefore = (phrase: string): boolean => {
    const at = Math.max(0, text.indexOf(phrase));
    return toldAsPast(clauseAround(text, at)) && !bookedFor(text, at, phrase);
  };
  const range = RANGE_WORD.test(text) ? findDates(text, refIso).find((d) => d.end !== undefined && d.end >= refIso.slice(0, 10) && !toldBefore(d.phrase)) : undefined;
  if (range?.end) return new Date(Date.parse(`${range.end}T00:00:00.000Z`) + DAY_MS).toISOString();
  // "I'm on nights until the 9th": a bare day of the month, which chrono does not read; the day to come.
  const ordinal = UNTIL_ORDINAL.test(text) ? ordinalDay(text, refIso) : null;
  if (ordinal && /^(?:until|till|til)\s/i.test(ordinal.phrase) && !toldAsPast(clauseAround(text, ordinal.index))) {
    return new Date(Date.parse(`${ordinal.date}T00:00:00.000Z`) + DAY_MS).toISOString();
  }
  // "I'm spending the summer in Maine" (chrono reads no season); not told of the past ("I spent the summer there").
  const season = SEASON_SPAN.exec(text);
  if (season && !toldAsPast(clauseAround(text, season.index))) return seasonEnd(season[1]!, refIso);
  // "until the new year", "till Christmas", "for the holidays", "for a few nights": chrono reads none of them (rules 31).
  const named = namedEnd(text, refIso);
  if (named) return named;
  // "until Friday next week", "till the Friday after next": the day itself (weekday-of-week.ts), read where it is said.
  const byWeek = weekdaysOfWeeks(text, refIso);
  const untilDay = (upTo: number): string | null => {
    for (; byWeek.length > 0 && byWeek[0]!.index < upTo; byWeek.shift()) {
      const w = byWeek[0]!;
      if (UNTIL_BEFORE.test(text.slice(0, w.index)) && !toldAsPast(clauseAround(text, w.index))) return new Date(Date.parse(`${w.date}T00:00:00.000Z`) + DAY_MS).toISOString();
    }
    return null;
  };
  // "The festival lasts until Sunday": the verb blanked, so chrono reads "until Sunday", not a range from today (`LASTS_UNTIL`).
  const read = withoutWeekdaysOfWeeks(text, byWeek).replace(LASTS_UNTIL, (m) => ' '.repeat(m.length));
  for (const r of chrono.en.parse(read, { instant, timezone: 0 }, { forwardDate: true })) {
    const day = untilDay(r.index);
    if (day) return day;
    const phrase = r.text.trim();
    const before = text.slice(0, r.index);
    const span = THIS_SPAN.exec(phrase);
    if (span) {
      if (NOT_A_STATE.test(text)) continue;
      return spanEnd(span[1]!.toLowerCase(), refIso);
    }
    const end = r.start.date();
    // A date past what a Date holds ("for 100000000 days") is none.
    if (!Number.isFinite(end.getTime()) || end.getTime() <= instant.getTime()) continue;
    // "sleep over on Saturday night": "over" before a phrase with its own preposition spans nothing.
    // "booked for Friday": a day after "for" is when, not how long (`namesDay`).
    // "spending two weeks in Rome": a counted span after "spend" is how long, as after "for".
    if (DURATION.test(phrase) || (FOR_BEFORE.test(before) && !/^(?:on|at|in|by)\s/i.test(phrase) && !namesDay(phrase))
      || (SPEND_BEFORE.test(before) && COUNTED.test(phrase))) {
      // Told of the past or in the perfect ("I lived there for five years", "I've been vegetarian for two years"),
      // the duration lies behind: it ends no state ahead.
      if (toldAsPast(clauseAround(text, r.index))) continue;
      // "For 100000 days" is said in jest: a length past `MAX_COUNT` days ends no state (rules 35).
      if (end.getTime() - instant.getTime() > MAX_COUNT * DAY_MS) continue;
      return end.toISOString();
    }
    if ((UNTIL_BEFORE.test(before) || UNTIL_FIRST.test(phrase)) && !toldAsPast(clauseAround(text, r.index))) {
      // "till June", "until next month": a month with no day named ends where it begins.
      if (!r.start.isCertain('day') && !r.start.isCertain('weekday') && r.start.isCertain('month')) return `${end.toISOString().slice(0, 7)}-01T00:00:00.000Z`;
      const d = Date.parse(`${end.toISOString().slice(0, 10)}T00:00:00.000Z`);
      return new Date(d + DAY_MS).toISOString();
    }
  }
  return untilDay(Infinity);
}
