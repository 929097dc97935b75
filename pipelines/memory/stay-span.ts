/**
 * When a stay runs, by the span its words name (rules 29): the weekend ("spending the weekend in Bath"), a holiday
 * ("over Easter", "over Christmas"), or a start ahead with or without a length ("next month I'm in Tokyo for two
 * weeks", "I'll be in Oslo for ten days from Monday", "I'm in Vienna next week"). `stateEnd` counts a length from the
 * moment said; a stay that starts ahead counts it from its start (`staySpan`).
 */
import * as chrono from 'chrono-node';
import { DAY_MS } from '../../graph/core/time.js';
import { toldAsPast } from './relative-date.js';

/** When a stay runs: `start` (ISO, null when it holds as said) and its exclusive `end` (ISO). */
export interface StaySpan {
  start: string | null;
  end: string;
}

/** Midnight UTC of the day holding `ms`. */
const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The Monday (00:00 UTC) after the Monday-to-Sunday week holding `ms`. */
const nextMonday = (ms: number): number => dayOf(ms) + (7 - ((new Date(ms).getUTCDay() + 6) % 7)) * DAY_MS;

/** Easter Sunday of `year` (Gregorian, the anonymous computus), as midnight UTC. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const h = (19 * a + b - Math.floor(b / 4) - Math.floor((8 * b + 13) / 25) + 15) % 30;
  const l = (32 + 2 * (b % 4) + 2 * Math.floor(c / 4) - h - (c % 4)) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/** A holiday's days in `year`: Easter from Good Friday to Easter Monday, Christmas from Christmas Eve to Boxing Day. */
function holiday(name: string, year: number): [number, number] {
  if (name === 'easter') {
    const sunday = easterSunday(year);
    return [sunday - 2 * DAY_MS, sunday + 2 * DAY_MS];
  }
  return [Date.UTC(year, 11, 24), Date.UTC(year, 11, 27)];
}

/** "over Easter", "for Christmas", "at Easter", "spending Christmas", "during the Christmas holidays". */
const HOLIDAY = /\b(?:over|for|at|during|spend(?:s|ing)?)\s+(?:the\s+)?(Easter|Christmas)\b/i;
/** "the weekend", "this weekend", "next weekend" (not "last weekend", not "a weekend class"). */
const WEEKEND = /\b(?:(the|this)|(next))\s+weekend\b(?!\s+(?:class|course|job|shift|trip|plans?|market)\b)/i;
/** A length: "for two weeks", "for ten days", "for a few nights", "for a fortnight", "spending a month". */
const LENGTH = /\b(?:for|spend(?:s|ing)?)\s+(?:the\s+next\s+)?(a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few|a\s+couple\s+of|several|\d+)\s+(days?|nights?|weeks?|fortnights?|months?)\b/i;
const NUMBER: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, several: 3,
};
/** A start ahead named: "from Monday", "starting Friday", "next week / month", "in January", "on Friday", "tomorrow". */
const AHEAD = /\b(?:from|starting)\s+\S[^,.;!?]*|\bnext\s+(?:week|month)\b|\bin\s+(?:january|february|march|april|may|june|july|august|september|october|november|december)\b|\bon\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\btomorrow\b/i;
/** An end said outright ("until the 20th", "till June"): `stateEnd` reads it, not a length. */
const UNTIL = /\b(?:until|till|til|through|thru)\s+\S/i;

/** `ms` plus `count` of `unit` (months by the calendar, "a few" as 3, "a couple of" as 2). */
function plus(ms: number, count: string, unit: string): number {
  const c = count.toLowerCase().replace(/\s+/g, ' ');
  const n = /^\d+$/.test(c) ? Number(c) : c === 'a few' ? 3 : c === 'a couple of' ? 2 : NUMBER[c] ?? 1;
  const u = unit.toLowerCase();
  if (u.startsWith('month')) {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  }
  const days = u.startsWith('fortnight') ? 14 : u.startsWith('week') ? 7 : 1;
  return ms + n * days * DAY_MS;
}

/** The span of a named start ahead (chrono, forward): its first day or month, and the end of the week or month it names. */
function aheadSpan(phrase: string, refMs: number): { start: number; end: number | null } | null {
  const [r] = chrono.en.parse(phrase, { instant: new Date(refMs), timezone: 0 }, { forwardDate: true });
  if (!r) return null;
  const at = r.start.date().getTime();
  if (/\bnext\s+week\b/i.test(phrase)) {
    const monday = nextMonday(refMs);
    return { start: monday, end: monday + 7 * DAY_MS };
  }
  if (!r.start.isCertain('day') && !r.start.isCertain('weekday') && r.start.isCertain('month')) {
    const d = new Date(at);
    return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
  }
  const day = dayOf(at);
  // "from Monday": a first day, no last; "on Friday", "tomorrow": that day.
  return { start: day, end: /^(?:from|starting)\b/i.test(phrase) ? null : day + DAY_MS };
}

/**
 * When the stay `sentence` tells runs, said at `refIso`: the weekend (Saturday to the Monday after; ahead when said on a
 * weekday), Easter (Good Friday to the Tuesday after) or Christmas (24 to 27 December), each this year's or, once past,
 * next year's; or a start ahead named, with a length counted from it ("next month … for two weeks": 1 January to 15
 * January) or else the day, week or month it names. Null when the sentence names none of these (a length from now,
 * "until …": `stateEnd`), is told of the past, or names its own end outright.
 */
export function staySpan(sentence: string, refIso: string): StaySpan | null {
  const ref = Date.parse(refIso);
  if (Number.isNaN(ref) || toldAsPast(sentence) || UNTIL.test(sentence)) return null;
  const span = (start: number, end: number): StaySpan | null =>
    end <= ref ? null : { start: start > ref ? new Date(start).toISOString() : null, end: new Date(end).toISOString() };
  const feast = HOLIDAY.exec(sentence);
  if (feast) {
    const name = feast[1]!.toLowerCase();
    const year = new Date(ref).getUTCFullYear();
    const [start, end] = holiday(name, year)[1] > ref ? holiday(name, year) : holiday(name, year + 1);
    return span(start, end);
  }
  const weekend = WEEKEND.exec(sentence);
  if (weekend) {
    const monday = nextMonday(ref) + (weekend[2] ? 7 * DAY_MS : 0);
    return span(monday - 2 * DAY_MS, monday);
  }
  const ahead = AHEAD.exec(sentence);
  if (!ahead) return null;
  const from = aheadSpan(ahead[0].replace(/\s+for\s+.*$/i, ''), ref);
  if (!from || from.start <= ref) return null;
  const length = LENGTH.exec(sentence);
  const end = length ? plus(from.start, length[1]!, length[2]!) : from.end;
  return end === null ? null : span(from.start, end);
}
