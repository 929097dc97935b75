/**
 * Spoken dates ("next Friday", "tomorrow", "for a month") resolved against the utterance time with
 * chrono-node. Dates become fields of a fact (`eventTime`, `validTo`), never text glued onto it. Whether a clause is told
 * of the past is read in told-tense.ts; a date written into a fact's text, in date-text.ts.
 */
import * as chrono from 'chrono-node';
import { bookedFor } from './booked-for.js';
import { addDays, weekdayOfNextWeek } from './calendar-day.js';
import { DAY_MS } from '../../graph/core/time.js';
import { HOUR_WORDS, NIGHT_NAMES, clockOf, hourInstead, hourWordsAsNumbers } from './clock-time.js';
import { monthAheadYear } from './month-ahead.js';
import { isHouseNumber, isMarchedTo, isRecurring, isRelativesName, monthOfWeekday } from './not-dates.js';
import { COUNT as SPAN_COUNT, COUNTED } from './spans.js';
import { clauseAround, toldAsPast, toldInPerfect, toldJustDone } from './told-tense.js';
import { WEEK_FROM, mondayOf, weekFrom } from './week-from.js';
import { weekdaysOfWeeks, withoutWeekdaysOfWeeks } from './weekday-of-week.js';
import { MONTHS_SAID, MONTH_DATE_SAID, MONTH_NAMES, MONTH_SAID, MONTH_SHORT } from './months.js';

/** One date phrase found in a sentence. */
export interface FoundDate {
  /** The words as spoken, e.g. `next Friday`. */
  phrase: string;
  /** ISO date `YYYY-MM-DD`, or `YYYY-MM` / `YYYY` when only that much is known. */
  date: string;
  /** True for the day a move is from ("move it from Tuesday to Thursday"): the event is on the day it moves to. */
  movedFrom?: true;
  /** True for a duration from now ("for a month"): the end of a temporary state. */
  duration: boolean;
  /** True when only the week is known ("last week"): `date` is its Monday. */
  week: boolean;
  /**
   * A duration told in the perfect ("I've had them for three years", "she's been teaching for six months now"): the
   * state began that long before it was said, and this is when (`YYYY` for years, `YYYY-MM` for months, else the day).
   * Such a duration ends nothing ahead (`stateEnd`).
   */
  since?: string;
  /**
   * What `absoluteDates` writes in place of `phrase`, when the words name their date by something other than a date
   * ("the week before Christmas" → "the week before Christmas 2026"); absent: the date, spoken.
   */
  written?: string;
  /** A clock time said with the day (`HH:MM`: "Friday evening at 7pm" → `19:00`; rules 50), for a day's date only: written into the text. */
  clock?: string;
  /**
   * The last day of a range of days (`YYYY-MM-DD`: "Dec 3 to Dec 10", "from Monday to Wednesday", "between the 20th and the
   * 27th"; rules 108): `date` is its first. A state said over it ends the day after (`stateEnd`).
   */
  end?: string;
}

/** A time "last / past / previous" looks back over: a unit, a weekday, a month, a season, a holiday. */
const TIME_WORD = String.raw`(?:nights?|evenings?|mornings?|afternoons?|weeks?|weekends?|fortnights?|months?|years?|decades?|centur(?:y|ies)|hours?|`
  + String.raw`minutes?|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mon|tues?|weds?|thu(?:rs?)?|fri|${MONTH_SAID}|`
  + String.raw`spring|summer|autumn|fall|winter|term|semester|`
  + String.raw`christmas|easter|halloween|thanksgiving|new\s+year(?:['’]s)?)`;
/** A count before a time ("the last few days", "the past two weeks", "the previous couple of months"). */
const COUNT = String.raw`(?:(?:few|couple(?:\s+of)?|several|\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+)`;
/**
 * Words that look back (rules 43): "ago", "yesterday", "in the past", and "last / past / previous" before a time
 * ("last week", "this past weekend", "the past two weeks", "the last few days"). Not "last" or "past" anywhere: "the
 * last time I'll see him is Friday", "my last exam is on Friday", "half past six on Friday", "the previous owner is coming
 * on Friday" look ahead; "my last day", "the last week of June" (a time of something else) are no time gone by.
 */
const PAST = new RegExp(String.raw`\b(?:ago|yesterday|in\s+the\s+past|(?:last|past|previous)\s+(?:${COUNT}(?:days|${TIME_WORD})|${TIME_WORD})\b(?!\s+of\b))`
  + String.raw`(?![\w'’])`, 'i');
/** A month's name, as a date phrase may give it ("in May", "on March 3rd", "Sept"). */
const MONTH_IN_PHRASE = new RegExp(String.raw`\b(?:${MONTH_SAID}|${MONTH_SHORT})\b`, 'i');
const BARE_WEEKDAY = /^(?:on\s+|this\s+|next\s+|coming\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)\.?$/i;
export const DURATION = /^for\s+/i;
/** "spending / spend / spent" before a span ("spending two weeks in Rome"): the span is how long, like "for" (rules 28). */
export const SPEND_BEFORE = /\bspen(?:d|ds|ding|t)\s+(?:the\s+)?(?:next\s+)?$/i;
const WEEK = /\bweek\b/i;
const THIS_WEEK = /^(?:earlier\s+|later\s+)?this\s+week$/i;
/** Weekday abbreviations chrono does not read ("Tues", "Weds"); their first three letters it does. */
/** A date phrase that opens with a weekday ("Friday at 3pm", "on Friday"): a booking for it lies within the week ahead. */
const WEEKDAY_FIRST = /^(?:on\s+|this\s+|coming\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/i;
const WEEKDAY_ABBREVIATION = /\b(?:Tues|Weds)(?=\.|\b)/gi;
const LOWER_ABBREVIATION = /^(?:(?:on|last|next|this|coming)\s+)?(?:sun|mon|tues?|weds?|thu(?:rs?)?|fri|sat)\.?$/;
/** "a few years back", "two months back": "back" after a span is "ago", which chrono reads ("back" it reads as ahead). */
/**
 * "now" right after a weekday ("we're going on Sunday now", fix9): the day as it stands after a change, not today. Blanked
 * (same length, indices hold) before chrono reads the text, which reads "Sunday now" as now.
 */
/** "in like an hour", "in about an hour": the filler "like" between "in" and a length, blanked so chrono reads "in an hour" (rules 108). */
const IN_LIKE = new RegExp(String.raw`(?<=\bin\s+)like(?=\s+(?:an?|${HOUR_WORDS.slice(0, 10).join('|')}|\d+|a\s+few|a\s+couple)\b)`, 'gi');
/** "in an hour or so": the hedge after a length from now goes with its phrase, written over with the date (rules 108). */
const OR_SO_AFTER = /^\s+or\s+so\b/i;
/** "lasts", "lasted", "lasting": chrono reads "last" in them as a time gone by; a verb of how long, no date (rules 108). */
const LASTS = /^last(?:s|ed|ing)$/i;
/** "The festival lasts until Sunday": the verb before "until / till / through", blanked so chrono reads no "last" range (review H4). */
export const LASTS_UNTIL = /\blast(?:s|ed|ing)(?=\s+(?:until|till|til|through|thru)\b)/gi;
/**
 * A range of days of the month ("between the 20th and the 27th", "from the 3rd to the 10th"; rules 108): the words after
 * the first day (`ordinalDay`) that name the last, with the month of both where its name follows ("from the 2nd to the
 * 5th of January", "the 20th to the 22nd January"; rules 114, M5, M8). Not "of" something else ("the 5th of the month").
 */
const ORDINAL_RANGE_DAY = /^\s+(and|to|until|till|through|-)\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b/i;
const ORDINAL_RANGE_END = new RegExp(String.raw`^\s+(and|to|until|till|through|-)\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)\b`
  + String.raw`(?:(?:\s+of)?\s+(${MONTH_SAID})\b|(?!\s+of\b|\s+(?:${MONTH_SAID}|${MONTH_SHORT})\b))`, 'i');
/**
 * "next week" (rules 108, review H3), "last week" (rules 112): weekdays of a range said with it are that week's ("I was off
 * Monday to Wednesday last week": 30 November to 2 December, said on 7 December).
 */
const WEEK_SAID = /\b(next|last)\s+week\b/i;
/**
 * Weekdays said as one stretch of days, not a weekly schedule ("My mum is visiting from Monday to Wednesday", "I'll be
 * away Monday to Friday", "next Monday to Wednesday"; not "I work Monday to Friday", "the shop is open Monday to
 * Saturday"): a progressive, a future, or "this / next / coming" (rules 108).
 */
const ONE_STRETCH = /\b(?:this|next|coming|will|going\s+to|gonna)\b|['’]ll\b|(?:['’]m|['’]s|['’]re|\b(?:am|is|are|be))\s+(?:\w+ing|off|away|out)\b/i;
/**
 * A stay somewhere "from" one day to another ("I'm in London from Tuesday to Thursday"; rules 111): one stretch too, as
 * `ONE_STRETCH` is. Not without "from" ("I'm in the office Monday to Friday": a week's schedule), nor at a place of every
 * week ("in the office", "at work / school / the gym / home": after review, H4; "every week", "as usual": `WEEKLY_SAID`).
 */
