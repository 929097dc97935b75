/**
 * Text as a recogniser writes it, read as a person would have written it, before the embedded rules run (rules 38).
 * Speech recognisers write lower-case text ("i guess i start monday"); the tagger reads a lower-case "i" as no pronoun,
 * so "I" lost its verb's agreement ("Ana guess Ana start on Monday"); fillers and restarts ("um", "i i work") were
 * written into facts.
 */
import { SPOKEN_FILLER } from './filler-words.js';

/** The pronoun "i" on its own or in a contraction ("i'm", "i've", "i'll", "i'd"); not "i.e.". */
const LOWER_I = /(?<![\w'’.-])i(?=(?:['’](?:m|ve|ll|d))?(?![\w'’.-])|['’](?:m|ve|ll|d)\b|\.(?!\w))/g;

/** `text` with the first-person pronoun written "I", as a person writes it ("i'm a nurse" → "I'm a nurse"). */
export function withCapitalI(text: string): string {
  return text.replace(LOWER_I, 'I');
}

/**
 * A small word said twice in a row, as a speaker restarts ("i i work", "the the bus"). Not "a a": "I got a a on my
 * test" names a grade.
 */
const RESTART = /\b(I|we|you|the|an|my|to)\s+\1\b/gi;

/**
 * `text` with fillers and laughs (`SPOKEN_FILLER`: lower case or capitalised only, so an acronym "I study at UM" stays)
 * and restarts left out, as a person writing it down would (rules 38).
 */
export function withoutFillers(text: string): string {
  return text.replace(SPOKEN_FILLER, '').replace(RESTART, '$1').replace(/\s+([,.;!?])/g, '$1').replace(/\s{2,}/g, ' ').trim();
}
