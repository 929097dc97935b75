import { NOT_NAMES } from '../speaker/name-tokens.js';
import { detectIntroduction, findVocatives } from '../speaker/name-patterns.js';
import { givenNamePrevalence } from '../speaker/given-names.js';
import { phoneDistance } from '../speaker/phonetic.js';
import { asrText } from './llama-vocabulary.js';
import { isFunctionWord, normaliseName, spokenPhones, type NameCorrection } from './name-spotting.js';

/**
 * Favouring the tenant's known names in a recogniser's text after the fact, for recognisers without a
 * vocabulary hook or word timings (Moonshine): a recognised word, or two in a row, that sounds like one
 * known name is rewritten as that name, but only with evidence that a name stands there. Two kinds count:
 * the recogniser capitalised the word inside a sentence (Moonshine writes proper nouns capitalised, so
 * "Jan It" and "Rob It" read as a name the recogniser could not spell), or the sentence reads as naming
 * or addressing someone once the name is put in ("i'm X", "this is X from…", "X here", "X, can you…",
 * checked by the same rules that name speakers: `detectIntroduction`, `findVocatives`). Function words
 * ("an", "and a", "we'll"), words that are never names ("fine", "here"), and, optionally, another first
 * name the recogniser wrote capitalised are never rewritten; so are words nothing sounds uniquely like.
 */

/** Which evidence lets a word that sounds like a known name be rewritten as it. */
export type NameEvidence = 'cased-or-context' | 'context' | 'cased';

/** Options of {@link favourKnownNames}. */
export interface KnownNameOptions {
  /** Most phone distance (0–1, `phoneDistance`) between the heard words and the name; for a word without a pronunciation, its letter distance. */
  maxPhoneDistance: number;
  /** Which evidence of a name is needed. Default `cased`. */
  evidence?: NameEvidence;
  /** Longest run of heard words one name may replace. Default 2. */
  maxWords?: number;
  /** Leave a word the recogniser capitalised alone when it is itself a listed first name ("Ellen" is then not rewritten as alan). Default false. */
  keepOtherNames?: boolean;
}

/**
 * Parley's settings, chosen on the development lines of `bench/asr-names.ts --moonshine-match`
 * (docs/BENCHMARKS.md, "Moonshine hears the session's names").
 */
export const KNOWN_NAME_DEFAULTS: Required<KnownNameOptions> = {
  maxPhoneDistance: 0.2, evidence: 'cased', maxWords: 2, keepOtherNames: false,
};

/** A word of the recogniser's text, with where it stands. */
interface HeardWord {
  /** As written ("Grace", "don't"). */
  value: string;
  lower: string;
  /** Offsets of the word in the text. */
  start: number;
  end: number;
  /** Capitalised inside a sentence (not its first word, not "I" or "I'm"): a proper noun to the recogniser. */
  cased: boolean;
  /** Punctuation stands between this word and the previous one. */
  breakBefore: boolean;
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/** The words of a recogniser's text (cased, punctuated), each marked capitalised-inside-a-sentence or not. */
export function heardWords(text: string): HeardWord[] {
  const out: HeardWord[] = [];
  let last = 0;
  let sentenceStart = true;
  for (const m of text.matchAll(WORD)) {
    const between = text.slice(last, m.index);
    if (/[.?!]/.test(between)) sentenceStart = true;
    const value = m[0];
    const lower = value.toLowerCase().replace(/’/g, "'");
    const capital = /^\p{Lu}/u.test(value);
    const pronounI = lower === 'i' || lower.startsWith("i'");
    out.push({ value, lower, start: m.index, end: m.index + value.length, cased: capital && !sentenceStart && !pronounI, breakBefore: /[^\s]/.test(between) && out.length > 0 });
    sentenceStart = false;
    last = m.index + value.length;
  }
  return out;
}

/** Letter edit distance divided by the longer length, in [0, 1]. */
function letterDistance(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]! / Math.max(a.length, b.length);
}

/** How far heard words sound from a name: closest pronunciations, else (a word without one) their letters. */
function distance(words: readonly string[], name: string, phones: (word: string) => string[][]): number {
  const a = spokenPhones(words, phones);
  const b = spokenPhones(name.split(' '), phones);
  if (a.length === 0 || b.length === 0) return letterDistance(words.join(''), name.replace(/ /g, ''));
  let best = 1;
  for (const x of a) for (const y of b) best = Math.min(best, phoneDistance(x, y));
  return best;
}