const WEEKLY_PLACE = String.raw`(?:the\s+)?(?:office|work|school|college|uni|university|nursery|gym|home|church|class|lessons?|practice|training)\b`;
const STAY_FROM = new RegExp(String.raw`(?:['’]m|['’]s|['’]re|\b(?:am|is|are))\s+(?:in|at)\s+(?!${WEEKLY_PLACE})[^.;!?]{1,40}?\bfrom\s+$`, 'i');
/**
 * A stay or a state told in the present just before weekdays ("I'm on holiday Monday to Friday", "I'm in Leeds Friday to
 * Sunday", "I'm busy / free / on leave Monday to Wednesday", "We're closed Monday to Wednesday for the holidays"): one
 * stretch, as `STAY_FROM` is (rules 114 after review, H2: they had no day at all). Not at a place of every week ("I'm in
 * the office Monday to Friday").
 */
const STAY_BEFORE = new RegExp(String.raw`(?:['’]m|['’]s|['’]re|\b(?:am|is|are))\s+(?:(?:in|on|at)\s+(?!${WEEKLY_PLACE})[^.;!?,]{1,40}?|busy|free|closed|booked\s+up|fully\s+booked|unavailable)\s+$`, 'i');
/**
 * A week's schedule over weekdays said ahead ("I work Monday to Friday", "the shop opens Mon–Sat", "I play football Monday
 * to Friday", "I'm in the office Monday to Friday", "I used to work…"): no one day named (rules 114 after review, H2; other
 * weekdays not one stretch keep their first day, as before rules 114: "I have exams Monday to Friday").
 */
const WEEK_SCHEDULE = new RegExp(String.raw`\b(?:work|works|open|opens|play|plays|train|trains|teach|teaches|study|studies|swim|swims|commute|commutes|lectures?|shifts?|(?:have|has)\s+(?:the\s+)?kids|used\s+to)\b|\b(?:in|at)\s+${WEEKLY_PLACE}`, 'i');
/** A week's schedule said of a stay ("from Monday to Friday every week", "…, as usual"; after review, H4). */
const WEEKLY_SAID = /\b(?:every|each)\s+(?:single\s+)?(?:week|weekend)\b|\bas\s+(?:usual|always|normal)\b/i;
/** Two hours with a dash between ("9–5", "9am-5pm", "2 - 1"): a range of hours, never of days (rules 111 after review, M2). */
const HOURS_DASH = /^\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]\.?m\.?)?\s*[-–]\s*\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]\.?m\.?)?(?!\s*(?:st|nd|rd|th)\b)(?!\w)/i;
/** A phrase ending in an abbreviation's own full stop ("5 p.m.", "10 a.m."): the stop is kept (after review, H1). */
const ABBREVIATED_END = /(?:^|[^\w.])\w\.\w\.$/;
const NOW_AFTER_DAY = /(?<=\b(?:mon|tues|wednes|thurs|fri|satur|sun)day)(\s+)now\b/gi;
/**
 * A verb of saying, then what is or will be ("Jo said the movie is", "she told me it's", "he mentioned the party will be";
 * rules 112): a time after it is told as to come, though the sentence is told as past.
 */
const REPORTED_AHEAD = /\b(?:said|says|told\s+(?:me|us|you|him|her|them)|mentioned|texted|wrote|confirmed)\s+(?:that\s+)?[^.;!?]{0,40}?(?:\b(?:is|are|will)\b|['’](?:s|re|ll)\b|\bwould\b(?!\s+have\b)|['’]d\s+(?!(?:been|had|have|gone|done|\w+ed)\b))(?:(?!\b(?:and|but|because|cause|so|then)\b)[^.;!?,])*$/i;
/** A weekday said in reported speech of what is or will be ("Jo said she's coming on Friday at 6"), not "since / until" it. */
function reportedDay(text: string, r: chrono.ParsedResult): boolean {
  const before = text.slice(0, r.index);
  return WEEKDAY_FIRST.test(r.text) && !/\b(?:since|until|till|from|by|before|after)\s+$/i.test(before) && REPORTED_AHEAD.test(before);
}
/** A bare hour said with no day ("at 8", "at 7:30"): a day chrono gives it is its own guess. */
const BARE_HOUR_ALONE = /^at\s+\d{1,2}(?::\d{2})?$/i;
/**
 * "night" as the name of an evening's event ("date night", "game night", "quiz night"; clock-time.ts `NIGHT_NAMES`,
 * rules 97), not the night of today: chrono read "date night on Friday at 8" as tonight at 8. Blanked as
 * {@link NOW_AFTER_DAY} is.
 */
const NIGHT_OF_EVENT = new RegExp(String.raw`(?<=\b(?:${NIGHT_NAMES.join('|')})['’]?[\s-]+)nights?\b`, 'gi');
/**
 * The "to" of a move from one day to another ("move my repair from Tuesday to Thursday", "we changed it from Monday to
 * Friday"; trial11 F2): chrono reads "Tuesday to Thursday" as one span and the text kept only its start. Blanked (same
 * length) before chrono reads the text, so each day is a date of its own; the day moved from is no event date
 * (`FoundDate.movedFrom`). A span told with no move ("I'm away from Tuesday to Thursday") stays one span.
 */
