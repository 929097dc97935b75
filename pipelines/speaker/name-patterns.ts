import { capitalise, isMixedCase, nameAt, tokens } from './name-tokens.js';

export { detectIntroduction, detectSelfIntroduction, type Introduction, type IntroductionForm } from './self-introduction.js';

const OPENERS = new Set(['hi', 'hey', 'hello', 'thanks', 'thank', 'ok', 'okay', 'so', 'well', 'yes', 'no', 'sorry', 'right', 'morning', 'bye', 'goodbye', 'cheers']);
/** What follows a turn-opening vocative in unpunctuated speech: "ana what do you think", "robert can you…". */
const QUESTION_OPENERS = new Set(['what', 'when', 'where', 'who', 'why', 'how', 'which', 'please', 'thanks', 'thank']);
const REQUEST_OPENERS = new Set(['could', 'would', 'can', 'do', 'did', 'are', 'have', 'will', 'should', 'were']);

/** "robert can you…", "ana what…": not "robert is late", "robert did it". */
function opensRequest(next: string, after: string[]): boolean {
  return QUESTION_OPENERS.has(next) || (REQUEST_OPENERS.has(next) && after.includes('you'));
}

/**
 * Words used vocatively: "Ana, can you…", "…, Ben?", "thanks, Ana", "hi Ben", and in recognised speech
 * without punctuation a turn-opening name followed by a question or request ("robert can you send me…").
 * With `known` names (lower-case), only those count and case does not matter; otherwise a first name
 * (see `nameAt`: listed, or capitalised in typed text) is required.
 */
export function findVocatives(text: string, known?: ReadonlySet<string>): string[] {
  const cased = isMixedCase(text);
  const t = tokens(text);
  const ok = (k: number): boolean => (known ? known.has(t[k]?.lower ?? '') : nameAt(t, k, { cased }));
  const found: string[] = [];
  const isPunct = (k: number): boolean => k < 0 || k >= t.length || t[k]!.pos === 'PUNCT';
  for (let k = 0; k < t.length; k++) {
    if (!ok(k)) continue;
    const prev = t[k - 1]?.lower ?? '';
    const startSlot =
      k === 0 || isPunct(k - 1) || OPENERS.has(prev) || (prev === 'you' && t[k - 2]?.lower === 'thank') || (prev === 'and' && ok(k - 2));
    // Followed by a comma or the end of the sentence: "Ana, …", "…, Ben?", "thanks Ana".
    const endSlot = isPunct(k + 1) || t[k + 1]?.lower === 'and';
    const commaBefore = t[k - 1]?.value === ',';
    // Unpunctuated speech: "robert can you…" opens the turn with the name, then a request or question.
    const spokenOpening = !cased && (k === 0 || OPENERS.has(prev)) && k + 1 < t.length &&
      opensRequest(t[k + 1]!.lower, t.slice(k + 2, k + 4).map((x) => x.lower));
    if ((startSlot && endSlot) || (commaBefore && isPunct(k + 1)) || spokenOpening) {
      found.push(known ? t[k]!.lower : capitalise(t[k]!.value));
    }
  }
  return [...new Set(found)];
}
