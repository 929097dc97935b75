import * as chrono from 'chrono-node';
import { DAY_MS } from '../../graph/core/time.js';
import { MONTHS_SAID, MONTH_SHORT } from '../memory/months.js';

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
  /** The named times widened by the slack: the turns searched. */
  ranges: TimeRange[];
  /**
   * The named times themselves, without slack (one per range, same order; "before June 2024" is everything
   * before it): what is inside ranks above what only the slack reaches.
   */
  periods: TimeRange[];
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
  /**
   * With `saidAt`: a speech act's time ("what did the caller ask for last week", "who called on Monday", "what did Ana
   * promise Ben yesterday") is the time it was said too: asking, requesting, promising, agreeing, ordering, complaining,
   * calling happen in the conversation (`SPEECH_ACT`). Not when an embedded clause may own the time ("what did Ana promise
   * to do last week", "…ask about the parcel delivered last week"). Default true; false: only the verbs of saying (as before).
   */
  speechActs?: boolean;
  /**
   * A week ("last week", "this week", "two weeks ago") is the calendar week, Monday to Sunday, that holds the day named
   * ("last week" asked on a Wednesday: Monday to Sunday before this Monday); default true. False: the seven days from the
   * day chrono names (as before: "last week" ran to yesterday, "this week" from Sunday on).
   */
  calendarWeeks?: boolean;
  /**
   * "the Monday before July 24, 2023", "the weekend before 4th October", "the day after 3 June", "the week before 4 October
   * 2023" name one day, weekend or week next to the date (`RELATIVE_DAY`), not everything before or after it; default true.
   * False: as before (the weekday or weekend dropped, "before July 24, 2023" read as everything before it). A plain "before
   * <date>" is everything before it either way.
   */
  relativeDays?: boolean;
  /**
   * Take relative times ("last week", "two weeks ago", "yesterday") out of `rest` as calendar dates are: they say when,
   * not what, and as query words they match any turn that says "week" or "last" ("maybe next week", "last meeting before
   * the launch"). Default false (they stay query words): on LoCoMo dev it cost one dated question of 101 and failed its
   * adoption rule (docs/BENCHMARKS.md, meet3).
   */
  relativeOut?: boolean;
}

/** A month's name or its first letters ("Jan", "march", "Sept"): the one month list's short forms and "may" (months.ts). */
const MONTH_WORD = new RegExp(String.raw`\b(?:${MONTH_SHORT}|may)[a-z]*\b`, 'i');
/** Words that make a casual time word ("weekend", "Friday", "morning") point at a time relative to now. */
const RELATIVE = /\b(?:yesterday|today|tonight|ago|last|this|past|previous)\b/i;
/**
 * A time the question says something was said at ("as mentioned on 3 June", "what did Tim say on
 * 6 November", "as of December 2023"): the conversation's own date, so no slack after it.
 */
const SAID_AT = /\b(?:mention|mentioned|say|said|tell|told|talk|talked|share|shared|discuss|discussed|state|stated|as\s+of)\s*,?\s*(?:on|in|at|during)?\s*$/i;
/**
 * A speech act just before a time ("what did the caller ask for last week", "what did Ana promise Ben on Monday", "who
 * called yesterday"): at most four words between the verb and the time, none of which may open an embedded event
 * (`EMBEDDED`: "promise to do", "promised she would", "asked about the parcel delivered").
 */
