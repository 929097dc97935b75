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

/** Parts of speech a first name never takes; "I'm frank" (ADJ), "this is will" (AUX) stay unnamed. */
const NOT_NAME_POS = new Set(['AUX', 'VERB', 'ADJ', 'ADV', 'ADP', 'DET', 'PRON', 'CCONJ', 'SCONJ', 'PART', 'NUM', 'INTJ', 'PUNCT', 'SYM']);

let nlp: ReturnType<typeof winkNLP> | null = null;

/** One token of an utterance with its part of speech (wink-nlp's universal tags). */
export interface Tok {
  value: string;
  lower: string;
  pos: string;
}

/** Tokens of `text`; "i'm" splits into "i" + "'m", "name's" into "name" + "'s". */
export function tokens(text: string): Tok[] {
  nlp ??= winkNLP(model);
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out() as string[];
  const pos = doc.tokens().out(nlp.its.pos) as string[];
  return values.map((v, i) => ({ value: v, lower: v.toLowerCase(), pos: pos[i] ?? 'X' }));
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

/**
 * Is this token a first name here? Known to the tenant; else in the first-name list and in a name's
 * part of speech, not a word that is never a name; in typed text, capitalised (a capitalised proper
 * noun outside the list counts too).
 */
export function nameAt(t: Tok | undefined, test: NameTest): boolean {
  if (!isWord(t)) return false;
  if (test.known?.has(t.lower)) return true;
  if (NOT_NAMES.has(t.lower) || NOT_NAME_POS.has(t.pos)) return false;
  if (test.cased) return /^\p{Lu}/u.test(t.value) && (t.pos === 'PROPN' || givenNamePrevalence(t.lower) > 0);
  const p = givenNamePrevalence(t.lower);
  return p > 0 && p >= (test.minPrevalence ?? 0);
}