/** Whether the text, with `name` written over words `from`..`to`, names or addresses `name` there. */
function namingContext(words: readonly HeardWord[], text: string, from: number, to: number, name: string): boolean {
  // Lower case keeps the rules on their recognised-speech path; punctuation stays (it marks vocatives).
  const rewritten = (text.slice(0, words[from]!.start) + name + text.slice(words[to]!.end)).toLowerCase();
  const known = new Set([name]);
  return detectIntroduction(rewritten, { known, maxPhoneDistance: 0 })?.name.toLowerCase() === name || findVocatives(rewritten, known).includes(name);
}

/**
 * Whether a run of heard words may be rewritten at all: letters only, within one phrase, not starting with a
 * function word or a word that is never a name ("rob it" may be robert, "it rob" not), and (with `keepOtherNames`) not a first name the recogniser capitalised.
 */
function rewritable(run: readonly HeardWord[], keepOtherNames: boolean): boolean {
  if (run.some((w, i) => i > 0 && w.breakBefore)) return false;
  for (const w of run) if (!/^\p{L}[\p{L}']*$/u.test(w.lower)) return false;
  // The run starts on a word that may be a name ("hail and" for helen); a function word may only follow it.
  const first = run[0]!.lower;
  if (first.length < 2 || isFunctionWord(first, true) || NOT_NAMES.has(first)) return false;
  return !(keepOtherNames && run.length === 1 && run[0]!.cased && givenNamePrevalence(run[0]!.lower) > 0);
}

/**
 * Rewrite words of a recogniser's text (as it wrote it: cased, punctuated) that sound like one of `names`
 * (the tenant's known names and aliases, any case) where there is evidence of a name (see the file's
 * comment). Runs of 1 to `maxWords` words are tried left to right, the closest run and name first; a
 * run is rewritten only when one name is strictly closer than every other and within `maxPhoneDistance`.
 * @param phones pronunciations (phone lists) of a lower-case word; empty when unknown.
 * @returns the text as `AsrFinal.text` wants it (lower case, see `asrText`) and the rewrites made.
 */
export function favourKnownNames(text: string, names: readonly string[], phones: (word: string) => string[][],
  options: KnownNameOptions): { text: string; corrections: NameCorrection[] } {
  const o = { ...KNOWN_NAME_DEFAULTS, ...options };
  const known = [...new Set(names.map(normaliseName).filter((n) => n.length > 1))];
  const corrections: NameCorrection[] = [];
  if (known.length === 0) return { text: asrText(text), corrections };
  let current = text;
  let words = heardWords(current);
  const knownWords = new Set(known.flatMap((n) => n.split(' ')));
  for (let i = 0; i < words.length; i++) {
    if (knownWords.has(words[i]!.lower)) continue;
    let best: { to: number; name: string; distance: number } | null = null;
    for (let len = 1; len <= o.maxWords && i + len <= words.length; len++) {
      const run = words.slice(i, i + len);
      if (run.some((w) => knownWords.has(w.lower)) || !rewritable(run, o.keepOtherNames)) break;
      const scored = known.map((name) => ({ name, distance: distance(run.map((w) => w.lower), name, phones) })).sort((a, b) => a.distance - b.distance);
      const [first, second] = scored;
      if (!first || first.distance > o.maxPhoneDistance || (second && second.distance <= first.distance)) continue;
      if (!best || first.distance < best.distance) best = { to: i + len - 1, name: first.name, distance: first.distance };
    }
    if (!best) continue;
    const cased = words[i]!.cased;
    const context = o.evidence !== 'cased' && namingContext(words, current, i, best.to, best.name);
    const ok = o.evidence === 'cased' ? cased : o.evidence === 'context' ? context : cased || context;
    if (!ok) continue;
    const from = words.slice(i, best.to + 1).map((w) => w.lower).join(' ');
    const written = best.name.split(' ').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
    current = current.slice(0, words[i]!.start) + written + current.slice(words[best.to]!.end);
    corrections.push({ from, to: best.name, distance: best.distance });
    words = heardWords(current);
  }
  return { text: asrText(current), corrections };
}
