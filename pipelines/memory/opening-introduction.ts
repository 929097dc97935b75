/**
 * A call opened with a greeting and a self-introduction: "hello this is nina cole please send it to my office at 8 canal
 * street leeds", "hi this is maria lopez i want to change my delivery address" (calls2, newcomer trial8 F6, F8). Read
 * whole, the opening hid the rest of the turn from every rule (the sentence no longer opened with its subject or its
 * "please"), and unpunctuated speech was not cut there: only a clause with "I will / I'm / I have …" opens a new
 * sentence (spoken-clauses.ts). The introduction is cut off as a sentence of its own, and the rest is read as said.
 */
import { couldBeName } from '../speaker/name-words.js';

/** A greeting before the introduction. */
const GREETING = String.raw`(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+there)?`;
/** A booking, a move or a cancellation asked bare ("hi, it's Maria, cancel my Thursday cleaning"; trial12 F11). */
const ASKED = String.raw`(?:book|schedule|reschedule|cancel|rebook)`;
/** Words that never stand for a surname after the first name: they open what follows. */
export const NOT_SURNAME = String.raw`(?:and|but|so|or|i|i['’]\w+|we|we['’]\w+|my|our|please|from|calling|speaking|here|again|just|can|could|would|the|a|an|about|with|on|in|at|${ASKED})`;
/** Words that open the clause after the introduction: the speaker's own clause, or a request. */
const NEXT = String.raw`(?:i|i['’]\w+|we|we['’]\w+|my|our|please|can|could|would|and|so|just|${ASKED})\b`;
/**
 * "(hi) this is <name> (<surname>) <clause>", "(hi) my name is …", "hi it's …" ("hi it is …" as a recogniser writes it); groups: the introduction, the first
 * name, whether a greeting opened it, the rest.
 */
const OPENING = new RegExp(String.raw`^((${GREETING}[\s,]+)?(?:this\s+is|my\s+name\s+is|my\s+name['’]s|(?<=^${GREETING}[\s,]+)it(?:['’]s|\s+is))\s+([\p{L}'’-]+)(?:\s+(?!${NOT_SURNAME}\b)[\p{L}'’-]+)?)[\s,.;:!-]+(?=${NEXT})(\S.*)$`, 'iu');

/** A greeting alone before the speaker's clause: "hello i ordered a kettle…", "Hi, I would like to return my toaster." */
const GREETING_ONLY = new RegExp(String.raw`^${GREETING}[\s,.;:!-]+(?=${NEXT})(\S.*)$`, 'iu');

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * `sentence` as its opening introduction and the clause after it, each a sentence ("hello this is nina cole." and "Please
 * send it to my office…"); a greeting alone is left out ("hello i ordered a kettle" → "I ordered a kettle"); `[sentence]`
 * when it opens with neither. Without a greeting, "this is" must name someone ("this is great i love it" stays whole).
 */
export function openingIntroduction(sentence: string): string[] {
  const m = OPENING.exec(sentence);
  if (!m) {
    // A greeting is no part of what the turn tells, and read with it the clause after it gave no fact.
    const greeted = GREETING_ONLY.exec(sentence);
    return greeted?.[1] ? [capitalise(greeted[1])] : [sentence];
  }
  const [, intro, greeting, first, rest] = m as unknown as [string, string, string | undefined, string, string];
  // Recognised speech has no capitals but the pronoun "I": its introduction stays lower case, so that the rules read
  // its name as spoken (a listed first name), not as typed (capitalised).
  const typed = /\p{Lu}/u.test(sentence.replace(/\bI\b/g, ''));
  if (!greeting && !couldBeName(first.toLowerCase(), undefined, typed)) return [sentence];
  return [`${typed ? capitalise(intro) : intro}.`, capitalise(rest)];
}
