/**
 * "the week before Christmas next year", "the week after Easter", "the week after next": a week told from another
 * time. chrono reads only "the week before" (as last week); this reads the words after it (`findDates` in
 * relative-date.ts asks).
 */
import { addDays } from './calendar-day.js';
import { easterSunday } from './holidays.js';

/** A day fixed by its month and day of the month, in a given year. */
const fixed = (month: number, day: number) => (year: number): string => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** Days whose name dates them ("Christmas", "Easter"): the day in a given year, `YYYY-MM-DD`. */
const NAMED_DAYS: [RegExp, (year: number) => string][] = [
  [/^christmas\s+eve\b/i, fixed(12, 24)], [/^(?:christmas(?:\s+day)?|xmas)\b/i, fixed(12, 25)], [/^boxing\s+day\b/i, fixed(12, 26)],
  [/^new\s+year['’]?s\s+eve\b/i, fixed(12, 31)], [/^new\s+year(?:['’]?s(?:\s+day)?)?\b/i, fixed(1, 1)], [/^halloween\b/i, fixed(10, 31)],
  [/^valentine['’]?s(?:\s+day)?\b/i, fixed(2, 14)],
  [/^easter(?:\s+sunday)?\b/i, (year) => new Date(easterSunday(year)).toISOString().slice(0, 10)],
];
/** "the week before" / "the week after" as chrono reads them: a week from some other time, named next. */
export const WEEK_FROM = /^(?:the\s+)?week\s+(before|after)$/i;
/** The year told after a named day: "Christmas next year", "Easter last year", "Christmas 2027". */
const YEAR_AFTER = /^\s+(?:(next|last|this)\s+year|(\d{4}))\b/i;
/** The year told just before: "next year, the week before Christmas", "in 2027 the week after Easter". */
const YEAR_BEFORE = /\b(?:(next|last|this)\s+year|(?:in\s+)?(\d{4})),?\s+$/i;
/** A year told anywhere before ("Next year, I fly out the week before Christmas"): the last one of the sentence counts. */
const YEAR_EARLIER = /\b(?:(next|last|this)\s+year|in\s+(\d{4}))\b/gi;
const YEAR_SHIFT: Record<string, number> = { next: 1, last: -1, this: 0 };

/** Monday of the week holding `day` (`YYYY-MM-DD`). */
export function mondayOf(day: string): string {
  const d = new Date(`${day}T00:00:00.000Z`);
  return addDays(day, -((d.getUTCDay() + 6) % 7));
}

/** A week told from another time, read by `weekFrom`. */
export interface WeekFrom {
  /** The words as spoken, e.g. `the week before Christmas next year`, `next year, the week before Christmas`. */
  phrase: string;
  /** The words of `phrase` before the week ("next year, "), empty when none: another date phrase may have read them. */
  yearBefore: string;
  /** Its Monday, `YYYY-MM-DD`. */
  date: string;
  /** What to write in place of `phrase` when it names its week by a day ("the week before Christmas 2027"). */
  written?: string;
  /**
   * The words of a year told in an earlier clause of the sentence ("Next year" in "Next year, I fly out the week before
   * Christmas"), not part of `phrase`; absent when none. Another date phrase may have read them.
   */
  yearEarlier?: string;
  /** True when words name which one ("next year", "2027", "the week after next"), so no habit can be meant. */
  placed: boolean;
}

/**
 * "the week before Christmas", "the week after Easter next year", "the week after next", "the week before last": the
 * whole phrase (chrono reads only "the week before", as last week, leaving the rest out) and its week's Monday. A
 * named day is the one of the year told after or just before it ("next year", "last year", "2027"; "next year, the week
 * before Christmas"), else its next one (told of the
 * past, its last one); its words are written with the year, once. The week before a day is the last week whose
 * weekdays all come before it: the week leading into a day on a weekend, the one before the week holding any other.
 * The week after is the one after the week holding the day. Null when the words after name no time this reads ("the
 * week before the wedding"): then it is no date.
 */
export function weekFrom(text: string, index: number, phrase: string, refIso: string, back: boolean): WeekFrom | null {
  const before = WEEK_FROM.exec(phrase)?.[1]?.toLowerCase() === 'before';
  const rest = text.slice(index + phrase.length);
  const gap = /^\s+/.exec(rest)?.[0] ?? '';
  const next = rest.slice(gap.length);
  const today = refIso.slice(0, 10);
  const relative = /^(next|last)\b/i.exec(next);
  if (relative) {
    const whole = `${phrase}${gap}${relative[0]}`;
    const date = addDays(mondayOf(today), 14 * (relative[1]!.toLowerCase() === 'next' ? 1 : -1));
    return { phrase: whole, date, yearBefore: '', placed: true };
  }
  for (const [name, on] of NAMED_DAYS) {
    const m = name.exec(next);
    if (!m) continue;
    const year = Number(today.slice(0, 4));
    const after = YEAR_AFTER.exec(next.slice(m[0].length));
    const yearBefore = after ? null : YEAR_BEFORE.exec(text.slice(0, index));
    const earlier = after || yearBefore ? undefined : yearEarlierThan(text, index);
    const told = after ?? yearBefore ?? earlier ?? null;
    const target = told ? on(told[2] ? Number(told[2]) : year + (YEAR_SHIFT[told[1]!.toLowerCase()] ?? 0))
      : back ? (on(year) < today ? on(year) : on(year - 1)) : (on(year) >= today ? on(year) : on(year + 1));
    const named = `${phrase}${gap}${m[0]}`;
    const date = before ? mondayOf(addDays(target, -5)) : mondayOf(addDays(target, 7));
    const spoken = `${yearBefore?.[0] ?? ''}${named}${after?.[0] ?? ''}`;
    return { phrase: spoken, date, written: `${named} ${target.slice(0, 4)}`, yearBefore: yearBefore?.[0] ?? '', placed: told !== null,
      ...(earlier ? { yearEarlier: earlier[0] } : {}) };
  }
  return null;
}

/** The last year told in `text` before `index` with no sentence end between ("Next year, I fly out…"), or undefined. */
function yearEarlierThan(text: string, index: number): RegExpExecArray | undefined {
  const before = text.slice(0, index);
  const last = [...before.matchAll(YEAR_EARLIER)].at(-1);
  return last && !/[.!?]/.test(before.slice(last.index + last[0].length)) ? (last as RegExpExecArray) : undefined;
}
