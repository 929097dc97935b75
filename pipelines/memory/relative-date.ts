/**
 * Spoken dates ("next Friday", "tomorrow", "for a month") resolved against the utterance time with
 * chrono-node. Dates become fields of a fact (`eventTime`, `validTo`), never text glued onto it.
 */
import * as chrono from 'chrono-node';
import { wink } from '../wink.js';

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
  // "last year", "four years ago": the year alone, not a day chrono made up.
  if (c.isCertain('year')) return d.slice(0, 4);
  return d.slice(0, 10);
}

/** Present forms of "be", whose lemma differs from the word though they tell of now. */
const PRESENT_BE = new Set(['am', 'are', 'is', "'m", "'re", "'s", 'be']);
/** Words that look ahead: a sentence with one is not read as told of the past. */
const AHEAD = /\b(?:will|won['’]t|['’]ll|going to|gonna|shall|next|tomorrow|soon|plan(?:ning)? to|want to|hope to|about to)\b/i;

/**
 * True when `text` tells of the past: a verb in a past form ("went", "got", "have been": a verb or auxiliary whose
 * form is not its lemma, not a present "-s" or "-ing" form, nor "am / is / are") and no word that looks ahead.
 * Then a date it names lies behind ("we went camping in May", said in July: this May).
 */
export function toldAsPast(text: string): boolean {
  if (AHEAD.test(text)) return false;
  const nlp = wink();
  const doc = nlp.readDoc(text);
  const words = doc.tokens().out() as string[];
  const pos = doc.tokens().out(nlp.its.pos) as string[];
  const lemmas = doc.tokens().out(nlp.its.lemma as unknown as typeof nlp.its.value) as string[];
  return words.some((w, i) => {
    const word = w.toLowerCase();
    return (pos[i] === 'VERB' || pos[i] === 'AUX') && word !== lemmas[i] && !PRESENT_BE.has(word) && !/(?:s|ing)$/.test(word);
  });
}

/**
 * Every date phrase of `text`, resolved against `refIso` (UTC). Future is preferred unless the phrase
 * looks back ("last Monday") or the text is told of the past (`toldAsPast`: "we went camping in May");
 * a bare or `next` weekday is its next occurrence after today.
 */
