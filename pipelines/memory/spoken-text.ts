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

/** Where a filler stood, while the restarts around it are read (a word joiner: no recogniser writes it). */
const FILLER_MARK = '\u2060';
/**
 * A restart around a filler: a small word said again after it ("I, uh, I changed my mind", trial10 F5; "you, um, you
 * know").
 */
const RESTART_AROUND_FILLER = new RegExp(String.raw`\b(I|we|you|the|an|my|to),?\s*(?:${FILLER_MARK}\s*)+\1\b`, 'gi');
/**
 * A small word said twice in a row, as a speaker restarts: an article, "my" or "to" anywhere ("the the bus"), "I" or
 * "we" where a clause starts ("i i work", "so we, we went"). Not "a a": "I got a a on my test" names a grade; not
 * "you, you": "I told you, you should go" and "thank you, you saved my weekend" say it twice.
 */
const RESTART = /\b(the|an|my|to),?\s+\1\b|(^|[,;:.!?]\s*|\b(?:and|but|so|then)\s+)(I|we),?\s+\3\b/gi;

/**
 * `text` with fillers and laughs (`SPOKEN_FILLER`: lower case or capitalised only, so an acronym "I study at UM" stays)
 * and restarts left out, as a person writing it down would (rules 38).
 */
export function withoutFillers(text: string): string {
  return text.replace(SPOKEN_FILLER, FILLER_MARK).replace(RESTART_AROUND_FILLER, '$1').replaceAll(FILLER_MARK, '')
    .replace(RESTART, (_m, word?: string, start?: string, pronoun?: string) => word ?? `${start}${pronoun}`)
    .replace(/\s+([,.;!?])/g, '$1').replace(/\s{2,}/g, ' ').trim();
}

/** A person said with the speaker: a name or two, or "my / our" and a person ("my sister", "our Ben"). */
const PARTNER = String.raw`(?:(?:[Mm]y|[Oo]ur)\s+[a-z-]+(?:\s+[A-Z][\w'’-]*)?|(?!(?:Me|And|But|So|Then|Yes|No|Well|Oh)\b)[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)`;
/**
 * "Me and Ben like hiking", "Ben and me went hiking": the speaker and another as one subject at a sentence's or
 * clause's start, a lower-case word (a verb) after it. Spoken English says "me"; the rules read "Ben and I" (rules 50:
 * "Me and Ben like hiking" gave no fact).
 */
const ME_AND = new RegExp(String.raw`(^|[,;:]\s*)(?:[Mm]e\s+and\s+(${PARTNER})|(${PARTNER})\s+and\s+me)(?=\s+(?:both\s+|really\s+|also\s+|just\s+)?[a-z])`, 'g');

/** `text` with a joint subject said with "me" written "X and I" ("Me and Ben like hiking" → "Ben and I like hiking"). */
export function withJointI(text: string): string {
  return text.replace(ME_AND, (_m, start: string, after?: string, before?: string) => {
    const partner = after ?? before ?? '';
    // "My sister" at a sentence's start keeps its capital; after "Me and" it is "my sister" again.
    return `${start}${start === '' ? partner.charAt(0).toUpperCase() + partner.slice(1) : partner} and I`;
  });
}
