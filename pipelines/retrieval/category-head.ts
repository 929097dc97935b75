import type { WordNet } from './wordnet.js';

/** Auxiliaries and verbs that end the noun phrase after "what" / "which" ("What instruments **does** Mia play?"). */
const AUXILIARIES = new Set(('do does did has have had is are was were can could will would should might may must ' +
  'has been').split(' '));
/** Words that open a question's noun phrase but are no category: wh-words' own complements and determiners. */
const NOT_HEADS = new Set(('is was are were do does did has have had kind kinds type types sort sorts of the a an ' +
  'her his their its my your our this that these those other else one ones').split(' '));
/** The longest noun phrase read after "what" / "which" (adjectives, then the head noun). */
const MAX_PHRASE = 3;

/** A question's category word: the head noun of "what <noun>s …", "which <noun> …", "what kind of <noun> …". */
export interface CategoryHead {
  /** The head noun's base form, lower-case ("instruments" → "instrument", "martial arts" → "art"). */
  head: string;
  /** The whole noun phrase's base form where WordNet lists it as one noun ("martial art"), else `head`. */
  phrase: string;
}

/**
 * The category a question asks for by its head noun, or null: "What instruments does Mia play?" → instrument,
 * "Which book did Leo read?" → book, "What kind of music does Ana like?" → music, "What martial arts has John done?" →
 * martial art. A question that asks for a time ("What time…", "What year…": WordNet files the noun under noun.time),
 * a person, or has no such phrase ("What did Mia say?") has none. With WordNet the head's base form is WordNet's
 * (`baseForms`); without it a plural's "s" is dropped.
 */
export function categoryHead(question: string, wordnet?: WordNet | null): CategoryHead | null {
  const words = question.toLowerCase().replace(/[^\p{L}\p{N}' -]+/gu, ' ').trim().split(/\s+/);
  let at = words[0] === 'in' || words[0] === 'on' ? 1 : 0;
  if (words[at] !== 'what' && words[at] !== 'which') return null;
  at += 1;
  // "what kind of", "which types of": the phrase starts after "of".
  if (/^(?:kinds?|types?|sorts?)$/.test(words[at] ?? '') && words[at + 1] === 'of') at += 2;
  const phrase: string[] = [];
  for (let i = at; i < words.length && phrase.length <= MAX_PHRASE; i++) {
    const w = words[i] as string;
    if (AUXILIARIES.has(w) || /['’]/.test(w)) break;
    phrase.push(w);
  }
  // A verb right after the wh-word ("What happened…", "Which inspired…") is no noun phrase: the phrase must end before
  // an auxiliary within MAX_PHRASE words, or be the whole rest ("What kind of music?").
  if (phrase.length === 0 || phrase.length > MAX_PHRASE || phrase.some((w) => NOT_HEADS.has(w))) return null;
  const last = phrase[phrase.length - 1] as string;
  const head = baseNoun(last, wordnet);
  if (head === null || head.length < 3) return null;
  if (wordnet?.available) {
    const kinds = wordnet.nounKinds(head);
    if (kinds.length === 0 || kinds.every((k) => k.lexFile === 'noun.time' || k.lexFile === 'noun.person')) return null;
  }
  const whole = phrase.length > 1 ? baseNoun(phrase.slice(-2).join('_'), wordnet) : null;
  return { head, phrase: whole && wordnet?.available ? whole.replace(/_/g, ' ') : head };
}

/** A noun's base form: WordNet's first (null when WordNet lists no such noun), else the word less a plural "s". */
function baseNoun(word: string, wordnet?: WordNet | null): string | null {
  if (wordnet?.available) return wordnet.baseForms(word, 'noun')[0] ?? null;
  return /[^s]s$/.test(word) ? word.slice(0, -1) : word;
}
