/** Resolution of spoken relative dates ("next Friday", "tomorrow") against the utterance time. */

const DAY_MS = 86_400_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september',
  'october', 'november', 'december'];

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC of the utterance's day, in epoch milliseconds. */
function dayStart(refIso: string): number {
  const t = Date.parse(refIso);
  return Math.floor(t / DAY_MS) * DAY_MS;
}

const WD = WEEKDAYS.join('|');
const MO = MONTHS.join('|');
/** Longest alternatives first so "next week" wins over "week". */
const DATE_RE = new RegExp(
  `\\b(?:(?:on|this|next|last|coming)\\s+)?(?:${WD})\\b|\\b(?:today|tonight|tomorrow|yesterday)\\b|` +
  `\\b(?:next|last|this)\\s+(?:week|month|year|weekend)\\b|\\bin\\s+(\\d+|a|an|one|two|three|four|five|six|seven)\\s+(days?|weeks?|months?)\\b|` +
  `\\b(?:on\\s+)?(?:(?:${MO})\\s+\\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:${MO}))\\b`,
  'gi',
);

const WORD_NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };

/** The ISO date (or `YYYY-MM` / `YYYY`) a date phrase refers to, or null if not understood. */
export function resolveDatePhrase(phrase: string, refIso: string): string | null {
  const p = phrase.toLowerCase().replace(/^on\s+/, '').trim();
  const today = dayStart(refIso);
  const ref = new Date(today);
  if (p === 'today' || p === 'tonight') return iso(today);
  if (p === 'tomorrow') return iso(today + DAY_MS);
  if (p === 'yesterday') return iso(today - DAY_MS);
  const wd = p.match(new RegExp(`^(?:(this|next|last|coming)\\s+)?(${WD})$`));
  if (wd) {
    const target = WEEKDAYS.indexOf(wd[2] ?? '');
    const now = ref.getUTCDay();
    if (wd[1] === 'last') return iso(today - (((now - target + 7) % 7) || 7) * DAY_MS);
    return iso(today + (((target - now + 7) % 7) || 7) * DAY_MS);
  }
  const rel = p.match(/^(next|last|this)\s+(week|month|year|weekend)$/);
  if (rel) {
    const sign = rel[1] === 'next' ? 1 : rel[1] === 'last' ? -1 : 0;
    if (rel[2] === 'week' || rel[2] === 'weekend') {
      const monday = today - ((ref.getUTCDay() + 6) % 7) * DAY_MS + sign * 7 * DAY_MS;
      return iso(rel[2] === 'week' ? monday : monday + 5 * DAY_MS);
    }
    if (rel[2] === 'month') {
      const d = new Date(Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth() + sign, 1));
      return d.toISOString().slice(0, 7);
    }
    return String(ref.getUTCFullYear() + sign);
  }
  const inN = p.match(/^in\s+(\w+)\s+(day|week|month)s?$/);
  if (inN) {
    const n = Number(inN[1]) || WORD_NUMBERS[inN[1] ?? ''] || 0;
    if (inN[2] === 'month') return iso(Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth() + n, ref.getUTCDate()));
    return iso(today + n * (inN[2] === 'week' ? 7 : 1) * DAY_MS);
  }
  const md = p.match(new RegExp(`^(?:(${MO})\\s+(\\d{1,2})|(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MO}))`));
  if (md) {
    const month = MONTHS.indexOf((md[1] ?? md[4]) ?? '');
    const day = Number(md[2] ?? md[3]);
    return iso(Date.UTC(ref.getUTCFullYear(), month, day));
  }
  return null;
}

/**
 * Append the resolved date after each date phrase: "next Friday" -> "next Friday 2026-12-04".
 * Returns the rewritten text and the dates found, in order.
 */
export function annotateDates(text: string, refIso: string): { text: string; dates: string[] } {
  const dates: string[] = [];
  const out = text.replace(DATE_RE, (m) => {
    const d = resolveDatePhrase(m, refIso);
    if (d === null) return m;
    dates.push(d);
    return `${m} ${d}`;
  });
  return { text: out, dates };
}
