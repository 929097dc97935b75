/**
 * Numbers as a recogniser writes them ("five five two zero", "double oh seven", "forty two", "one hundred and five")
 * read as digits ("5520", "007", "42", "105"). Shared by the rules that read a value (identifiers, phone numbers, house
 * numbers: pipelines/memory/spoken-values.ts), the erasure's redaction of values read back in words
 * (pipelines/interaction/redact-mentions.ts) and the lexical query ("order five five two zero" finds "5520").
 *
 * Written here rather than taken from npm: `words-to-numbers` (MIT) depends on babel-runtime 6 and a fuzzy matcher, and
 * reads neither "oh" as zero nor "double seven"; nothing here needs more than the small table below.
 */

/**
 * The number words, one table: read as digits here ("forty five" → "45") and as counts of a span by
 * pipelines/memory/spans.ts ("for two weeks").
 */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};
/** The words of `NUMBER_WORDS` whose number `keep` takes, each with `as` of it. */
function numberWords(keep: (n: number) => boolean, as: (n: number) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(NUMBER_WORDS).filter(([, n]) => keep(n)).map(([w, n]) => [w, as(n)]));
}
/** A digit said: "zero" … "nine", and "nought", "oh", "o" for zero. */
const DIGIT: Record<string, string> = { ...numberWords((n) => n < 10, String), nought: '0', oh: '0', o: '0' };
const TEEN: Record<string, string> = numberWords((n) => n >= 10 && n < 20, String);
/** "twenty" … "ninety" as their tens digit. */
const TENS: Record<string, string> = numberWords((n) => n >= 20, (n) => String(n / 10));
const REPEAT: Record<string, number> = { double: 2, triple: 3 };

/** A word of `text` and where it lies. */
interface Word {
  word: string;
  start: number;
  end: number;
}

/** A spoken number found in a text: where it lies and its digits. */
export interface SpokenRun {
  start: number;
  end: number;
  /** The digits (and a letter a code holds) joined: "5550142", "A12". */
  digits: string;
}

