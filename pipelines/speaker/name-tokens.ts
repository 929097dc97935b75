import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { givenNamePrevalence } from './given-names.js';

/** Words that follow "I'm" / "this is" / vocative slots but are never names (some are also first names). */
export const NOT_NAMES = new Set(
  ('tired going fine good ok okay sorry sure here there not so just really glad happy back home done ready busy late ' +
    'hungry cold hot sick well right new sad afraid listening thinking trying looking talking working coming leaving ' +
    'everyone everybody guys all you folks team yes no yeah hey hi hello thanks thank please sir madam mate dude buddy ' +
    'it this that what who me him her them us speaking also still already actually gonna about from with the a an ' +
    'mom mum dad honey darling babe man friend friends people kids boss doctor')
    .split(' '),
);

/** Parts of speech that mark a word used as an ordinary word: "I'm frank" (ADJ), "this is will" (AUX). */
const NOT_NAME_POS = new Set(['AUX', 'ADJ', 'ADP', 'DET', 'PRON', 'CCONJ', 'SCONJ', 'PART', 'NUM', 'INTJ', 'PUNCT', 'SYM']);
/** Tags the tagger guesses from spelling for unknown lower-case words ("emily" ADV from -ly, "ken" VERB). */
const GUESSED_POS = new Set(['VERB', 'ADV']);

let nlp: ReturnType<typeof winkNLP> | null = null;

/** One token of an utterance with its part of speech (wink-nlp's universal tags). */
export interface Tok {
  value: string;
  lower: string;
  pos: string;
}

/** Texts tokenised lately: one utterance is read by several naming checks in a row. */
const recent = new Map<string, Tok[]>();
const RECENT_TEXTS = 16;

/** Tokens of `text`; "i'm" splits into "i" + "'m", "name's" into "name" + "'s". */
export function tokens(text: string): Tok[] {
  const seen = recent.get(text);
  if (seen) return seen;
  // Tokens and parts of speech only: named-entity recognition costs most of a read and is not used.
  nlp ??= winkNLP(model, ['sbd', 'pos']);
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out() as string[];
  const pos = doc.tokens().out(nlp.its.pos) as string[];
  const toks = values.map((v, i) => ({ value: v, lower: v.toLowerCase(), pos: pos[i] ?? 'X' }));
  if (recent.size >= RECENT_TEXTS) recent.delete(recent.keys().next().value!);
  recent.set(text, toks);
  return toks;
}

/** Typed text has case; recognised speech (pocketsphinx) is all lower-case. */
export const isMixedCase = (text: string): boolean => /[A-Z]/.test(text) && /[a-z]/.test(text);

export const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();

/** A single word of letters (apostrophe or hyphen inside), two or more long. */
export const isWord = (t: Tok | undefined): t is Tok => !!t && /^[\p{L}][\p{L}'-]*$/u.test(t.value) && t.value.length >= 2;

/** How `nameAt` decides. */
export interface NameTest {
  /** Names the tenant already knows (lower-case): they count whatever the list says. */
  known?: ReadonlySet<string>;
  /** The text has case: a name must then be capitalised, and a capitalised proper noun counts. */
  cased: boolean;
  /** Least first-name prevalence (percent of people) for a listed name. Default 0 (any listed name). */
  minPrevalence?: number;
}

/** The tag of token `k` when it is written capitalised, as a name would be ("Emily", "Ken"). */
function truecasedPos(t: readonly Tok[], k: number): string {
  // The tagger looks at nearby words only: re-tag a window, not the whole (possibly long) text.
  const from = Math.max(0, k - TAG_WINDOW);
  const near = t.slice(from, k + TAG_WINDOW + 1);
  const at = k - from;
  const words = near.map((x, i) => (i === at ? capitalise(x.value) : x.value));
  const again = tokens(words.join(' '));
  const tok = again.length === near.length ? again[at] : again.find((x) => x.value === words[at]);
  return tok?.pos ?? 'X';
}

/** Tokens either side of a word that `truecasedPos` re-tags with it. */
const TAG_WINDOW = 8;

/**
 * Is token `k` a first name here? Known to the tenant; else in the first-name list and not used as an
 * ordinary word: never in `NOT_NAMES`, not tagged as a function word or adjective, and where the tagger
 * only guessed verb or adverb from the spelling of a lower-case word, a proper noun once capitalised
 * ("i am ray i fix…" yes, "i am sue sand" no). In typed text the word must be capitalised, and a
 * capitalised proper noun outside the list counts too.
 */
export function nameAt(t: readonly Tok[], k: number, test: NameTest): boolean {
  const tok = t[k];
  if (!isWord(tok)) return false;
  if (test.known?.has(tok.lower)) return true;
  if (NOT_NAMES.has(tok.lower) || NOT_NAME_POS.has(tok.pos)) return false;
  if (test.cased) return /^\p{Lu}/u.test(tok.value) && (tok.pos === 'PROPN' || givenNamePrevalence(tok.lower) > 0);
  const p = givenNamePrevalence(tok.lower);
  if (p === 0 || p < (test.minPrevalence ?? 0)) return false;
  return !GUESSED_POS.has(tok.pos) || truecasedPos(t, k) === 'PROPN';
}
