/**
 * Ends of temporary states named by a holiday or counted in nights (rules 31), which chrono-node does not read:
 * "until the new year", "till Christmas", "until Christmas Eve", "for the holidays", "over the summer holidays",
 * "for a few nights", "for two nights".
 */
import { DAY_MS } from '../../graph/core/time.js';
import { HOLIDAY_DAYS, nextDay, nextDayEnd } from './holidays.js';
import { clauseAround, hasVerb, toldAsPast } from './told-tense.js';
import { COUNT, UNTIL, countOf } from './spans.js';

/** "until / till / through the new year", "until New Year's Day / Eve", "until Christmas (Day / Eve)". */
const UNTIL_HOLIDAY = new RegExp(String.raw`\b${UNTIL}\s+(?:the\s+)?(?:(new\s+year)(?:['’]s\s+(day|eve))?|(christmas|xmas)(?:\s+(day|eve))?)\b`, 'i');
/** "for / over / during the holidays", "the Christmas holidays", "the summer holidays", "the school holidays". */
const HOLIDAYS = /\b(?:for|over|during|through)\s+the\s+(?:(christmas|xmas|summer|school|winter)\s+)?(?:holidays|hols)\b/i;
/**
 * A present or coming "be" in a clause: the holidays end a state, not a habit; one told of someone else too ("my cousin
 * is a postman for the holidays", "Ana is a postwoman over the holidays"; rules 34).
 */
const STATE_BE = /\b(?:I['’]m|I\s+am|we['’]re|we\s+are|(?:I|we)['’]ll\s+be|(?:I|we)\s+will\s+be|is|are|(?:he|she|they)['’](?:s|re))\b/i;
/** "for a few nights", "for two nights", "for 3 nights", "for a couple of nights": counted as every count is (`countOf`). */
const NIGHTS = new RegExp(String.raw`\bfor\s+(?:the\s+)?(?:next\s+)?(${COUNT})\s+nights?\b`, 'i');

/** The exclusive end of "until <holiday>": the day after the day named (as "until Friday" holds through Friday). */
function untilHoliday(m: RegExpExecArray, refIso: string): string {
  const iso = (t: number): string => new Date(t).toISOString();
  if (m[1]) {
    // "until the new year", "until New Year's Eve": it ends as the year does; "until New Year's Day": through 1 January.
    const newYear = nextDay(refIso, HOLIDAY_DAYS.newYearsDay);
    return iso(m[2]?.toLowerCase() === 'day' ? newYear + DAY_MS : newYear);
  }
  // "until Christmas" and "until Christmas Day": through the 25th; "until Christmas Eve": through the 24th.
  return iso(nextDayEnd(refIso, m[4]?.toLowerCase() === 'eve' ? HOLIDAY_DAYS.christmasEve : HOLIDAY_DAYS.christmasDay));
}

/**
 * The end of "the holidays" said at `refIso`: the Christmas holidays (said from October to early January, or named)
 * end after 1 January (2 January); the summer ones (said from May to August, or named) at the start of September.
 * Null when the time of year names neither.
 */
function holidaysEnd(which: string | undefined, refIso: string): string | null {
  const ref = new Date(refIso);
  const month = ref.getUTCMonth();
  const kind = which?.toLowerCase();
  const christmas = kind === 'christmas' || kind === 'xmas' || kind === 'winter' || (kind !== 'summer' && (month >= 9 || (month === 0 && ref.getUTCDate() <= 2)));
  if (christmas) return new Date(nextDay(refIso, HOLIDAY_DAYS.christmasHolidaysEnd)).toISOString();
  if (kind === 'summer' || (month >= 4 && month <= 7)) return new Date(nextDay(refIso, HOLIDAY_DAYS.summerHolidaysEnd)).toISOString();
  return null;
}

/**
 * True when the holiday at `index` is said in the sentence's first clause with a verb, the state a fact of the sentence
 * tells (rules 35): "I'm working from home, and over the holidays we're at Mum's" gives working from home no end at the
 * holidays; "Good news, I'm a postman over the holidays" keeps it. A clause with no verb of its own ("Over the holidays,
 * I'm a postman") reads the sentence whole (`clauseAround`).
 */
function ownClause(text: string, index: number): boolean {
  const clause = clauseAround(text, index);
  return clause === text || !hasVerb(text.slice(0, text.indexOf(clause)));
}

/**
 * When a state said at `refIso` ends by a holiday or a count of nights in `text` (exclusive), or null when it names none
 * or tells of the past ("I stayed there for two nights", "I worked there over the holidays").
 */
export function namedEnd(text: string, refIso: string): string | null {
  if (Number.isNaN(Date.parse(refIso))) return null;
  const until = UNTIL_HOLIDAY.exec(text);
  if (until && ownClause(text, until.index) && !toldAsPast(clauseAround(text, until.index))) return untilHoliday(until, refIso);
  const holidays = HOLIDAYS.exec(text);
  // A state told with "be" ("I'm working as a barista for the holidays"), not a habit ("we watch Elf during the holidays").
  if (holidays && ownClause(text, holidays.index) && STATE_BE.test(clauseAround(text, holidays.index)) && !toldAsPast(clauseAround(text, holidays.index))) {
    const end = holidaysEnd(holidays[1], refIso);
    if (end) return end;
  }
  const nights = NIGHTS.exec(text);
  if (nights && !toldAsPast(clauseAround(text, nights.index))) {
    const n = countOf(nights[1]!);
    if (n !== null && n > 0) return new Date(Date.parse(refIso) + n * DAY_MS).toISOString();
  }
  return null;
}
