import * as chrono from 'chrono-node';

/** A half-open time range [since, until), ISO-8601 UTC. */
export interface TimeRange {
  since: string;
  until: string;
}

/**
 * A named time as validity is judged against it ("as of"): the range without slack; `open` when
 * the question runs it on to now ("since March 2025", "after 2024") or back from the start ("until
 * June", "by 2024").
 */
export interface AsOfWindow extends TimeRange {
  open: boolean;
}

/** When a question is about: the ranges it names, and the words that named them. */
export interface TimeScope {
  ranges: TimeRange[];
  /** The same times as validity windows: no slack, a year for "last year", opened by "since" or "until". */
  windows: AsOfWindow[];
  /** The question's text without its calendar dates (so "June", "2023" do not act as keywords). */
  rest: string;
  /** The time expressions as written ("on October 13, 2023", "last week"). */
  expressions: string[];
}

/** Options for `timeScope`; every one has a default. */
export interface TimeScopeOptions {
  /** Days added before each range (events told just before they happen); default 1. */
  slackBeforeDays?: number;
  /** Days added after each range (events told days after they happened); default 14. */
  slackAfterDays?: number;
  /** A month or day named without a year stands for that month or day in each of this many years, newest first; default 10. */
  yearsBack?: number;
  /** A time something was said at ("as mentioned on 3 June") gets no slack after it; default true (false: as any time). */
  saidAt?: boolean;
}

const DAY_MS = 86_400_000;
/** Words that make a casual time word ("weekend", "Friday", "morning") point at a time relative to now. */
const RELATIVE = /\b(?:yesterday|today|tonight|ago|last|this|past|previous)\b/i;
/**
 * A time the question says something was said at ("as mentioned on 3 June", "what did Tim say on
 * 6 November", "as of December 2023"): the conversation's own date, so no slack after it.
 */
const SAID_AT = /\b(?:mention|mentioned|say|said|tell|told|talk|talked|share|shared|discuss|discussed|state|stated|as\s+of)\s*,?\s*(?:on|in|at|during)?\s*$/i;
/** Words before a time that run it on to now ("since June", "after 2024"). */
const ONWARD = /\b(?:since|after|from)\s*$/i;
/** Words before a time that run it back from the start ("until June", "by 2024"). */
const UPTO = /\b(?:until|till|til|by|through|up\s+to)\s*$/i;
/** "in 2022", "during 2021": a bare year, which chrono leaves alone (it reads like any number). */
const BARE_YEAR = /\b(?:in|during|since|of|by|for)\s+((?:19|20)\d\d)\b/gi;

/**
 * The time a question is about, from its absolute ("on 13 October 2023", "in May 2023", "in
 * 2022", "in June") and relative ("yesterday", "last week", "3 days ago", relative to `now`) time
 * expressions, parsed by chrono. Each expression becomes a range of its precision (day, week,
 * month or year) widened by the slack; a month or day without a year becomes one range per year.
 * A time the question says something was said at ("as mentioned on 3 June") gets no slack after
 * it. Durations ("for two weeks"), future times and bare time words ("at night") are not scopes.
 * Returns null when the question names no time.
 */
export function timeScope(question: string, now: Date, options: TimeScopeOptions = {}): TimeScope | null {
  const before = (options.slackBeforeDays ?? 1) * DAY_MS;
  const after = (options.slackAfterDays ?? 14) * DAY_MS;
  const yearsBack = Math.max(1, options.yearsBack ?? 10);
  const ranges: TimeRange[] = [];
  const windows: AsOfWindow[] = [];
  const expressions: string[] = [];
  let rest = question;
  const add = (start: number, end: number, said = false): void => {
    ranges.push({ since: new Date(start - before).toISOString(), until: new Date(end + (said ? 0 : after)).toISOString() });
  };
  // The validity window of a time named after `lead` (the question's words before it).
  const addWindow = (start: number, end: number, lead: string): void => {
    const onward = ONWARD.test(lead);
    const upto = !onward && UPTO.test(lead);
    const t = now.getTime();
    // A time runs at most to now ("this year" as of March is January to March); "after June" begins when June ends.
    const since = upto ? 0 : /\bafter\s*$/i.test(lead) ? end : start;
    const until = onward ? Math.max(end, t) : start < t ? Math.min(end, t) : end;
    windows.push({ since: new Date(since).toISOString(), until: new Date(until).toISOString(), open: onward || upto });
  };

  for (const r of chrono.parse(question, now)) {
    const known = (unit: Parameters<typeof r.start.isCertain>[0]): boolean => r.start.isCertain(unit);
    const calendar = /[a-z]/i.test(r.text) && (r.text.match(/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i) !== null);
    // Durations ("for a few weeks") and the future ("next month") name no time a memory is from;
    // a bare "weekend" or "morning" is a topic unless "last", "this", "ago"... anchor it.
    if (/^for\b/i.test(r.text) || /\bnext\b/i.test(r.text) || (!calendar && !RELATIVE.test(r.text))) continue;
    const said = (options.saidAt ?? true) && SAID_AT.test(question.slice(0, r.index));
    const at = r.start.date();
    const y = at.getUTCFullYear();
    const m = at.getUTCMonth();
    const d = at.getUTCDate();
    // Precision: a named day, a week ("last week"), a month, or a year.
    const span = (year: number): [number, number] => {
      if (/\bweeks?\b/i.test(r.text)) return [Date.UTC(year, m, d), Date.UTC(year, m, d + 7)];
      if (known('day') || known('weekday') || !known('month')) return [Date.UTC(year, m, d), Date.UTC(year, m, d + 1)];
      return [Date.UTC(year, m, 1), Date.UTC(year, m + 1, 1)];
    };
    const lead = question.slice(0, r.index);
    const end = r.end?.date();
    if (end) {
      const [ey, em, ed] = [end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate()];
      const range: [number, number] = [Date.UTC(y, m, known('day') ? d : 1), r.end!.isCertain('day') ? Date.UTC(ey, em, ed + 1) : Date.UTC(ey, em + 1, 1)];
      add(...range, said);
      addWindow(...range, lead);
    } else if (known('month') && !known('year')) {
      for (let i = 0; i < yearsBack; i++) add(...span(now.getUTCFullYear() - i), said);
      // As of "June": the latest June that has begun.
      const latest = span(now.getUTCFullYear());
      addWindow(...(latest[0] <= now.getTime() ? latest : span(now.getUTCFullYear() - 1)), lead);
    } else {
      add(...span(y), said);
      // "last year", "this year" name a calendar year (chrono gives a day of it).
      addWindow(...(/\byear\b/i.test(r.text) && !/\bago\b/i.test(r.text) && !known('month') ? [Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1)] as [number, number] : span(y)), lead);
    }
    expressions.push(r.text);
    if (calendar) rest = rest.replace(r.text, ' ');
  }
  for (const match of question.matchAll(BARE_YEAR)) {
    if (!rest.includes(match[0])) continue;
    const year = Number(match[1]);
    add(Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1));
    addWindow(Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1), question.slice(0, match.index) + match[0].slice(0, -4));
    expressions.push(match[0]);
    rest = rest.replace(match[0], ' ');
  }
  return ranges.length > 0 ? { ranges, windows, rest: rest.replace(/\s+/g, ' ').trim(), expressions } : null;
}

/** True when the ISO time `time` lies in one of `ranges`. */
export function inScope(time: string, ranges: readonly TimeRange[]): boolean {
  return ranges.some((r) => time >= r.since && time < r.until);
}
