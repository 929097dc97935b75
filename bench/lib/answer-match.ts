/**
 * Answer-level judging for retrieval benchmarks: does a retrieved item's text state the gold answer?
 * A deliberately simple, documented script (no model): both texts are lower-cased, dates are
 * normalised (`2023-05-07`, `May 7th, 2023`, `7 May 2023` all become `7 may 2023`; month
 * abbreviations become month names; ordinals lose their suffix), number words up to twenty become
 * digits, punctuation and stop words are dropped and words are reduced by a light stemmer (plural
 * and -ing/-ed endings). The text states the answer when it holds at least `fraction` (default 0.5)
 * of the answer's distinct content words, and at least one. Answers with no content word never match.
 *
 * A gold answer that names a day ("7 May 2023", "The week before 9 June 2023") is judged on dates, not words: the text must
 * name that day (a plain date), or a day in the span a relative answer gives (`allowedDays`: "the week before D", "the
 * Sunday before D", "two weeks before D", "the weekend of D"…), with the same year where both name one. Words alone let any date of the same month and year match ("2 May 2023" for "7 May 2023"), as this judge did until
 * 2026-12-02; figures before that date were judged that way.
 */
import { DAY_MS } from '../../graph/core/time.js';

const STOP = new Set(('a an the and or but of to in on at by for from with as is are was were be been being it its this that ' +
  'these those he she they them his her their we our you your i me my not no yes do does did has have had will would can ' +
  'could should may might also just very so than then there here about into over after before up out s').split(' '));
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const ABBREV = new Map(MONTHS.map((m) => [m.slice(0, 3), m]));
ABBREV.set('sept', 'september');
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];

