import { capitalise, isMixedCase, isWord, nameAt, NOT_NAMES, tokens, type Tok } from './name-tokens.js';
import { couldBeName, isFunctionWord, isOrdinaryWord } from './name-words.js';
import { soundsLikeKnown } from './phonetic.js';

/** Which phrasing gave the name. */
export type IntroductionForm = 'my-name' | 'call-me' | 'this-is' | 'it-is' | 'i-am' | 'here' | 'speaking';

/** A name a speaker gave for themselves. */
export interface Introduction {
  /** One capitalised first name ("Alan", never "Alan And"). */
  name: string;
  form: IntroductionForm;
  /** `list`: a listed first name or a capitalised proper noun; `known`: a name the tenant holds; `phonetic`: a
   *  word that sounds like one name the tenant holds (a misrecognition); `slot`: "my name is X" with X unlisted. */
  via: 'list' | 'known' | 'phonetic' | 'slot';
}

export interface IntroductionOptions {
  /** First names the tenant already knows (lower-case), e.g. those of the people present. */
  known?: ReadonlySet<string>;
  /** Least census prevalence (percent) of a listed name in the weak forms ("I'm X", "this is X", "it's X"). Default 0. */
  minPrevalence?: number;
  /** Most phone distance (0–1) for a misheard known name; see `soundsLikeKnown`. Default 0.4 (chosen on the development lines of bench/naming.ts). */
  maxPhoneDistance?: number;
}

/** Words that may follow a name when the clause goes on ("i am robert i look after…", "it's tom from sales"). */
const AFTER_NAME = new Set(['and', 'from', 'here', 'speaking', 'calling', 'again', 'i', 'im', "i'm", 'we', 'with', 'at', 'but',
  'so', 'hi', 'hello', 'hey', 'how', 'nice', 'thanks', 'on', 'of', 'in', 'my', 'your', 'just', 'can', 'please', 'by', 'is', 'the']);
const GREETINGS = new Set(['hi', 'hey', 'hello', 'yes', 'yeah', 'morning', 'afternoon', 'evening', 'oh', 'ok', 'okay', 'well', 'so', 'good']);
const ORG_WORDS = new Set(['from', 'speaking', 'calling', 'here', 'with', 'at', 'of']);

/**
 * A phone greeting before `i`, from the start of the turn: "thank you for calling brightside home services (this is
 * tom)", "welcome to acme", "you've reached the help desk". Unpunctuated, the firm's name runs up to the introduction.
 */
