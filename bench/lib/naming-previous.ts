/**
 * The self-introduction rules before issue #17 part 4 (commit c96089e, pipelines/speaker/name-patterns.ts),
 * kept unchanged as the baseline bench/naming.ts measures in the same run. Not used in production.
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** Words that follow "I'm" / "this is" / vocative slots but are never names. */
const NOT_NAMES = new Set(
  ('tired going fine good ok okay sorry sure here there not so just really glad happy back home done ready busy late ' +
    'hungry cold hot sick well right new sad afraid listening thinking trying looking talking working coming leaving ' +
    'everyone everybody guys all you folks team yes no yeah hey hi hello thanks thank please sir madam mate dude buddy ' +
    'it this that what who me him her them us speaking also still already actually gonna about from with the a an ' +
    'mom mum dad honey darling babe man friend friends people kids boss doctor')
    .split(' '),
);

let nlp: ReturnType<typeof winkNLP> | null = null;

interface Tok {
  value: string;
  lower: string;
  pos: string;
}

function tokens(text: string): Tok[] {
  nlp ??= winkNLP(model);
  const doc = nlp.readDoc(text);
  const values = doc.tokens().out() as string[];
  const pos = doc.tokens().out(nlp.its.pos) as string[];
  return values.map((v, i) => ({ value: v, lower: v.toLowerCase(), pos: pos[i] ?? 'X' }));
}

const isMixedCase = (text: string): boolean => /[A-Z]/.test(text) && /[a-z]/.test(text);

/** Could this token be a personal name here? POS noun-like, not a stop word, capitalised when the text has case. */
function nameLike(t: Tok | undefined, cased: boolean): boolean {
  if (!t || !/^[\p{L}][\p{L}'-]*$/u.test(t.value) || t.value.length < 2) return false;
  if (NOT_NAMES.has(t.lower)) return false;
  if (t.pos !== 'PROPN' && t.pos !== 'NOUN') return false;
  return !cased || /^\p{Lu}/u.test(t.value);
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const ENDERS = new Set(['.', ',', '!', '?', ';', 'and', 'from', 'speaking', 'here', 'by', 'calling']);

/**
 * The name a speaker gives for themselves: "I'm Ana", "I am Ana", "my name is Ana", "call me Ana",
 * "this is Ben speaking", "Ben here". Null for "I'm tired", "I'm going", "this is great".
 */
export function previousSelfIntroduction(text: string): string | null {
  const cased = isMixedCase(text);
  const t = tokens(text);
  const at = (i: number): string => t[i]?.lower ?? '';
  // A name must end the clause: "I'm Ana and…", "I'm Ana." — not "I'm Ana's friend".
  const ends = (i: number): boolean => i >= t.length || ENDERS.has(at(i));
  for (let i = 0; i < t.length; i++) {
    let slot = -1;
    if ((at(i) === "i'm" || at(i) === 'im') && i + 1 < t.length) slot = i + 1;
    else if (at(i) === 'i' && (at(i + 1) === "'m" || at(i + 1) === 'am')) slot = i + 2;
    else if (at(i) === 'my' && at(i + 1) === 'name' && (at(i + 2) === 'is' || at(i + 2) === "'s")) slot = i + 3;
    else if (at(i) === 'call' && at(i + 1) === 'me') slot = i + 2;
    else if (at(i) === 'this' && (at(i + 1) === 'is' || at(i + 1) === "'s") && (at(i + 3) === 'speaking' || at(i + 3) === 'here')) slot = i + 2;
    else if (at(i + 1) === 'here' && (i === 0 || ['INTJ', 'PUNCT'].includes(t[i - 1]!.pos)) && ends(i + 2)) slot = i;
    if (slot < 0) continue;
    if (nameLike(t[slot], cased) && ends(slot + 1)) return capitalise(t[slot]!.value);
  }
  return null;
}