const SPEECH_ACT = /\b(?:ask|asked|asking|request|requested|promise|promised|agree|agreed|offer|offered|order|ordered|complain|complained|call|called|ring|rang|phone|phoned|suggest|suggested|propose|proposed|recommend|recommended|report|reported|confirm|confirmed|remind|reminded|warn|warned|explain|explained|reply|replied|answer|answered)\b((?:\s+[\w'’-]+){0,4}?)\s*,?\s*(?:on|in|at|during)?\s*$/i;
/** Words between a speech act and a time that make the time an embedded event's ("promise to do", "asked if it arrived"). */
const EMBEDDED = /\b(?:that|if|whether|would|will|could|should|can|might|must|do|did|does|done|be|been|was|were|is|are|have|has|had|i|he|she|we|they|when|while|which|who)\b|\w{3,}ed\b/i;
/** "to" opening an infinitive ("promise to do"), not a preposition ("offer to the caller", "complain to Ben"). */
const INFINITIVE = /\bto\s+(?!(?:the|a|an|my|our|your|his|her|their|its|him|them|me|us|you|this|that)\b)[a-z]/;
/** "for" just before a time ago ("ask for three weeks ago"): the object's preposition, not a duration's. */
const FOR_AGO = /\bfor(\s+(?:[\w-]+\s+)?(?:days?|weeks?|months?|years?)\s+ago)\b/gi;
/** Words before a time that run it on to now ("since June", "after 2024"). */
const ONWARD = /\b(?:since|after|from)\s*$/i;
/** Words before a time that run it back from the start ("until June", "by 2024"). */
const UPTO = /\b(?:until|till|til|by|through|up\s+to)\s*$/i;
/** Words before a time that ask about what came before it ("before June 2024"): it ends when that time begins. */
const BEFORE = /\bbefore\s*$/i;
/**
 * "the Monday before", "the weekend after", "the day before", "a week after": a day, weekend or week next to the date that
 * follows (`TimeScopeOptions.relativeDays`).
 */
const RELATIVE_DAY = /\b(?:(?:the|a)\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|day|week)\s+(before|after)\s+/gi;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
/** "in 2022", "during 2021", "before 2025": a bare year, which chrono leaves alone (it reads like any number). */
const BARE_YEAR = /\b(?:in|during|since|of|by|for|before|after|until|till|from)\s+((?:19|20)\d\d)\b/gi;
/** "between 2023 and 2024", "between March and June 2024": a span from the start of one time to the end of another. */
const BETWEEN = /\bbetween\s+([^?!.,]+?)\s+and\s+([^?!.,]+?)(?=\s*(?:[?!.,]|$))/gi;
/** "from last March to last May", "from last March to June": one span, as "between … and …" is (rules 114, M3). */
const FROM_LAST_TO = /\bfrom\s+((?:last|past)\s+[a-z]+)\s+(?:to|until|till|through|thru)\s+([^?!.,]+?)(?=\s*(?:[?!.,]|$))/gi;
/**
 * "the week before last": the calendar week before last week (rules 114, M7); chrono reads none. Not "the week before last
 * Christmas / month's trip / year's" (after review, M1).
 */
const WEEK_BEFORE_LAST = new RegExp(String.raw`\bthe\s+week\s+before\s+last\b(?!['’]s|\s+(?:year|month|week|weekend|christmas|easter|${WEEKDAYS.join('|')}|${MONTHS_SAID.join('|')})\b)`, 'gi');
/**
 * A season with a year or anchored to now ("the summer of 2025", "winter 2023", "last summer", "this
 * spring"), chrono knowing none: meteorological seasons of the northern hemisphere (winter is December
 * to February, named by the year it begins in).
 */
const SEASON = /\b(?:(last|this|past)\s+)?(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?((?:19|20)\d\d))?\b/gi;
const SEASON_START: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };
const YEAR_ONLY = /^(?:19|20)\d\d$/;
/**
 * "last May", "last March" (rules 111): the latest such month before this one, one year only (chrono reads no "last May",
 * and "last March" as March of each recent year). "May" and "March" only with their capital ("the last may be"); not a
 * day of the month ("last May 3rd").
 */
/**
 * "what did ana do last may": ASR's lower case "may" or "march" after "last" is the month where it ends the question or a
 * clause, and no "the" comes before "last" ("the last may be", "the last march"; rules 111 after review, M3).
 */
function lowerMonth(question: string, index: number, length: number): boolean {
  return !/\bthe\s+$/i.test(question.slice(0, index)) && /^\s*(?:[?!.,;]|$)/.test(question.slice(index + length));
}
/** "last May" as the whole of one side of "between … and …" (rules 112): a month in any case there. */
const LAST_MONTH_ALONE = new RegExp(String.raw`^(?:last|past)\s+(${MONTHS_SAID.map((m) => `(${m})`).join('|')})$`, 'i');
/** A month's name alone as the second side of "between last March and June" (rules 114 after review, H1). */
const MONTH_ALONE = new RegExp(String.raw`^(?:${MONTHS_SAID.join('|')})$`, 'i');

/** [start, end) of the latest month `month` (0-based) before the one holding `now`: "last May". */
function latestMonth(month: number, now: Date): [number, number] {
  const year = month < now.getUTCMonth() ? now.getUTCFullYear() : now.getUTCFullYear() - 1;
  return [Date.UTC(year, month, 1), Date.UTC(year, month + 1, 1)];
}
const LAST_MONTH = new RegExp(String.raw`\b(?:last|past)\s+(${MONTHS_SAID.map((m) => `(${m})`).join('|')})\b(?!\s*[-/]?\s*\d)`, 'gi');

/**
 * The time a question is about, from its absolute ("on 13 October 2023", "in May 2023", "in
 * 2022", "in June") and relative ("yesterday", "last week", "3 days ago", relative to `now`) time
 * expressions, parsed by chrono. Each expression becomes a range of its precision (day, week,
 * month or year) widened by the slack; a month or day without a year becomes one range per year.
 * A time the question says something was said at ("as mentioned on 3 June") gets no slack after
 * it. "before June 2024" is everything before it; "between 2023 and 2024" (or "between March and June
 * 2024") runs from the start of one to the end of the other; a season with a year or "last" / "this"
 * ("the summer of 2025", "last winter") is its three months. Durations ("for two weeks"), future times
 * and bare time words ("at night", "summer camp") are not scopes.
 * Returns null when the question names no time.
 */
export function timeScope(question: string, now: Date, options: TimeScopeOptions = {}): TimeScope | null {
  const before = (options.slackBeforeDays ?? 1) * DAY_MS;
  const after = (options.slackAfterDays ?? 14) * DAY_MS;
  const yearsBack = Math.max(1, options.yearsBack ?? 10);
  const saidAt = options.saidAt ?? true;
  const speechActs = saidAt && (options.speechActs ?? true);
  const calendarWeeks = options.calendarWeeks ?? true;
  const ranges: TimeRange[] = [];
  const periods: TimeRange[] = [];
  const windows: AsOfWindow[] = [];
  const expressions: string[] = [];
  let rest = question;
  const add = (start: number, end: number, said = false): void => {
    ranges.push({ since: new Date(start - before).toISOString(), until: new Date(end + (said ? 0 : after)).toISOString() });
    periods.push({ since: new Date(start).toISOString(), until: new Date(end).toISOString() });
  };
  // The validity window of a time named after `lead` (the question's words before it).
  const addWindow = (start: number, end: number, lead: string): void => {
    const onward = ONWARD.test(lead);
    const before = !onward && BEFORE.test(lead);
    const upto = !onward && !before && UPTO.test(lead);
    const t = now.getTime();
    // A time runs at most to now ("this year" as of March is January to March); "after June" begins when June ends.
    const since = upto || before ? 0 : /\bafter\s*$/i.test(lead) ? end : start;
    const until = before ? start : onward ? Math.max(end, t) : start < t ? Math.min(end, t) : end;
    windows.push({ since: new Date(since).toISOString(), until: new Date(until).toISOString(), open: onward || upto || before });
  };
  // The search range of a time named after `lead`: "before June 2024" searches the turns before it.
  const addRange = (start: number, end: number, lead: string, said = false): void => {
    if (BEFORE.test(lead)) {
      const everything = { since: new Date(0).toISOString(), until: new Date(start).toISOString() };
      ranges.push(everything);
      periods.push(everything);
    } else add(start, end, said);
  };
  // Spans taken by "between … and …" and seasons, which chrono would read otherwise (or not at all).
  const taken: Array<[number, number]> = [];
  const free = (from: number, to: number): boolean => taken.every(([a, b]) => to <= a || from >= b);
  // [start, end) of a time on its own ("2024", "June 2024", "3 March 2024"), resolved near `ref`.
  const period = (text: string, ref: Date): [number, number] | null => {
    const t = text.trim();
    if (YEAR_ONLY.test(t)) return [Date.UTC(Number(t), 0, 1), Date.UTC(Number(t) + 1, 0, 1)];
    // "between last March and last May": each the latest such month before now (rules 112), whatever the other.
    const last = LAST_MONTH_ALONE.exec(t);
    if (last) return latestMonth(last.slice(2).findIndex((g) => g !== undefined), now);
    const [r] = chrono.parse(t, ref);
    if (!r || r.index !== 0 || r.text.length < t.length - 1) return null;
    const at = r.start.date();
    const [y, m, d] = [at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()];
    if (r.start.isCertain('day')) return [Date.UTC(y, m, d), Date.UTC(y, m, d + 1)];
    if (r.start.isCertain('month')) return [Date.UTC(y, m, 1), Date.UTC(y, m + 1, 1)];
    return null;
  };
  for (const match of [...question.matchAll(BETWEEN), ...question.matchAll(FROM_LAST_TO)]) {
    if (!free(match.index, match.index + match[0].length)) continue;
    // "between last March and June": a first side of its own ("last March") is read from now, and the second from it
    // (rules 114, M3: "June" was read from now, next year's).
    const lastFirst = LAST_MONTH_ALONE.test((match[1] as string).trim());
    const start = lastFirst ? period(match[1] as string, now) : null;
    // The second time first: it carries the year the first may leave out ("between March and June 2024"). After "last
    // March" only a month's bare name is read from it ("between last March and now / today / this week" runs to now;
    // rules 114 after review, H1), the next such month after it, or today where that is still to come ("between last June
    // and March" asked in December: June 2026 to now, not March 2026 before it; after review, M2).
    const bare = start && MONTH_ALONE.test((match[2] as string).trim());
    let last = period(match[2] as string, bare ? new Date(start[0]) : now);
    if (bare && last && start && last[0] < start[0]) {
      const at = new Date(last[0]);
      last = [Date.UTC(at.getUTCFullYear() + 1, at.getUTCMonth(), 1), Date.UTC(at.getUTCFullYear() + 1, at.getUTCMonth() + 1, 1)];
      // Still to come ("between last June and March", asked in December): the span runs to the end of today.
      if (last[0] > now.getTime()) last = [last[0], Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)];
    }
    // "between last month and last May": a second side of its own ("last May") lends the first no year; read from now
    // (rules 112 after review, H2).
    const first = start ?? (last ? period(match[1] as string, LAST_MONTH_ALONE.test((match[2] as string).trim()) ? now : new Date(last[0])) : null);
    if (!first || !last || first[0] >= last[1]) continue;
    add(first[0], last[1]);
    // A span like a year: what held through most of it ("between 2025 and 2026", asked in March 2026: 2025 to now).
    windows.push({ since: new Date(first[0]).toISOString(), until: new Date(Math.min(last[1], Math.max(first[0], now.getTime()))).toISOString(), open: false });
    expressions.push(match[0]);
    taken.push([match.index, match.index + match[0].length]);
    rest = rest.replace(match[0], ' ');
  }
  for (const match of question.matchAll(WEEK_BEFORE_LAST)) {
    const monday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - ((now.getUTCDay() + 6) % 7) - 14);
    const lead = question.slice(0, match.index);
    addRange(monday, monday + 7 * DAY_MS, lead, saidAt && (SAID_AT.test(lead) || (speechActs && speechActBefore(lead))));
    addWindow(monday, monday + 7 * DAY_MS, lead);
    expressions.push(match[0]);
    taken.push([match.index, match.index + match[0].length]);
    rest = rest.replace(match[0], ' ');
  }
  if (options.relativeDays ?? true) {
    for (const match of question.matchAll(RELATIVE_DAY)) {
      const from = match.index + match[0].length;
      const [r] = chrono.parse(question.slice(from), now);
      // The date must follow at once ("the Monday before July 24"; "the day before the 3rd of June") and name a day.
      if (!r || !/^(?:the\s+)?$/i.test(question.slice(from, from + r.index)) || !r.start.isCertain('day')) continue;
      const to = from + r.index + r.text.length;
      if (!free(match.index, to)) continue;
      const unit = (match[1] as string).toLowerCase();
      const later = (match[2] as string).toLowerCase() === 'after';
      const at = r.start.date();
      const span = (year: number): [number, number] => relativeDay(Date.UTC(year, at.getUTCMonth(), at.getUTCDate()), unit, later, calendarWeeks);
      const lead = question.slice(0, match.index);
      const said = saidAt && (SAID_AT.test(lead) || (speechActs && speechActBefore(lead)));
      if (r.start.isCertain('year')) {
        add(...span(at.getUTCFullYear()), said);
        addWindow(...span(at.getUTCFullYear()), lead);
      } else {
        for (let i = 0; i < yearsBack; i++) add(...span(now.getUTCFullYear() - i), said);
        const latest = span(now.getUTCFullYear());
        addWindow(...(latest[0] <= now.getTime() ? latest : span(now.getUTCFullYear() - 1)), lead);
      }
      const text = question.slice(match.index, to);
      expressions.push(text);
      taken.push([match.index, to]);
      rest = rest.replace(text, ' ');
    }
  }
  for (const match of question.matchAll(SEASON)) {
    const [, anchor, season, named] = match as unknown as [string, string | undefined, string, string | undefined];
    if (!anchor && !named) continue; // "summer camp": a topic, not a time
    if (!free(match.index, match.index + match[0].length)) continue;
    const startMonth = SEASON_START[season.toLowerCase()] as number;
    const span = (year: number): [number, number] => [Date.UTC(year, startMonth, 1), Date.UTC(year, startMonth + 3, 1)];
    let year = named ? Number(named) : now.getUTCFullYear();
    if (!named) {
      // "this summer": the one of this year (winter: the one begun last December, until March is out);
      // "last summer": the latest one already over.
      if (startMonth === 11 && now.getUTCMonth() < 3) year -= 1;
      if (anchor?.toLowerCase() !== 'this') while (span(year)[1] > now.getTime()) year -= 1;
    }
    const lead = question.slice(0, match.index);
    addRange(...span(year), lead);
    addWindow(...span(year), lead);
    expressions.push(match[0]);
    taken.push([match.index, match.index + match[0].length]);
    rest = rest.replace(match[0], ' ');
  }

  for (const match of question.matchAll(LAST_MONTH)) {
    const month = match.slice(2).findIndex((g) => g !== undefined);
    if (month < 0 || (/^(?:may|march)$/.test(match[1]!) && !lowerMonth(question, match.index, match[0].length)) || !free(match.index, match.index + match[0].length)) continue;
    const [start, end] = latestMonth(month, now);
    const lead = question.slice(0, match.index);
    const said = saidAt && (SAID_AT.test(lead) || (speechActs && speechActBefore(lead)));
    // "since last May", "after last May": the turns searched run on to now (rules 112), as the window does.
    if (ONWARD.test(lead)) addRange(/\bafter\s*$/i.test(lead) ? end : start, Math.max(end, now.getTime()), lead, said);
    else addRange(start, end, lead, said);
    addWindow(start, end, lead);
    expressions.push(match[0]);
    taken.push([match.index, match.index + match[0].length]);
    rest = rest.replace(match[0], ' ');
  }

  // "ask for three weeks ago": chrono would read "for three weeks" as a duration; blanked out, "for" keeps its place.
  for (const r of chrono.parse(question.replace(FOR_AGO, '   $1'), now)) {
    if (!free(r.index, r.index + r.text.length)) continue;
    const known = (unit: Parameters<typeof r.start.isCertain>[0]): boolean => r.start.isCertain(unit);
    const calendar = /[a-z]/i.test(r.text) && (r.text.match(MONTH_WORD) !== null);
    // Durations ("for a few weeks") and the future ("next month") name no time a memory is from;
    // a bare "weekend" or "morning" is a topic unless "last", "this", "ago"... anchor it.
    if (/^for\b/i.test(r.text) || /\bnext\b/i.test(r.text) || (!calendar && !RELATIVE.test(r.text))) continue;
    const said = saidAt && (SAID_AT.test(question.slice(0, r.index)) || (speechActs && speechActBefore(question.slice(0, r.index))));
    const at = r.start.date();
    const y = at.getUTCFullYear();
    const m = at.getUTCMonth();
    const d = at.getUTCDate();
    // Precision: a named day, a week ("last week"), a month, or a year.
    const span = (year: number): [number, number] => {
      if (/\bweeks?\b/i.test(r.text)) {
        if (!calendarWeeks) return [Date.UTC(year, m, d), Date.UTC(year, m, d + 7)];
        // chrono names a Sunday for "this week": the week of now, Monday first.
        const day = /\bthis\s+week\b/i.test(r.text) ? now : new Date(Date.UTC(year, m, d));
        const monday = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
        return [monday, monday + 7 * DAY_MS];
      }
      if (known('day') || known('weekday') || !known('month')) return [Date.UTC(year, m, d), Date.UTC(year, m, d + 1)];
      return [Date.UTC(year, m, 1), Date.UTC(year, m + 1, 1)];
    };
    const lead = question.slice(0, r.index);
    const end = r.end?.date();
    if (end) {
      const [ey, em, ed] = [end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate()];
      const range: [number, number] = [Date.UTC(y, m, known('day') ? d : 1), r.end!.isCertain('day') ? Date.UTC(ey, em, ed + 1) : Date.UTC(ey, em + 1, 1)];
      addRange(...range, lead, said);
      addWindow(...range, lead);
    } else if (known('month') && !known('year')) {
      for (let i = 0; i < yearsBack; i++) addRange(...span(now.getUTCFullYear() - i), lead, said);
      // As of "June": the latest June that has begun.
      const latest = span(now.getUTCFullYear());
      addWindow(...(latest[0] <= now.getTime() ? latest : span(now.getUTCFullYear() - 1)), lead);
    } else {
      addRange(...span(y), lead, said);
      // "last year", "this year" name a calendar year (chrono gives a day of it).
      addWindow(...(/\byear\b/i.test(r.text) && !/\bago\b/i.test(r.text) && !known('month') ? [Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1)] as [number, number] : span(y)), lead);
    }
    // "before June 2024": the word belongs to the time (it is no past cue of its own).
    expressions.push(BEFORE.test(lead) ? `${lead.match(/before\s*$/i)![0]}${r.text}` : r.text);
    if (calendar || (options.relativeOut ?? false)) rest = rest.replace(r.text, ' ');
  }
  for (const match of question.matchAll(BARE_YEAR)) {
    if (!rest.includes(match[0])) continue;
    const year = Number(match[1]);
    const lead = question.slice(0, match.index) + match[0].slice(0, -4);
    addRange(Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1), lead);
    addWindow(Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1), lead);
    expressions.push(match[0]);
    rest = rest.replace(match[0], ' ');
  }
  return ranges.length > 0 ? { ranges, periods, windows, rest: rest.replace(/\s+/g, ' ').trim(), expressions } : null;
}

