/**
 * Answer-level judging for retrieval benchmarks: does a retrieved item's text state the gold answer?
 * A deliberately simple, documented script (no model): both texts are lower-cased, dates are
 * normalised (`2023-05-07`, `May 7th, 2023`, `7 May 2023` all become `7 may 2023`; month
 * abbreviations become month names; ordinals lose their suffix), number words up to twenty become
 * digits, punctuation and stop words are dropped and words are reduced by a light stemmer (plural
 * and -ing/-ed endings). The text states the answer when it holds at least `fraction` (default 0.5)
 * of the answer's distinct content words, and at least one. Answers with no content word never match.
 */

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
    ` ${Number(d)} ${MONTHS[Number(m) - 1] ?? m} ${y} `);
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

/** True when `text` holds at least `fraction` of the gold answer's content words (and at least one). */
export function statesAnswer(text: string, gold: string | number, fraction = 0.5): boolean {
  const want = contentWords(String(gold));
  if (want.size === 0) return false;
  const have = contentWords(text);
  const shared = [...want].filter((w) => have.has(w)).length;
  return shared >= 1 && shared / want.size >= fraction;
}