/** The words of `text`, lower-cased; the "o" of "o'clock" is no word (no zero). */
function wordsOf(text: string): Word[] {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].filter((m) => !/^o$/i.test(m[0]) || !/^['’]\p{L}/u.test(text.slice(m.index + 1)))
    .map((m) => ({ word: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
}

/** "zero" … "nine", "oh": a digit said alone; "oh" only beside another digit (`readRun`). */
function digit(w: string | undefined): string | undefined {
  return w === undefined ? undefined : /^\d$/.test(w) ? w : DIGIT[w];
}

/**
 * Whether the "oh" at word `i`, opening a number, is a zero: two digits follow ("oh five five"), or "double / triple"
 * does; "oh one more thing" is no number.
 */
function leadingZero(words: readonly Word[], i: number, text: string): boolean {
  const next = joined(words, i + 1, text) ? words[i + 1]!.word : '';
  return Boolean(REPEAT[next]) || (digit(next) !== undefined && joined(words, i + 2, text) && digit(words[i + 2]!.word) !== undefined);
}

/** The number of "twenty" … "ninety" (and one unit after it), a teen or a unit: the part of a cardinal under a hundred. */
function underHundred(words: readonly Word[], i: number, text: string): { value: number; next: number } | null {
  const w = words[i]?.word ?? '';
  if (TEEN[w]) return { value: Number(TEEN[w]), next: i + 1 };
  if (TENS[w]) {
    const unit = DIGIT[words[i + 1]?.word ?? ''];
    return unit && unit !== '0' && joined(words, i + 1, text) ? { value: Number(TENS[w] + unit), next: i + 2 } : { value: Number(`${TENS[w]}0`), next: i + 1 };
  }
  const unit = DIGIT[w];
  return unit && unit !== '0' ? { value: Number(unit), next: i + 1 } : null;
}

/** "five hundred", "one hundred and five", "nine hundred thirty" from word `i` on; null when no "hundred" follows a digit. */
function hundreds(words: readonly Word[], i: number, text: string): { value: number; next: number } | null {
  const d = DIGIT[words[i]?.word ?? ''];
  if (d === undefined || words[i + 1]?.word !== 'hundred' || !joined(words, i + 1, text)) return null;
  const tail = words[i + 2]?.word === 'and' && joined(words, i + 3, text) ? underHundred(words, i + 3, text) : joined(words, i + 2, text) ? underHundred(words, i + 2, text) : null;
  return { value: Number(d) * 100 + (tail?.value ?? 0), next: tail?.next ?? i + 2 };
}

/**
 * A number of thousands from word `i` on: "two thousand and five" (2005), "twenty five thousand" (25000), "one hundred
 * thousand" (100000), "two thousand five hundred" (2500); null when no "thousand" follows a number under a thousand.
 */
function thousands(words: readonly Word[], i: number, text: string): { value: number; next: number } | null {
  const head = hundreds(words, i, text) ?? underHundred(words, i, text);
  if (!head || words[head.next]?.word !== 'thousand' || !joined(words, head.next, text)) return null;
  const after = head.next + 1;
  const at = words[after]?.word === 'and' && joined(words, after, text) ? after + 1 : after;
  const tail = joined(words, at, text) ? hundreds(words, at, text) ?? underHundred(words, at, text) : null;
  return { value: head.value * 1000 + (tail?.value ?? 0), next: tail?.next ?? after };
}

/** Whether word `i` follows the one before it as part of one number: only spaces, commas or dashes between. */
function joined(words: readonly Word[], i: number, text: string): boolean {
  const before = words[i - 1];
  const at = words[i];
  if (!before || !at) return false;
  return /^[\s,-]*$/.test(text.slice(before.end, at.start));
}

/**
 * The number said from word `i` on, as digits: digits one by one ("five five two zero"), "oh" for zero beside another
 * digit, "double / triple X", teens and tens ("forty five" → "45", "forty" → "40"), hundreds ("one hundred and five" →
 * "105"), thousands ("two thousand and five" → "2005", "one hundred thousand" → "100000"), digits written as such and a code word of a letter and digits ("A12"), the parts joined in order ("forty five
 * seven" → "457"). `next` is the word after it; empty digits when word `i` starts no number.
 */
function readRun(words: readonly Word[], i: number, text: string): { digits: string; next: number } {
  let out = '';
  let j = i;
  while (j < words.length && (j === i || joined(words, j, text))) {
    const w = words[j]!.word;
    const after = joined(words, j + 1, text) ? words[j + 1]?.word : undefined;
    const times = REPEAT[w];
    const big = thousands(words, j, text);
    if (big) {
      out += String(big.value);
      j = big.next;
    } else if (times && digit(after) !== undefined) {
      out += digit(after)!.repeat(times);
      j += 2;
    } else if (/^\d+$/.test(w)) {
      out += w;
      j++;
    } else if (DIGIT[w] && after === 'hundred') {
      const said = hundreds(words, j, text)!;
      out += String(said.value);
      j = said.next;
    } else if ((w === 'oh' || w === 'o') && out === '' && !leadingZero(words, j, text)) {
      break;
    } else if (DIGIT[w] !== undefined || TEEN[w] || TENS[w]) {
      const part = underHundred(words, j, text);
      if (part && (TEEN[w] || TENS[w])) {
        out += String(part.value);
        j = part.next;
      } else {
        out += DIGIT[w]!;
        j++;
      }
    } else if (/^[a-z]\d+$|^\d+[a-z]$/.test(w)) {
      out += w.toUpperCase();
      j++;
    } else break;
  }
  return { digits: out, next: j };
}

/**
 * The digits read out at the start of `said`, joined ("four five seven two one" → "45721", "double oh seven" → "007",
 * "forty five" → "45", "45721" as it is); null when it opens with no number or gives fewer than two.
 */
export function spokenNumber(said: string): string | null {
  const { digits } = readRun(wordsOf(said), 0, said);
  return digits.length >= 2 ? digits : null;
}

/**
 * Every number said in `text` that gives at least `minDigits` digits, in order, with where it lies: "call me on five
 * five five oh one four two" → "5550142" over "five … two". Words written as digits count as parts ("555 oh one four
 * two"); a sentence's end ("…five. Oh…") ends a number.
 */
export function spokenRuns(text: string, minDigits: number): SpokenRun[] {
  const words = wordsOf(text);
  const runs: SpokenRun[] = [];
  for (let i = 0; i < words.length;) {
    const { digits, next } = readRun(words, i, text);
    if (next > i && digits.length >= minDigits) runs.push({ start: words[i]!.start, end: words[next - 1]!.end, digits });
    i = Math.max(next, i + 1);
  }
  return runs;
}

/**
 * Whether `text` holds a number said in words (at least one of its parts a word: "five five two zero", not "5520"); the
 * cheap test before `spokenRuns`.
 */
export function saysNumberInWords(text: string): boolean {
  return /\b(?:zero|nought|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|double|triple)\b/i.test(text);
}