/** Light stemmer: plural and -ing / -ed endings of longer words. */
function stem(w: string): string {
  if (/^\d+$/.test(w)) return String(Number(w));
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('es') && /(?:ss|sh|ch|x)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** Lower-case words with dates, months, ordinals and small number words normalised. */
export function normalisedWords(text: string): string[] {
  const iso = text.toLowerCase().replace(/\b(\d{4})-(\d{2})-(\d{2})\b/g, (_, y: string, m: string, d: string) =>
    ` ${Number(d)} ${MONTHS[Number(m) - 1] ?? m} ${y} `)
    // A day glued to its month ("3june, 2022"), not an ordinal.
    .replace(/(\d)(?!(?:st|nd|rd|th)\b)(?=[a-z])/g, '$1 ');
  return (iso.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => {
    const ord = /^(\d+)(?:st|nd|rd|th)$/.exec(w);
    if (ord) return ord[1] as string;
    const n = NUMBERS.indexOf(w);
    if (n >= 0) return String(n);
    return ABBREV.get(w) ?? w;
  });
}

/** The distinct content words (stemmed) of a text. */
export function contentWords(text: string): Set<string> {
  return new Set(normalisedWords(text).filter((w) => !STOP.has(w)).map(stem));
}

/** A day named in a text: month 0–11, day of month, and the year when given. */
interface NamedDay { month: number; day: number; year: number | null; at: number }

/** The days a text names ("7 may 2023", "may 7", "2023-05-07" once normalised), in order. */
function namedDays(words: string[]): NamedDay[] {
  const out: NamedDay[] = [];
  const dayAt = (i: number): number | null => (/^\d{1,2}$/.test(words[i] ?? '') && Number(words[i]) >= 1 && Number(words[i]) <= 31 ? Number(words[i]) : null);
  const yearAt = (i: number): number | null => (/^\d{4}$/.test(words[i] ?? '') ? Number(words[i]) : null);
  for (let i = 0; i < words.length; i++) {
    const month = MONTHS.indexOf(words[i] as string);
    if (month < 0) continue;
    const before = dayAt(i - 1);
    const after = before === null ? dayAt(i + 1) : null;
    const day = before ?? after;
    if (day === null) continue;
    out.push({ month, day, year: yearAt(after === null ? i + 1 : i + 2), at: before === null ? i : i - 1 });
  }
  return out;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Monday of the week holding `t` (UTC ms). */
function monday(t: number): number {
  return t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;
}

const COUNTS = new Map([['a', 1], ['one', 1], ['two', 2], ['three', 3], ['four', 4], ['couple', 2]]);

/**
 * The days (UTC ms) a gold answer's date allows: the day itself, or the span its words around it name. "The week before D"
 * (said of "last week" on D) allows the calendar week before D's week and the seven days before D; "two weeks before D" the
 * same, a week further back; "the weekend before / after D" the eight days before / after; "the Sunday before D" that
 * Sunday; "the day before D" and "three days before D" that day; "a few days before D" the six days before; "the week of D"
 * D's calendar week; "the weekend of D" the day before D to two days after.
 */
function allowedDays(words: string[], d: NamedDay): { from: number; to: number } {
  const at = Date.UTC(d.year ?? 2000, d.month, d.day);
  const lead = words.slice(Math.max(0, d.at - 4), d.at);
  const b = lead.lastIndexOf('before');
  const a = lead.lastIndexOf('after');
  const rel = b > a ? -1 : a > b ? 1 : 0;
  const unit = lead.slice(0, Math.max(a, b, lead.lastIndexOf('of')));
  const has = (w: string): boolean => unit.includes(w) || unit.includes(`${w}s`);
  if (rel === 0) {
    if (lead[lead.length - 1] !== 'of') return { from: at, to: at };
    if (has('weekend')) return { from: at - DAY_MS, to: at + 2 * DAY_MS };
    if (has('week')) return { from: monday(at), to: monday(at) + 6 * DAY_MS };
    return { from: at, to: at };
  }
  const count = unit.map((w) => (/^\d+$/.test(w) ? Number(w) : COUNTS.get(w))).find((n) => n !== undefined) ?? 1;
  const weekday = WEEKDAYS.findIndex((w) => unit.includes(w));
  if (weekday >= 0 && d.year !== null) {
    // The nearest such weekday strictly before (or after) the day.
    let t = at + rel * DAY_MS;
    while (new Date(t).getUTCDay() !== weekday) t += rel * DAY_MS;
    return { from: t, to: t };
  }
  if (has('weekend')) return rel < 0 ? { from: at - 8 * DAY_MS, to: at - DAY_MS } : { from: at + DAY_MS, to: at + 8 * DAY_MS };
  if (has('week')) {
    const back = 7 * count * DAY_MS;
    return rel < 0
      ? { from: Math.min(monday(at) - back, at - back), to: at - back + 6 * DAY_MS }
      : { from: at + back - 6 * DAY_MS, to: Math.max(monday(at) + back + 6 * DAY_MS, at + back) };
  }
  if (has('day')) {
    if (unit.includes('few') || unit.includes('several')) return rel < 0 ? { from: at - 6 * DAY_MS, to: at - DAY_MS } : { from: at + DAY_MS, to: at + 6 * DAY_MS };
    return { from: at + rel * count * DAY_MS, to: at + rel * count * DAY_MS };
  }
  return rel < 0 ? { from: at - 8 * DAY_MS, to: at - DAY_MS } : { from: at + DAY_MS, to: at + 8 * DAY_MS };
}

/** True when a day named in the text falls on a day the gold date allows (same year where both name one). */
function statesDay(text: string, goldWords: string[], gold: NamedDay[]): boolean {
  const have = namedDays(normalisedWords(text));
  return gold.some((g) => {
    const { from, to } = allowedDays(goldWords, g);
    return have.some((h) => {
      if (g.year !== null && h.year !== null) {
        const t = Date.UTC(h.year, h.month, h.day);
        return t >= from && t <= to;
      }
      // A year missing on either side: compare within the gold's year.
      const t = Date.UTC(g.year ?? 2000, h.month, h.day);
      return t >= from && t <= to;
    });
  });
}

/**
 * True when `text` states the gold answer: the day a dated answer names (see the module comment), else at least `fraction`
 * of the gold answer's content words (and at least one).
 */
export function statesAnswer(text: string, gold: string | number, fraction = 0.5): boolean {
  const goldWords = normalisedWords(String(gold));
  const days = namedDays(goldWords);
  // The answer's own words in full ("the week before 9 June 2023") state it too.
  if (days.length > 0) return statesDay(text, goldWords, days) || statesWords(text, gold, 1);
  return statesWords(text, gold, fraction);
}

/** True when `text` holds at least `fraction` of the gold answer's content words (and at least one). */
function statesWords(text: string, gold: string | number, fraction: number): boolean {
  const want = contentWords(String(gold));
  if (want.size === 0) return false;
  const have = contentWords(text);
  const shared = [...want].filter((w) => have.has(w)).length;
  return shared >= 1 && shared / want.size >= fraction;
}