/**
 * [start, end) of the day, weekend or week `unit` ("monday"…"sunday", "weekend", "day", "week") just before (or, `later`,
 * just after) the day beginning at `date`: "the Monday before" a Monday is the one a week earlier, "the weekend before" the
 * last Saturday and Sunday over by that day, "the week before" the calendar week before its week (`calendarWeeks`; else
 * the seven days before it).
 */
function relativeDay(date: number, unit: string, later: boolean, calendarWeeks: boolean): [number, number] {
  const dayOf = (t: number): number => new Date(t).getUTCDay();
  const days = (n: number): number => date + n * DAY_MS;
  if (unit === 'day') return later ? [days(1), days(2)] : [days(-1), days(0)];
  if (unit === 'week') {
    if (!calendarWeeks) return later ? [days(1), days(8)] : [days(-7), days(0)];
    const day = days(later ? 7 : -7);
    const monday = day - ((dayOf(day) + 6) % 7) * DAY_MS;
    return [monday, monday + 7 * DAY_MS];
  }
  if (unit === 'weekend') {
    // After: the first Saturday after the day. Before: the last Saturday whose Sunday is over by the day.
    const saturday = later ? days(((6 - dayOf(date) + 6) % 7) + 1) : days(-1) - (dayOf(days(-1)) + 1) * DAY_MS;
    return [saturday, saturday + 2 * DAY_MS];
  }
  const weekday = WEEKDAYS.indexOf(unit);
  const start = later ? days(((weekday - dayOf(date) + 6) % 7) + 1) : days(-(((dayOf(date) - weekday + 6) % 7) + 1));
  return [start, start + DAY_MS];
}

/** True when the words before a time end in a speech act whose time it is (`SPEECH_ACT`, no `EMBEDDED` word between). */
function speechActBefore(lead: string): boolean {
  const m = SPEECH_ACT.exec(lead);
  return m !== null && !EMBEDDED.test(m[1] ?? '') && !INFINITIVE.test(m[1] ?? '');
}

/** True when the ISO time `time` lies in one of `ranges`. */
export function inScope(time: string, ranges: readonly TimeRange[]): boolean {
  return ranges.some((r) => time >= r.since && time < r.until);
}