function afterCallOpening(t: Tok[], i: number): boolean {
  const before = t.slice(0, i).filter((x) => x.pos !== 'PUNCT').map((x) => x.lower);
  let k = 0;
  while (GREETINGS.has(before[k] ?? '')) k++;
  const opening = before.slice(k, k + 5).join(' ');
  return i - k <= 12 && /^(?:(?:thank you|thanks) for (?:calling|contacting|phoning|ringing) (?!me\b|us\b|back\b)|welcome to |you(?: ?'ve| have) (?:reached|called) )/.test(`${opening} `);
}

/** The name slots of an utterance: where a name would stand and in which phrasing. */
function slots(t: Tok[]): { at: number; form: IntroductionForm; strong: boolean }[] {
  const w = (i: number): string => t[i]?.lower ?? '';
  const startOfTurn = (i: number): boolean => i === 0 || GREETINGS.has(w(i - 1)) || t[i - 1]!.pos === 'PUNCT' || afterCallOpening(t, i);
  const out: { at: number; form: IntroductionForm; strong: boolean }[] = [];
  for (let i = 0; i < t.length; i++) {
    const is = (k: number): boolean => w(k) === 'is' || w(k) === "'s";
    if (w(i) === 'my' && w(i + 1) === 'name' && is(i + 2)) out.push({ at: i + 3, form: 'my-name', strong: true });
    else if (w(i) === 'my' && (w(i + 1) === 'names' || w(i + 1) === "name's")) out.push({ at: i + 2, form: 'my-name', strong: true });
    else if (w(i) === 'call' && w(i + 1) === 'me') out.push({ at: i + 2, form: 'call-me', strong: true });
    // "this is X" / "it's X" open a turn (after a greeting at most): "if it's PayWell, …" names no one.
    else if (w(i) === 'this' && is(i + 1) && startOfTurn(i)) out.push({ at: i + 2, form: 'this-is', strong: ORG_WORDS.has(w(i + 3)) });
    else if (((w(i) === 'it' && is(i + 1)) || w(i) === 'its' || w(i) === "it's") && startOfTurn(i)) {
      const at = w(i) === 'it' ? i + 2 : i + 1;
      out.push({ at, form: 'it-is', strong: ORG_WORDS.has(w(at + 1)) });
    } else if (w(i) === 'im' || w(i) === "i'm" || (w(i) === 'i' && (w(i + 1) === "'m" || w(i + 1) === 'am'))) {
      out.push({ at: w(i) === 'i' ? i + 2 : i + 1, form: 'i-am', strong: false });
    } else if ((w(i + 1) === 'here' || w(i + 1) === 'speaking') && startOfTurn(i)) {
      out.push({ at: i, form: w(i + 1) === 'here' ? 'here' : 'speaking', strong: true });
    }
  }
  return out;
}

/** The clause ends after the name (or after one surname-like word): end, punctuation or a linking word. */
function clauseEnds(t: Tok[], next: number): boolean {
  const ends = (k: number): boolean => k >= t.length || t[k]!.pos === 'PUNCT' || AFTER_NAME.has(t[k]!.lower);
  if (ends(next)) return true;
  const s = t[next];
  return isWord(s) && (s.pos === 'PROPN' || s.pos === 'NOUN') && !NOT_NAMES.has(s.lower) && ends(next + 1);
}

const CLOSED_POS = new Set(['AUX', 'ADP', 'DET', 'PRON', 'CCONJ', 'SCONJ', 'PART', 'ADV', 'NUM', 'INTJ', 'PUNCT', 'SYM']);

/**
 * A known name the recogniser misheard at `at`: the word alone ("rubber" for robert), or split in two
 * ("sue sand" for susan, "jan it" for janet) when the clause ends after the pair.
 */
function misheard(t: Tok[], at: number, known: ReadonlySet<string>, maxDistance: number): string | null {
  if (known.size === 0) return null;
  const one = soundsLikeKnown(t[at]!.lower, known, maxDistance);
  if (one) return one;
  const next = t[at + 1];
  if (!isWord(next) || !clauseEnds(t, at + 2)) return null;
  return soundsLikeKnown([t[at]!.lower, next.lower], known, maxDistance);
}

/**
 * The name a speaker gives for themselves, in the common phrasings: "my name is X" / "my name's X",
 * "call me X", "this is X (from …)", "it's X from Y", "I'm X" / "I am X", "X here", "X speaking". Built
 * for recognised speech (lower-case, no punctuation): the word must be a listed first name (1990 US
 * Census ∩ the recogniser's dictionary) or a name the tenant knows, or sound like one the tenant knows;
 * "my name is X" alone accepts an unlisted word that is no function word or adjective. "I'm tired", "this is great", "it's done", "I'm frank",
 * "this is will" give nothing: a wrong name is worse than none. Only the first name is returned.
 */
export function detectIntroduction(text: string, options: IntroductionOptions = {}): Introduction | null {
  const cased = isMixedCase(text);
  const t = tokens(text);
  const known = options.known ?? new Set<string>();
  const test = { known, cased, minPrevalence: 0 };
  for (const { at, form, strong } of slots(t)) {
    const tok = t[at];
    // "my name is on the list": a function word is never a name, even one a poisoned alias made known.
    if (!isWord(tok) || NOT_NAMES.has(tok.lower) || isFunctionWord(tok.lower)) continue;
    const ends = clauseEnds(t, at + 1);
    if (!strong && !ends) continue;
    if (known.has(tok.lower) && couldBeName(tok.lower)) return { name: capitalise(tok.value), form, via: 'known' };
    const weak = form === 'i-am' || form === 'this-is' || form === 'it-is';
    if (nameAt(t, at, { ...test, minPrevalence: weak && !strong ? (options.minPrevalence ?? 0) : 0 })) {
      return { name: capitalise(tok.value), form, via: 'list' };
    }
    const heard = misheard(t, at, known, options.maxPhoneDistance ?? 0.4);
    if (heard) return { name: capitalise(heard), form, via: 'phonetic' };
    // "my name is ahmed and…": an unlisted word, a noun or a guessed verb ("ahmed"), not "my name is wrong on…".
    if (form === 'my-name' && ends && !CLOSED_POS.has(tok.pos) && tok.pos !== 'ADJ' && (cased || !isOrdinaryWord(tok.lower)) && (!cased || /^\p{Lu}/u.test(tok.value))) {
      return { name: capitalise(tok.value), form, via: 'slot' };
    }
  }
  return null;
}

/** The name only: see `detectIntroduction`. */
export function detectSelfIntroduction(text: string, options: IntroductionOptions = {}): string | null {
  return detectIntroduction(text, options)?.name ?? null;
}