const MOVE_FROM_TO = /(?<=\b(?:mov(?:e|es|ed|ing)|reschedul(?:e|es|ed|ing)|chang(?:e|es|ed|ing)|switch(?:es|ed|ing)?|shift(?:s|ed|ing)?|push(?:es|ed|ing)?|bring|brought|put(?:ting)?)\b[^.;!?]{0,60}?\bfrom\s+(?:(?:next|this)\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day),?\s+to\s+(?=(?:(?:next|this|the\s+following)\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b)/gi;
const SPAN_BACK = /\b((?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a\s+few|a\s+couple\s+of|several|some)\s+(?:days?|weeks?|months?|years?|decades?))\s+back\b/gi;
/**
 * How often, not when: "twice a week", "once a month", "three times a day", "every other week". chrono reads the span
 * ("a week") as a date; the words before it say it is a frequency.
 */
const FREQUENCY_BEFORE = /\b(?:once|twice|thrice|(?:\w+|\d+)\s+times|every\s+other)\s+$/i;
const FREQUENCY_SPAN = /^(?:(?:a|an|per|each|every)\s+)?(?:day|night|week|weekend|fortnight|month|year)$/i;

/**
 * "five days a week", "one day a week", "a few nights per month", "two or three evenings a week": a count of days,
 * evenings, hours… in each span. chrono may read it whole or only its span ("a week"); a phrase inside one is no date.
 */
const COUNT_PER_SPAN = /\b(?:(?:a\s+few|a\s+couple\s+of|\w+)\s+(?:times|days|evenings|nights|mornings|afternoons|hours|minutes|weekends|weeks|shifts)|(?:a|an|one|1|a\s+single)\s+(?:time|day|evening|night|morning|afternoon|hour|weekend|week|shift))\s+(?:a|an|per|each|every)\s+(?:day|night|week|weekend|fortnight|month|year)\b/gi;

/** True when the date phrase `phrase`, found at `index` of `text`, is how often something happens ("twice a week"). */
export function isFrequency(text: string, index: number, phrase: string): boolean {
  if (FREQUENCY_SPAN.test(phrase.trim()) && FREQUENCY_BEFORE.test(text.slice(0, index))) return true;
  return [...text.matchAll(COUNT_PER_SPAN)].some((m) => m.index < index + phrase.length && index < m.index + m[0].length);
}

/** A weekday named alone ("Sunday"), not a time given to it ("on Sunday", "this Sunday"). */
const WEEKDAY_ALONE = /^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day)$/i;
/** "Sunday is my favourite day", "Monday is always hard": what a weekday is like in general, not on one date. */
const GENERIC_PREDICATE = /^\s*(?:is|are|['’]s)\s+(?:(?:always|usually|often|never|normally|generally|typically|rarely)\b|(?:(?:the|my|our|his|her|their|your)\s+)?(?:\w+est|best|worst|favou?rite|least|most)\b|(?:a|an)\s+(?:\w+\s+)?day\b(?!\s+off))/i;
/** "my favourite day is Sunday", "the best day of the week is": a weekday as what a kind of day is. */
const KIND_OF_DAY_BEFORE = /\b(?:favou?rite|best|worst|\w+est)\s+(?:day|part)(?:\s+of\s+the\s+week)?\s+(?:is|was|['’]s)\s+$/i;
/** "I love Sunday", "she hates the week before Christmas": a liking for a day or week in general. */
const LIKING_BEFORE = /\b(?:love[sd]?|like[sd]?|hate[sd]?|enjoy(?:s|ed)?|prefer(?:s|red)?|dread(?:s|ed)?|adore[sd]?)\s+$/i;
/** A phrase that names a weekday or week with no word placing it in time ("Sunday", "the week", "the week before…"). */
const DAY_OR_WEEK_ALONE = /^(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:the\s+)?week(?:\s+(?:before|after))?)$/i;
/** Where a subject stands: the sentence's or a clause's start ("Hang tight, this week has been…", "…but last year was"). */
export const SUBJECT_PLACE = /(?:^|[,;:]\s*|\b(?:and|but|so|because)\s+)$/i;

/**
 * True when the weekday or week `phrase` (at `index` of `text`) is what a generic statement is about, not a time:
 * "Sunday is my favourite day", "my favourite day is Sunday", "I love the week before Christmas", "the best part of
 * the week". A weekday or week with a word that places it ("on Sunday", "this Sunday", "next week") is a time.
 */
function genericDayOrWeek(text: string, index: number, phrase: string): boolean {
  const before = text.slice(0, index);
  // "I love the days after new year": a liked span, no date (rules 42: "the days after" was written as a date).
  if (/^(?:the\s+)?(?:days|weeks|months)\s+(?:before|after)$/i.test(phrase) && LIKING_BEFORE.test(before)) return true;
  if (!DAY_OR_WEEK_ALONE.test(phrase)) return false;
  const after = text.slice(index + phrase.length);
  // "the best part of the week": "the week" alone is no particular week.
  if (/^(?:the\s+)?week$/i.test(phrase)) return true;
  if (LIKING_BEFORE.test(before)) return true;
  return WEEKDAY_ALONE.test(phrase) && ((SUBJECT_PLACE.test(before) && GENERIC_PREDICATE.test(after)) || KIND_OF_DAY_BEFORE.test(before));
}

/** A part of some day with no day named ("in the afternoon"): chrono reads today, which the words do not say. */
const TIME_OF_DAY = /^(?:in\s+)?(?:the\s+)?(?:morning|afternoon|evening|night)$/i;
/** "the 15th", "Thursday the 17th": a day of the month with no month named (chrono reads none). */
const ORDINAL_DAY = /\b(?:(?:on|by|until|till|from)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?the\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+(?:of|time|century|floor|row|place|day|week|year|birthday|anniversary|grade)\b)/i;

/**
 * The date a bare day of the month names: that day of this month, or of the next when it has passed
 * (of the previous one when the sentence looks back).
 */
export function ordinalDay(text: string, refIso: string): { phrase: string; date: string; index: number; back: boolean } | null {
  const m = ORDINAL_DAY.exec(text);
  const day = Number(m?.[1]);
  if (!m || day < 1 || day > 31) return null;
  const [y, mo, d] = refIso.slice(0, 10).split('-').map(Number) as [number, number, number];
  // Told of the past ("I met up with them on the 15th"): this month's day if it has come, else last month's. Not the day
  // a booking is for or a move is to ("she moved it to the 12th"; `bookedFor`), which lies ahead.
  const at = m.index + (/^(?:on|by|until|till|from)\s+/i.exec(m[0])?.[0].length ?? 0);
  // A range of days said in a clause of its own ("I booked the hotel, it's from the 20th to the 22nd"; rules 112) is told
  // as its clause is, not as the act before it.
  const range = ORDINAL_RANGE_END.test(text.slice(m.index + m[0].length)) ? clauseAround(text, at) : text;
  const back = (PAST.test(range) || toldAsPast(range)) && !bookedFor(text, at, text.slice(at, m.index + m[0].length));
  const month = back ? (day <= d ? mo - 1 : mo - 2) : (day >= d ? mo - 1 : mo);
  const date = new Date(Date.UTC(y, month, day));
  // "the 31st" in a month of 30 days names no day of it.
  if (date.getUTCDate() !== day) return null;
  return { phrase: m[0], date: date.toISOString().slice(0, 10), index: m.index, back };
}

/** What is moved: "it", "that", or a thing with its determiner ("the meeting", "my repair"). */
const MOVED_THING = String.raw`(?:it|that|this|them|everything|(?:the|my|our|your|his|her|their)(?:\s+[\w'’-]+){1,2})`;
/**
 * A verb of moving a plan and its object straight before its "from" ("push it from the 20th to the 22nd", "move my repair
 * from…", "it was moved from…"; `MOVE_FROM_TO` for weekdays). Not a verb somewhere before ("I'm moving house from the 20th
 * to the 22nd", "we're changing offices from…": a stay; after review, H3); "bring" only with "back / forward" ("we'll bring
 * the kids from…").
 */
const MOVE_BEFORE = new RegExp(String.raw`(?:\b(?:(?:mov|reschedul|chang|switch|shift|push|bump|delay|postpon)\w*|put|puts|putting)\s+${MOVED_THING}(?:\s+(?:back|forward|ahead|over))?`
  + String.raw`|\b(?:bring|brings|bringing|brought)\s+${MOVED_THING}\s+(?:back|forward)`
  + String.raw`|\b(?:moved|rescheduled|changed|switched|shifted|pushed|bumped|delayed|postponed)(?:\s+(?:back|forward))?)\s+$`, 'i');
/** Told as to come ("I'll be away between the 5th and the 10th"): a range begun before today is the next month's. */
const FUTURE_SAID = /\b(?:will|going\s+to|gonna)\b|['’]ll\b/i;

/**
 * The last day of a range of days of the month begun at `ordinal` (`ordinalDay`; `found` its date, set here: "between the
 * 20th and the 27th", "from the 20th to the 27th"; rules 108), in the month of the first or the next; or, for a move
 * ("push it from the 20th to the 22nd"; rules 111), the day moved to, a date of its own, the first `movedFrom`. A range
 * under way ("I'm away between the 5th and the 10th" said on the 7th) is this month's (rules 111), not the next's.
 */
function ordinalRange(text: string, ordinal: { phrase: string; date: string; index: number; back: boolean }, found: FoundDate, refIso: string): FoundDate[] {
  const after = text.slice(ordinal.index + ordinal.phrase.length);
  let last = ORDINAL_RANGE_END.exec(after);
  // "from the 1st to the 3rd may be longer", "the 2nd to the 5th march on": lower-case "may" / "march" is the month only
  // with "of" before it or the clause ending after it (rules 114 after review, M3).
  if (last?.[3] && /^(?:may|march)$/.test(last[3]) && !/\sof\s+\S+$/i.test(last[0]) && !/^\s*(?:[.,;:!?]|$)/.test(after.slice(last[0].length))) {
    last = ORDINAL_RANGE_DAY.exec(after);
  }
  // "between" before "and"; "from", or the day alone ("visiting the 20th to the 27th"), before "to / till / through".
  const lead = /\bbetween\s+$/i.test(text.slice(0, ordinal.index)) || /^from\s/i.test(ordinal.phrase)
    || (last?.[1]?.toLowerCase() !== 'and' && /^the\s/i.test(ordinal.phrase));
  if (!last || !lead) return [];
  const [y, m, d] = ordinal.date.split('-').map(Number) as [number, number, number];
  const day = Number(last[2]);
  const named = last[3] ? monthNamed(last[3], day, ordinal.back, refIso) : null;
  const end = named ? new Date(Date.UTC(named.year, named.month, day)) : new Date(Date.UTC(y, day > d ? m - 1 : m, day));
  if (end.getUTCDate() !== day) return [];
  const move = /^from\s/i.test(ordinal.phrase) && /^to$/i.test(last[1]!) && MOVE_BEFORE.test(text.slice(0, ordinal.index));
  if (move) {
    found.movedFrom = true;
    return [{ phrase: last[0].replace(/^\s+to\s+/i, ''), date: end.toISOString().slice(0, 10), duration: false, week: false }];
  }
  found.phrase += last[0];
  found.end = end.toISOString().slice(0, 10);
  if (named) {
    // "from the 30th to the 2nd of January": the first day in the month before the last's.
    const first = new Date(Date.UTC(named.year, named.month - (d > day ? 1 : 0), d));
    found.date = first.toISOString().slice(0, 10);
    return [];
  }
  const today = refIso.slice(0, 10);
  const thisMonth = (date: string): string => `${today.slice(0, 7)}${date.slice(7)}`;
  // Rolled on to the next month by `ordinalDay` (the first day gone by), but the last still to come this month.
  if (found.date > today && found.date.slice(0, 7) !== today.slice(0, 7) && day > d && thisMonth(found.end) >= today && !FUTURE_SAID.test(text)) {
    found.date = thisMonth(found.date);
    found.end = thisMonth(found.end);
  }
  return [];
}

/**
 * The month (0–11) and year of the last day of an ordinal range said with its month's name (`name`: "from the 2nd to the
 * 5th of January"; rules 114): told as past (`back`), the last such day not after today; else the next not before it, a
 * range under way this month's ("from the 1st to the 10th of December" said on 7 December).
 */
function monthNamed(name: string, lastDay: number, back: boolean, refIso: string): { month: number; year: number } {
  const month = MONTHS_SAID.findIndex((m) => new RegExp(`^(?:${m})$`, 'i').test(name));
  const today = refIso.slice(0, 10);
  const year = Number(today.slice(0, 4));
  const iso = (y: number): string => `${y}-${String(month + 1).padStart(2, '0')}-${String(lastDay).padStart(2, '0')}`;
  if (back) return { month, year: iso(year) <= today ? year : year - 1 };
  return { month, year: iso(year) >= today ? year : year + 1 };
}

/** "last May", "next May": a month named with "last" or "next" and no day, which chrono does not read (rules 76). */
const LAST_NEXT_MONTH = new RegExp(String.raw`\b(last|next)\s+(${MONTHS_SAID.map((m) => `(${m})`).join('|')})\b(?!\s*[-/]?\s*\d)`, 'gi');

/**
 * Each month named with "last" or "next" in `text`, said at `refIso`: "last May" is the last May before this month,
 * "next May" the first May after it (said in March, May of this year; said in May or later, May of next year). "May" and
 * "March" only with their capital ("the next may be better", "the last march of the season" name no month).
 */
export function lastOrNextMonths(text: string, refIso: string): Array<{ phrase: string; date: string; index: number }> {
  const year = Number(refIso.slice(0, 4));
  const now = Number(refIso.slice(5, 7)) - 1;
  const out: Array<{ phrase: string; date: string; index: number }> = [];
  for (const m of text.matchAll(LAST_NEXT_MONTH)) {
    const month = m.slice(3).findIndex((g) => g !== undefined);
    if (month < 0 || /^(?:may|march)$/.test(m[2]!)) continue;
    const next = /^next$/i.test(m[1]!);
    const y = next ? (month > now ? year : year + 1) : (month < now ? year : year - 1);
    out.push({ phrase: m[0], date: `${y}-${String(month + 1).padStart(2, '0')}`, index: m.index });
  }
  return out;
}

function precise(c: chrono.ParsedComponents): string {
  const d = c.date().toISOString();
  if (c.isCertain('day') || c.isCertain('weekday')) return d.slice(0, 10);
  if (c.isCertain('month')) return d.slice(0, 7);
  // "last year", "four years ago": the year alone, not a day chrono made up.
  if (c.isCertain('year')) return d.slice(0, 4);
  return d.slice(0, 10);
}

/**
 * When what one sentence tells of happened, from the dates it names (`found`: `findDates` of it): the start of a state
 * told in the perfect ("I've had them for three years now"), else its first date that is no duration, else, for an act
 * told as just done, the day it was said (`refIso`); null when none.
 */
export function eventDate(sentence: string, refIso: string, found: FoundDate[] = findDates(sentence, refIso)): string | null {
  return found.find((d) => d.since)?.since ?? found.find((d) => !d.duration && !d.movedFrom)?.date ?? found.find((d) => !d.duration)?.date ?? (toldJustDone(sentence) ? refIso.slice(0, 10) : null);
}

/**
 * When a fact told from one clause of a sentence happened: the date of the dates its words keep, where it keeps some
 * and not all ("I need to cancel my Thursday cleaning, I will call back next month to rebook" gives "…will call back in
 * January 2027…", dated January, not Thursday; trial12 F16). Null where it keeps all or none: the sentence's date holds.
 */
export function eventOfClause(content: string, sentence: string, refIso: string, found: FoundDate[]): string | null {
  const lower = content.toLowerCase();
  const kept = found.filter((d) => lower.includes(d.phrase.toLowerCase()));
  return kept.length === 0 || kept.length === found.length ? null : eventDate(sentence, refIso, kept);
}

/**
 * A day or a date named after "for" ("my flight is booked for Friday", "reserved for tomorrow", "scheduled for March
 * 3rd", "planned for the 15th of May", "for mar 3"; rules 110): when, not how long. A span ("for a month", "for the next few days", "for the
 * weekend") is none.
 */
const NAMED_DAY = new RegExp(String.raw`^(?:(?:next|this|coming)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow)\b|\b(?:${MONTH_DATE_SAID})\b|^\d`, 'i');
const SPAN_UNIT = /\b(?:seconds?|minutes?|hours?|days|weeks?|weekends?|fortnights?|months?|years?|decades?)\b/i;

/**
 * A length of time said bare, as a value ("my commute is an hour", "my shift is eight hours", "it takes about 45 minutes",
 * "half an hour"; issue #16 item 3): chrono reads it as that long from now, but with no "in", "ago", "later" or "from now"
 * it names no time, only how long. So too before or after a thing told ("I arrived an hour before the meeting", "we'll
 * leave two days after the wedding"): a time from that thing, not from now. Not where the words after it make it one
 * (`FROM_NOW_AFTER`: "two weeks away", "two days from now"), nor weeks before a weekday ("a week on Tuesday").
 */
const BARE_LENGTH = new RegExp(String.raw`^(?:(?:about|around|roughly|almost|nearly|over|under|only|just)\s+)?(?:half\s+an?|${SPAN_COUNT}(?:\s+and\s+a)?|half)\s+`
  + String.raw`(?:seconds?|minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|years?)(?:\s+(?:before|after))?$`, 'i');
const FROM_NOW_AFTER = /^\s*(?:away|off|out|from\s+now|later|hence|['’]?\s*time|today|tomorrow)\b/i;
/**
 * Counted from a day told (review rv100 H1): "two weeks from today", "a week from Friday", "six months from March", "a week
 * from Dec 3", "two weeks from the 12th". Not from a person or a thing ("two days from you").
 */
const FROM_DAY_AFTER = new RegExp(String.raw`^\s*from\s+(?:(?:next|this|coming)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow|(?:${MONTH_SAID}|${MONTH_SHORT})\b|(?:the\s+)?\d)`, 'i');
/**
 * A shift of a thing said as "it" or "the …" (review rv100 H2; "it" is often rewritten "the dentist appointment"): "push it back two weeks", "bring it forward a week", "delay it an
 * hour": read as before rules 100, a time, so the request is kept. A thing named ("push my appointment back an hour")
 * keeps the length as said.
 */
const SHIFT_BEFORE = /\b(?:(?:push|pull|mov|shift|bump|delay|postpon)\w*|put|puts|putting|bring|brings|bringing|brought)\s+(?:it|that|this|them|everything|the(?:\s+[\w'’-]+){1,2})(?:\s+(?:back|forward|ahead|out))?\s+(?:by\s+)?$/i;
/** "a week on Tuesday", "two weeks Friday", "a week this Friday": weeks counted from a weekday ("two hours on Friday" not). */
const WEEKS_FROM_DAY = /weeks?$/i;
const DAY_AFTER = /^\s*(?:(?:on|this|next|coming)\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)day\b/i;

/** Whether the date phrase `phrase` (at `index` of `text`) is a length said bare (`BARE_LENGTH`), no time. */
function bareLength(text: string, index: number, phrase: string): boolean {
  const after = text.slice(index + phrase.length);
  return BARE_LENGTH.test(phrase) && !FROM_NOW_AFTER.test(after) && !FROM_DAY_AFTER.test(after)
    && !SHIFT_BEFORE.test(text.slice(0, index)) && !(WEEKS_FROM_DAY.test(phrase) && DAY_AFTER.test(after));
}

/** A bare unit word after a determiner and before a noun is a modifier ("a weekend yoga class"), no date. */
const UNIT_AS_MODIFIER = /^(?:weekend|week|month|year|day|night)$/i;
const DETERMINER_BEFORE = /\b(?:a|an|the)\s+$/i;
const POSSESSIVE_BEFORE = /\b(?:my|our|his|her|their|your)\s+$/i;
/** The next word is a noun's, not a verb's, a preposition's or a clause's start ("my weekend was great" keeps its date). */
const NOUN_AFTER = /^\s+(?!(?:was|is|were|are|has|have|had|went|will|would|could|and|or|but|with|in|at|on|of|to|for|i|we|it|he|she|they|you)\b)[a-z]+/i;

/**
 * "One day", "a day", "a long day", "in a day", "after a day of…": chrono reads tomorrow; said bare ("I need a day to
 * rest", "Rome wasn't built in a day", "I'll visit them one day") it is no day. chrono may take a word before it
 * ("them one day"); "for a day" is how long, not this.
 */
const BARE_DAY = /^(?:(?!for\b)\w+\s+)?(?:a|an|one)\s+(?:(?:long|whole|full|single|busy|hard|good|bad|great|lovely|nice|quiet)\s+)?day$/i;

/**
 * True when the date phrase `phrase` (at `index` of `text`) names no day at all: "my last day at work", "the last day
 * of term" (chrono reads yesterday), "a day off", "one day I'll go" (chrono reads tomorrow). "For a day" and "spend a
 * day" are how long.
 */
function namesNoDay(text: string, index: number, phrase: string): boolean {
  if (/^last\s+day$/i.test(phrase)) return true;
  const before = text.slice(0, index);
  return BARE_DAY.test(phrase) && !/\bfor\s+$/i.test(before) && !SPEND_BEFORE.test(before);
}

/** Words that tell of a habit or of every year, not of one time. */
const HABITUAL = /\b(?:always|usually|normally|generally|typically|often|never|rarely|seldom|every\s+(?:single\s+)?(?:year|time)|each\s+year|most\s+years)\b/i;
/** Words that tell of a weekly habit: "I always call mum on Sunday", "every week I call her on Sunday". */
const HABITUAL_WEEK = /\b(?:every|each)\s+(?:single\s+)?(?:week|weekend)\b/i;
/** A weekday with no word that places it ("on Sunday", "Sunday"; not "this / next / coming / last Sunday"). */
const UNPLACED_WEEKDAY = /^(?:on\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)\.?$/i;

/**
 * "the next day", "the following day", "the day after", "the day before": a day told from another event, not from
 * now. Its date is the day next to the last day named before it in `text` (`prior`, from `findDates`), else unknown.
 */
const DAY_FROM_EVENT = /^(?:the\s+)?(?:(next|following|previous)\s+day|day\s+(after|before))$/i;

/**
 * True when a habit is told in the clause that holds the date phrase `phrase` (at `index` of `text`) or the one its
 * end lies in: "The week before Christmas is always busy", "We usually go away the week after Easter".
 */
function habitual(text: string, index: number, phrase: string, habit: RegExp = HABITUAL): boolean {
  return habit.test(clauseAround(text, index)) || habit.test(clauseAround(text, index + phrase.length));
}

/** True when the weekday `phrase` (at `index` of `text`) is told of a habit: "I always call mum on Sunday". */
function habitualWeekday(text: string, index: number, phrase: string): boolean {
  return UNPLACED_WEEKDAY.test(phrase) && (habitual(text, index, phrase) || habitual(text, index, phrase, HABITUAL_WEEK));
}

/**
 * The date of a day told from another event ("the next day", `DAY_FROM_EVENT`): the day next to the last day in
 * `prior` (a duration or a week is none), or null when none is known ("The next day we flew home").
 */
function dayFromEvent(phrase: string, prior: readonly FoundDate[]): string | null {
  const m = DAY_FROM_EVENT.exec(phrase);
  const event = [...prior].reverse().find((d) => !d.duration && !d.week && /^\d{4}-\d{2}-\d{2}$/.test(d.date));
  if (!m || !event) return null;
  const step = /^(?:previous|before)$/i.test(m[1] ?? m[2] ?? '') ? -1 : 1;
  return addDays(event.date, step);
}

/** True when `phrase` (a date phrase as chrono read it, the words before it left out) names a day or a date, not a span. */
export function namesDay(phrase: string): boolean {
  return NAMED_DAY.test(phrase) && !SPAN_UNIT.test(phrase);
}

/**
 * The month a weekday picked by an ordinal belongs to ("May's first Sunday"), as a found date: the coming such month, or
 * told of the past the last one (rules 115 after review).
 */
function monthOfPick(owner: { month: string; index: number }, back: boolean, instant: Date): FoundDate {
  const month = MONTH_NAMES.findIndex((n) => n.toLowerCase() === owner.month.toLowerCase());
  const year = back ? instant.getUTCFullYear() - (month > instant.getUTCMonth() ? 1 : 0) : monthAheadYear(month, instant.getTime(), '');
  return { phrase: owner.month, date: `${year}-${String(month + 1).padStart(2, '0')}`, duration: false, week: false };
}

/**
 * Every date phrase of `text`, resolved against `refIso` (UTC). Future is preferred unless the phrase
 * looks back ("last Monday") or the text is told of the past (`toldAsPast`: "we went camping in May");
 * a bare, `this` or `coming` weekday is its next occurrence after today, a `next` one that day of next week (Monday first).
 */
export function findDates(text: string, refIso: string): FoundDate[] {
  const instant = new Date(refIso);
  const dayStart = refIso.slice(0, 10);
  const out: FoundDate[] = [];
  const ordinal = ordinalDay(text, refIso);
  const ordinalFound: FoundDate | null = ordinal ? { phrase: ordinal.phrase, date: ordinal.date, duration: false, week: false } : null;
  if (ordinal && ordinalFound) out.push(ordinalFound, ...ordinalRange(text, ordinal, ordinalFound, refIso));
  // Where the day of the month, or the range it begins, ends: chrono's reading of a day inside is none of its own ("from
  // the 2nd to the 5th of January": "5th of January" is the range's last day; rules 114).
  const ordinalEnd = ordinal ? ordinal.index + (ordinalFound?.end ? ordinalFound.phrase.length : ordinal.phrase.length) : 0;
  // "last May", "next May" (rules 76): chrono reads none.
  const months = lastOrNextMonths(text, refIso);
  for (const m of months) out.push({ phrase: m.phrase, date: m.date, duration: false, week: false });
  const claimed = (index: number, length: number): boolean => months.some((m) => index < m.index + m.phrase.length && index + length > m.index);
  // "last Tues", "on Weds": abbreviations chrono does not read, given as ones it does, of the same length (indices hold).
  // "a few years back": "ago", padded to the same length.
  // "Saturday at seven": the hour as a number, padded.
  const readable = hourWordsAsNumbers(text.replace(WEEKDAY_ABBREVIATION, (m) => `${m.slice(0, 3)} `).replace(SPAN_BACK, (_m, span: string) => `${span} ago `)
    .replace(NOW_AFTER_DAY, (m) => ' '.repeat(m.length)).replace(NIGHT_OF_EVENT, (m) => ' '.repeat(m.length))
    .replace(IN_LIKE, (m) => ' '.repeat(m.length)).replace(LASTS_UNTIL, (m) => ' '.repeat(m.length)));
  // Where each blanked "to" of a move begins: the day before it is the one moved from.
  const movedTo = [...readable.matchAll(MOVE_FROM_TO)].map((m) => m.index);
  const movable = movedTo.length === 0 ? readable : readable.replace(MOVE_FROM_TO, (m) => ' '.repeat(m.length));
  // "Friday next week", "next week on Friday", "the Friday after next": the day itself, read apart (weekday-of-week.ts).
  const byWeek = weekdaysOfWeeks(movable, refIso);
  const unread = withoutWeekdaysOfWeeks(movable, byWeek);
  const dayOfWeek = (before: number): void => {
    while (byWeek.length > 0 && byWeek[0]!.index < before) {
      const w = byWeek.shift()!;
      out.push({ phrase: text.slice(w.index, w.index + w.phrase.length), date: w.date, duration: false, week: false });
    }
  };
  const parse = (forwardDate: boolean): chrono.ParsedResult[] => chrono.en.parse(unread, { instant, timezone: 0 }, { forwardDate });
  // Tagging the sentence (`toldAsPast`) only when it names a date at all: most sentences name none.
  const looksBack = PAST.test(readable);
  const ahead = parse(!looksBack);
  // Told of the past or not, read from the clause that holds the date when it has a verb of its own ("Your mum called,
  // she wants us over on Sunday": Sunday to come), else from the whole sentence ("I called her, on Tuesday").
  // Tagged once per clause: several dates may lie in one.
  const told = new Map<string, boolean>();
  const pastAt = (index: number): boolean => {
    const read = clauseAround(text, index);
    if (!told.has(read)) told.set(read, toldAsPast(read));
    return told.get(read)!;
  };
  // "I booked the table for Friday": the day a booking is for lies ahead, whatever the clause's tense (rules 50). "Tom told
  // me the party is on Saturday at 8": a weekday in reported speech of what is or will be lies ahead too (`REPORTED_AHEAD`;
  // rules 112 after review, M2), not one "since" or "until" it.
  const backAt = ahead.map((r) => !bookedFor(text, r.index, r.text) && !reportedDay(text, r) && (looksBack || pastAt(r.index)));
  // Read back: chrono's own reading of the past (it may find other phrases than read ahead, or none).
  const behind = looksBack || !backAt.some(Boolean) ? [] : parse(false);
  // Told of the past as a whole ("yesterday", "two days ago"), the weekday a booking is for still lies ahead: "I booked an
  // appointment yesterday for Friday at 3pm" (rules 101), read by chrono forward. A month booked for keeps the past
  // reading: "last year I booked a holiday for June" is this June, not the next.
  const bookedDay = ahead.map((r, k) => looksBack && !backAt[k] && WEEKDAY_FIRST.test(r.text));
  const forward = bookedDay.some(Boolean) ? parse(true) : [];
  const results: Array<[chrono.ParsedResult, boolean]> = looksBack
    ? ahead.map((r, k): [chrono.ParsedResult, boolean] => {
      const read = bookedDay[k] ? forward.find((f) => f.index === r.index) : undefined;
      return read ? [read, false] : [r, true];
    })
    : backAt.every(Boolean) ? behind.map((r) => [r, true])
      : ahead.flatMap((r, k): Array<[chrono.ParsedResult, boolean]> => (backAt[k] ? behind.filter((b) => b.index === r.index).map((b) => [b, true]) : [[r, false]]));
  // Where the last phrase read past chrono's own ends ("the week before Christmas next year").
  let taken = -1;
  const retimed = hourInstead(text);
  for (const [r, back] of results) {
    dayOfWeek(r.index);
    // "until Friday, so…": chrono keeps the comma.
    // The words as said ("last Tues"), the rest of a word chrono read in part included.
    let said = r.text.length + (/^[a-z]*/i.exec(text.slice(r.index + r.text.length))?.[0].length ?? 0);
    // "on Friday at seven thirty": an hour written shorter for chrono, padded (clock-time.ts `hourWordsAsNumbers`); the
    // words as said run to the end of the padding (rules 110).
    const padding = /^ +/.exec(readable.slice(r.index + said))?.[0].length ?? 0;
    said += text.slice(r.index + said, r.index + said + padding).trimEnd().length;
    // "14–18 Dec.": the full stop that ends the sentence is no part of the phrase (the fact's text leaves it out; rules 111).
    const read = text.slice(r.index, r.index + said).trim().replace(/[,;:]+$/, '').replace(/\.$/, (m, at: number, all: string) => (/^\s*$/.test(text.slice(r.index + said)) && !ABBREVIATED_END.test(all) ? '' : m));
    // "in an hour or so": the hedge is written over with the date.
    const hedge = /^in\s/i.test(read) ? OR_SO_AFTER.exec(text.slice(r.index + said))?.[0] ?? '' : '';
    const phrase = read + hedge;
    if (LASTS.test(phrase)) continue;
    if (TIME_OF_DAY.test(phrase) || isFrequency(text, r.index, phrase)) continue;
    // "every weekend", "every Monday": a habit, no one day; "we live at 4 Rose Court": a house number, no time (rules 49).
    // "My daughter April starts school": a relative's name, no month (rules 89).
    // "We will march on Friday": the verb, no month (rules 110).
    // "May's first Sunday": one weekday of a month, not the coming one (rules 115).
    if (isRecurring(text, r.index, phrase) || isHouseNumber(text, r.index, phrase) || isRelativesName(text, r.index, phrase)
      || isMarchedTo(text, r.index, phrase)) continue;
    // Its month dates it where chrono reads no month ("on May's first Sunday": May 2027; rules 115 after review).
    const owner = monthOfWeekday(text, r.index, phrase);
    if (owner) {
      if (!results.some(([x]) => x.index <= owner.index && owner.index < x.index + x.text.length)) out.push(monthOfPick(owner, back, instant));
      continue;
    }
    // "So, I sat with her": a weekday's abbreviation is one only with its capital ("last Sat", not "sat").
    if (LOWER_ABBREVIATION.test(phrase)) continue;
    // "a weekend yoga class", "my weekend plans": the word names a kind of thing, not a day.
    // "My weekend was great": after a possessive it is a thing of someone's, no date to write in.
    if (UNIT_AS_MODIFIER.test(phrase) && (POSSESSIVE_BEFORE.test(text.slice(0, r.index))
      || (DETERMINER_BEFORE.test(text.slice(0, r.index)) && NOUN_AFTER.test(text.slice(r.index + phrase.length))))) continue;
    if (ordinal && r.index < ordinalEnd && r.index + r.text.length > ordinal.index) continue;
    if (claimed(r.index, r.text.length)) continue;
    // "the 12th at 3pm", "at 3pm on the 12th": a clock time next to a day of the month is that day's, not today's (rules 76).
    if (ordinal && ordinalFound && !r.start.isCertain('day') && !r.start.isCertain('weekday') && !r.start.isCertain('month')) {
      const end = ordinal.index + ordinal.phrase.length;
      const after = /^\s+$/.test(text.slice(end, r.index)) || end === r.index;
      const before = /^\s+$/.test(text.slice(r.index + phrase.length, ordinal.index));
      const clock = after || before ? clockOf(r.start, phrase, ordinal.date >= dayStart, text) : null;
      if (clock) {
        ordinalFound.phrase = after ? text.slice(ordinal.index, r.index + phrase.length) : text.slice(r.index, end);
        ordinalFound.clock = clock;
        continue;
      }
    }
    // "Let's do 7pm instead", "what about 7:30 instead?": a new hour alone for the booking under discussion keeps the
    // booking's day (retimed.ts `reclockedText`); chrono's today (or tomorrow, for an hour gone by) is no day said (rules 79).
    if (retimed && r.index < retimed.end && r.index + phrase.length > retimed.start && !r.start.isCertain('day')
      && !r.start.isCertain('weekday') && !r.start.isCertain('month')) continue;
    // "the week before Christmas next year": "next year" is part of a phrase already read.
    if (r.index < taken || namesNoDay(text, r.index, phrase)) continue;
    // "Sunday is my favourite day", "the best part of the week": no date, the words stay as said.
    // "I always call mum on Sunday": a habit, no one Sunday.
    if (genericDayOrWeek(text, r.index, phrase) || habitualWeekday(text, r.index, phrase)) continue;
    // "the last week of the school holidays": a week of something else, not last week.
    if (/^(?:the\s+)?(?:last|first|next)\s+week$/i.test(phrase) && /^\s+of\b/i.test(text.slice(r.index + phrase.length))) continue;
    // "We went to Paris and the next day we flew home": the day after the event told, not tomorrow; unknown, no date.
    if (DAY_FROM_EVENT.test(phrase)) {
      const date = dayFromEvent(phrase, out);
      if (date) out.push({ phrase, date, duration: false, week: false });
      continue;
    }
    // "the week before Christmas": the whole phrase or, when the words after it name no time, no date.
    if (WEEK_FROM.test(phrase) && /^\s+\w/.test(text.slice(r.index + phrase.length))) {
      const from = weekFrom(text, r.index, phrase, refIso, back);
      // "The week before Christmas is always busy": a habit, no one week (unless words say which: "next year").
      if (from && (from.placed || !habitual(text, r.index, from.phrase))) {
        // "Next year, the week before Christmas": the year read as a date of its own is part of this one.
        const last = out.at(-1);
        if (last && from.yearBefore.toLowerCase().includes(last.phrase.toLowerCase())) out.pop();
        // "Next year, I fly out the week before Christmas": the year, told in a clause before, dates the week, not the act.
        const year = from.yearEarlier?.toLowerCase();
        const yearAt = year === undefined ? -1 : out.findIndex((d) => year.includes(d.phrase.toLowerCase()));
        if (yearAt >= 0) out.splice(yearAt, 1);
        out.push({ phrase: from.phrase, date: from.date, duration: false, week: true, ...(from.written ? { written: from.written } : {}) });
        taken = r.index - from.yearBefore.length + from.phrase.length;
      }
      continue;
    }
    let date = precise(r.start);
    if (BARE_WEEKDAY.test(phrase)) {
      // "on Tuesday", "this Friday", "coming Friday": the next such day after today; told of the past ("I called her on
      // Friday"), the last such day before today. "next Friday": Friday of next week (Monday first), as chrono reads it
      // and the end of a state ("until next Friday", state-end.ts) is read: said on a Monday, "next Wednesday" is in nine
      // days, not two (rules 56; `weekdayOfNextWeek`).
      const target = r.start.get('weekday') ?? 0;
      const now = instant.getUTCDay();
      const ahead = !back || /^(?:next|coming)\s/i.test(phrase) || bookedFor(text, r.index, phrase);
      const days = ahead ? ((target - now + 7) % 7) || 7 : -(((now - target + 7) % 7) || 7);
      date = /^next\s/i.test(phrase) ? weekdayOfNextWeek(dayStart, target) : addDays(dayStart, days);
    }
    // "We went camping in May", told in December: chrono takes the nearest May, next year's; told of the past, a month
    // named without its year is this year's or last year's, never one to come (rules 38).
    if (back && MONTH_IN_PHRASE.test(phrase) && r.start.isCertain('month') && !r.start.isCertain('year') && date > refIso.slice(0, date.length)) {
      date = yearsBefore(date, 1);
    } else if (!back && MONTH_IN_PHRASE.test(phrase) && r.start.isCertain('month') && !r.start.isCertain('year') && !r.start.isCertain('day')) {
      // "for two weeks in December", said on 5 December: this December, not next year's (`monthAheadYear`).
      date = `${monthAheadYear(r.start.get('month')! - 1, instant.getTime(), text.slice(0, r.index + phrase.search(MONTH_IN_PHRASE)))}${date.slice(4)}`;
    }
    // "Monday to Wednesday next week": a range of weekdays (`rangeEnd`), not the week itself (rules 111).
    const week = WEEK.test(phrase) && !DURATION.test(phrase) && !(r.start.isCertain('weekday') && r.end?.isCertain('weekday'));
    if (week) {
      // "Guess what I did this week?": the week holding today (chrono's weeks start on Sunday, told of the past it gives
      // the Sunday before, a day of last week).
      date = mondayOf((THIS_WEEK.test(phrase) ? dayStart : date).slice(0, 10));
    }
    // "for the next few days": chrono's phrase leaves out the "for (the)" before it. "Booked for Friday": a day, not how long.
    // "spending two weeks in Rome": a span after "spend" is how long too.
    const duration = DURATION.test(phrase) || (/\bfor\s+(?:the\s+)?$/i.test(text.slice(0, r.index)) && !namesDay(phrase))
      || (SPEND_BEFORE.test(text.slice(0, r.index)) && COUNTED.test(phrase)) || bareLength(text, r.index, phrase);
    const since = duration ? startOfPerfect(text, r, instant) : null;
    // "at nine thirty on Friday": the hour as chrono read it ("at 9:30"; clock-time.ts `hourWordsAsNumbers`, rules 110).
    // "Jo said the movie is on Tuesday at 7:15": a day ahead told in reported speech of what is or will be keeps its hour,
    // though the sentence is told as past (rules 112; `REPORTED_AHEAD`).
    const ahead = !back || (date > dayStart && REPORTED_AHEAD.test(text.slice(0, r.index)));
    const clock = duration || week || date.length !== 10 ? null : clockOf(r.start, readable.slice(r.index, r.index + phrase.length), ahead, text);
    // "We have date night at 8", "we have dinner at 8", said at 10am: chrono read the bare hour as 8am, gone by, and rolled
    // it to tomorrow; read as the evening (`clockOf`) it is still ahead today, so today's (rv97 H4).
    if (clock && !back && BARE_HOUR_ALONE.test(phrase.trim()) && date === addDays(dayStart, 1) && `${dayStart}T${clock}` > refIso.slice(0, 16)) date = dayStart;
    const movedFrom = movedTo.includes(r.index + said);
    const end = duration || week ? null : rangeEnd(r, text, date, back, dayStart);
    // "I work Monday to Friday", "I work Monday-Friday": weekdays of a week's schedule (`WEEK_SCHEDULE`, a habit), said
    // ahead, name no one day (were "works on Monday 7 December"; rules 114, M7, after review H2).
    if (!end && !back && r.end && r.start.isCertain('weekday') && r.end.isCertain('weekday') && !r.start.isCertain('day') && !r.start.isCertain('month')
      && (WEEK_SCHEDULE.test(text) || HABITUAL.test(text) || WEEKLY_SAID.test(text))) continue;
    if (end) date = end.start;
    out.push({ phrase, date, duration, week: week && !duration, ...(since ? { since } : {}), ...(clock ? { clock } : {}), ...(movedFrom ? { movedFrom } : {}),
      ...(end ? { end: end.last } : {}) });
  }
  dayOfWeek(Infinity);
  return out;
}

/**
 * A range of days chrono read ("Dec 3 to Dec 10", "Monday to Wednesday"; rules 108), `date` its first day as read: the
 * first and last day. Read ahead with no year said, a range under way is this one ("Dec 3 to Dec 10" said on 7 December:
 * this December's, not next year's). Null when the phrase names no last day, or weekdays alone are a schedule.
 */
function rangeEnd(r: chrono.ParsedResult, text: string, date: string, back: boolean, dayStart: string): { start: string; last: string } | null {
  if (!r.end || date.length !== 10 || !(r.end.isCertain('day') || r.end.isCertain('weekday'))) return null;
  // "My shift is 9–5 tomorrow", "it finished 2 - 1 yesterday": hours (or a score) chrono read as a range, not of days (M2).
  if (r.start.isCertain('hour') && HOURS_DASH.test(r.text)) return null;
  // "I work Monday to Friday": weekdays alone in a habit or a present state are a week's schedule (`ONE_STRETCH`); with
  // "last week" one stretch of last week's after their own clause's words told as past ("I was off Monday to Wednesday last
  // week", "Last week I took Monday to Wednesday off"; rules 112). Not "I work Monday to Friday, last week I was sick",
  // "i play football monday to friday last week was fun" (after review, H3), nor "Last week was crazy, I need Monday to
  // Wednesday off": the tense is the tagger's (told-tense.ts `toldAsPast`), not a word's "-ed" ("need", "feed"; rules 114, D3).
  const before = text.slice(0, r.index).split(/[.!?]/).pop() ?? '';
  const weekSaid = WEEK_SAID.exec(r.text) ?? WEEK_SAID.exec(before) ?? WEEK_SAID.exec(clauseAround(text, r.index));
  const pastStretch = /^last$/i.test(weekSaid?.[1] ?? '') && before.trim() !== '' && toldAsPast(clauseAround(before, before.length - 1));
  // A stay booked "from" one day to another ("I booked the cabin from Friday to Sunday"; `bookedFor`) is one too (rules 114, M4).
  const stretch = ONE_STRETCH.test(text) || pastStretch || STAY_FROM.test(text.slice(0, r.index)) || STAY_BEFORE.test(text.slice(0, r.index))
    || bookedFor(text, r.index, r.text);
  if (!r.start.isCertain('month') && (!stretch || HABITUAL.test(text) || WEEKLY_SAID.test(text))) return null;
  // "Next week I'm off Monday to Wednesday", "I'm off Monday to Wednesday next week" (chrono reads it whole, rules 111):
  // weekdays alone with "next week" said with them, before them or in their clause are next week's (`weekdayOfNextWeek`),
  // not chrono's coming ones, and with "last week" last week's (rules 112); "next / last week" said elsewhere leaves the
  // range no end.
  if (!r.start.isCertain('month') && r.start.isCertain('weekday') && r.end.isCertain('weekday') && WEEK_SAID.test(text)) {
    if (!weekSaid) return null;
    const weeks = /^last$/i.test(weekSaid[1]!) ? -14 : 0;
    const start = addDays(weekdayOfNextWeek(dayStart, r.start.get('weekday')!), weeks);
    const last = addDays(weekdayOfNextWeek(dayStart, r.end.get('weekday')!), weeks);
    // "Thursday to Monday next week", "Friday to Friday next week": the last day in the week after (after review, H5).
    return { start, last: last <= start ? addDays(last, 7) : last };
  }
  let last = precise(r.end);
  // "I was in Rome from May 3 to May 10", said in December: the start was read back a year (or a weekday back a week);
  // the end goes back with it, else it would lie a year after the start (review H1).
  const read = precise(r.start);
  if (last.length === 10 && read.length === 10 && read !== date) {
    const years = Number(read.slice(0, 4)) - Number(date.slice(0, 4));
    last = years > 0 && yearsBefore(read, years) === date ? yearsBefore(last, years) : addDays(last, Math.round((Date.parse(date) - Date.parse(read)) / DAY_MS));
  }
  // "from Friday to Friday": a week, not one day (after review, H6).
  if (last === date && !r.start.isCertain('month') && r.start.isCertain('weekday') && r.end.isCertain('weekday')) last = addDays(date, 7);
  if (last.length !== 10 || last < date) return null;
  const earlier = (d: string): string => `${Number(d.slice(0, 4)) - 1}${d.slice(4)}`;
  if (!back && !r.start.isCertain('year') && r.start.isCertain('month') && date > dayStart && earlier(last) >= dayStart && earlier(date) <= dayStart) {
    return { start: earlier(date), last: earlier(last) };
  }
  return { start: date, last };
}

/** `day` (`YYYY-MM-DD…`) `years` years before; a 29 February in a year with none is its 28th. */
function yearsBefore(day: string, years: number): string {
  const year = Number(day.slice(0, 4)) - years;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${year}${day.slice(4, 10) === '-02-29' && !leap ? `-02-28${day.slice(10)}` : day.slice(4)}`;
}

/** The ISO date (or `YYYY-MM`) a date phrase refers to, or null if not understood. */
export function resolveDatePhrase(phrase: string, refIso: string): string | null {
  return findDates(phrase, refIso)[0]?.date ?? null;
}

/**
 * A duration told in the perfect ("I've had them for three years now"): when the state began, `instant` less the
 * duration, as precise as the duration's unit; null when the clause is not in the perfect.
 */
function startOfPerfect(text: string, r: chrono.ParsedResult, instant: Date): string | null {
  if (!toldInPerfect(clauseAround(text, r.index))) return null;
  const start = new Date(2 * instant.getTime() - r.start.date().getTime()).toISOString();
  if (/\b(?:years?|decades?)\b/i.test(r.text)) return start.slice(0, 4);
  if (/\bmonths?\b/i.test(r.text)) return start.slice(0, 7);
  return start.slice(0, 10);
}
