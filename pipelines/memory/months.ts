/**
 * The months, as the memory rules read and write them (issue #16 item 2): the one list of their names and short forms,
 * which the rules' patterns and word checks build on ("in January", "on Dec 3", "Sept 12", "last May").
 */

/** The twelve months' names, as a date is written ("Friday 4 December 2026"); index 0 is January. */
export const MONTH_NAMES: readonly string[] = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
  'September', 'October', 'November', 'December'];

/** The days of the week as a pattern's alternative, lower case ("monday" … "sunday"), for every rule that names one. */
export const WEEKDAY_NAME = String.raw`(?:mon|tues|wednes|thurs|fri|satur|sun)day`;
/** A dash between weekdays or their short forms ("Monday-Wednesday", "Mon–Wed"; rules 112), as a pattern's words. */
export const WEEKDAY_DASH = String.raw`\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*[-–]\s*(?:mon|tue|wed|thu|fri|sat|sun)`;
/** The months' names as a pattern's words, lower case ("january|february|…|december"); a flag `i` reads any case. */
export const MONTH_NAME = MONTH_NAMES.map((m) => m.toLowerCase()).join('|');

/** The months' names as a pattern's words, capitalised ("January|…|December"), for a pattern that reads the case. */
export const CAPITALISED_MONTH_NAME = MONTH_NAMES.join('|');

/**
 * Each month as a date phrase says it, name or short form, one group per month in order: "jan(?:uary)?", "sept?(?:ember)?".
 * The short forms read everywhere are those that are no other word: Jan, Feb, Aug, Sep / Sept, Oct, Nov, Dec. "Mar",
 * "Apr", "Jun", "Jul" are read only before a day's number (`isMonthWord`): "mar" is a verb, "Jun" a name.
 */
export const MONTHS_SAID: readonly string[] = ['jan(?:uary)?', 'feb(?:ruary)?', 'march', 'april', 'may', 'june', 'july',
  'aug(?:ust)?', 'sept?(?:ember)?', 'oct(?:ober)?', 'nov(?:ember)?', 'dec(?:ember)?'];

/** A month as a date phrase says it, name or short form, as a pattern's words (lower case; flag `i` for any case). */
export const MONTH_SAID = MONTHS_SAID.join('|');

/** The months' short forms as a pattern's words, all twelve but May ("jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec"). */
export const MONTH_SHORT = 'jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec';

/**
 * A month as a date says it (rules 110): name or short form ({@link MONTH_SAID}), or one of all twelve short forms
 * ({@link MONTH_SHORT}) right before a day's number, with or without its dot and in any case, as a recogniser writes it
 * ("mar 3", "Mar. 3", "Sept. 12"); "I mar the table" names none. A pattern's words, to read between word boundaries.
 */
export const MONTH_DATE_SAID = String.raw`${MONTH_SAID}|(?:${MONTH_SHORT})(?=\.?\s+\d)`;

/** A month's short form, with or without its dot ("Dec", "Dec.", "Sept", "Apr."). */
const SHORT_FORM = new RegExp(String.raw`^(?:${MONTH_SHORT})\.?$`, 'i');
const NAME = new RegExp(`^(?:${MONTH_NAME})$`, 'i');

/**
 * Whether `word` (any case) is a month's name ("December"), or, with `shortToo`, its short form with or without a dot
 * ("Dec", "Dec.", "Sept", "Apr").
 */
export function isMonthWord(word: string, shortToo = false): boolean {
  return NAME.test(word) || (shortToo && SHORT_FORM.test(word));
}