export function findDates(text: string, refIso: string): FoundDate[] {
  const instant = new Date(refIso);
  const dayStart = refIso.slice(0, 10);
  const out: FoundDate[] = [];
  const back = PAST.test(text) || toldAsPast(text);
  for (const r of chrono.en.parse(text, { instant, timezone: 0 }, { forwardDate: !back })) {
    const phrase = r.text.trim();
    let date = precise(r.start);
    if (BARE_WEEKDAY.test(phrase)) {
      // "next Friday" / "on Tuesday": the next such day after today (chrono skips a week for "next"); told of the
      // past ("I called her on Friday"), the last such day before today.
      const target = r.start.get('weekday') ?? 0;
      const now = instant.getUTCDay();
      const ahead = !back || /^(?:next|coming)\s/i.test(phrase);
      const days = ahead ? ((target - now + 7) % 7) || 7 : -(((now - target + 7) % 7) || 7);
      date = new Date(Date.parse(`${dayStart}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
    }
    const week = WEEK.test(phrase) && !DURATION.test(phrase);
    if (week) {
      const d = new Date(`${date.slice(0, 10)}T00:00:00.000Z`);
      date = new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    }
    // "for the next few days": chrono's phrase leaves out the "for (the)" before it.
    const duration = DURATION.test(phrase) || /\bfor\s+(?:the\s+)?$/i.test(text.slice(0, r.index));
    out.push({ phrase, date, duration, week: week && !duration });
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
const HAS_PREPOSITION = /\b(?:on|in|during|by|until|till|before|after|from|since|of)\s+$/i;

/** `2026-12-04` -> `Friday 4 December 2026`; `2027-01` -> `January 2027`; else unchanged (`2022` stays). */
export function spokenDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  if (y === undefined || m === undefined) return date;
  if (d === undefined) return `${MONTHS[m - 1] ?? ''} ${y}`.trim();
  return `${WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]} ${d} ${MONTHS[m - 1]} ${y}`;
}

/**
 * `text` with each relative date phrase ("next Friday", "tomorrow") replaced by the calendar date
 * it meant ("on Friday 4 December 2026"), so the fact still reads right next month. Durations
 * ("for a month") stay as spoken: their end is a field (`validUntil`, see {@link stateEnd}), not text.
 */
export function absoluteDates(text: string, dates: FoundDate[]): string {
  let out = text;
  for (const d of dates) {
    if (d.duration) continue;
    const at = out.indexOf(d.phrase);
    if (at < 0) continue;
    // "until the end of the month": the article goes with the phrase it leads.
    const before = out.slice(0, at).replace(/\bthe\s+$/i, '');
    const bare = d.phrase.replace(/^(?:on|by|until|till|before|after|from|since)\s+/i, '');
    const lead = d.phrase.slice(0, d.phrase.length - bare.length);
    const prep = lead || (HAS_PREPOSITION.test(before) ? '' : d.date.length <= 7 || d.week ? 'in ' : 'on ');
    const spoken = d.week ? `the week of ${spokenDate(d.date)}` : spokenDate(d.date);
    out = `${before}${prep}${spoken}${out.slice(at + d.phrase.length)}`;
  }
  return out;
}

const FOR_BEFORE = /\b(?:for|over)\s+(?:the\s+)?$/i;
const UNTIL_BEFORE = /\b(?:until|till|til|through|thru)\s+(?:the\s+)?$/i;
const THIS_SPAN = /^(?:for\s+)?(?:the\s+)?(?:rest\s+of\s+)?this\s+(week|month)$/i;
/** A plan or report ("I'll send it this week", "I moved…") rather than a state that holds now. */
const NOT_A_STATE = /\b(?:will|'ll|going to|gonna|shall|did|was|were|had)\b/i;
const DAY_MS = 86_400_000;

/**
 * When a temporary state ends by its own words, as an ISO-8601 instant (exclusive: the state holds
 * before it), resolved against the utterance time `refIso` with chrono-node; null when the text gives
 * no end. Forms:
 * - a duration, "for a month" / "for two weeks" / "for 3 days": `refIso` plus the duration;
 *   "for the next few days" is chrono's reading of "few", 3 days (an approximation);
 * - "until Friday" / "till the end of the month": the start of the day after that day (UTC);
 * - "this week" / "this month" in a present-tense statement ("I'm working from home this week", not
 *   "I'll send it this week"): the start of the next week (Monday) or month (UTC).
 */
export function stateEnd(text: string, refIso: string): string | null {
  const instant = new Date(refIso);
  if (Number.isNaN(instant.getTime())) return null;
  for (const r of chrono.en.parse(text, { instant, timezone: 0 }, { forwardDate: true })) {
    const phrase = r.text.trim();
    const before = text.slice(0, r.index);
    const span = THIS_SPAN.exec(phrase);
    if (span) {
      if (NOT_A_STATE.test(text)) continue;
      const day = Date.parse(`${refIso.slice(0, 10)}T00:00:00.000Z`);
      if (span[1]!.toLowerCase() === 'week') return new Date(day + (7 - ((instant.getUTCDay() + 6) % 7)) * DAY_MS).toISOString();
      return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + 1, 1)).toISOString();
    }
    const end = r.start.date();
    if (end.getTime() <= instant.getTime()) continue;
    if (DURATION.test(phrase) || FOR_BEFORE.test(before)) return end.toISOString();
    if (UNTIL_BEFORE.test(before) || /^(?:until|till|til|through|thru)\s/i.test(phrase)) {
      const d = Date.parse(`${end.toISOString().slice(0, 10)}T00:00:00.000Z`);
      return new Date(d + DAY_MS).toISOString();
    }
  }
  return null;
}
