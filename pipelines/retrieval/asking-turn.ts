import { statedPart } from './named-subject-match.js';
import { isContentWord, tokens } from './question-rewrite.js';

/**
 * Whether a turn only asks: it holds a question and, besides its questions, fewer than two content words
 * ("That's awesome! What type of guitar? Been playing long?", "Wow! Did you see that band?"). Such a turn
 * tells what its speaker wondered about, not what they did or hold: "What instruments does Melanie play?"
 * is not answered by Melanie asking Caroline about her guitar. A shared photo's description counts as stated.
 */
export function onlyAsks(text: string): boolean {
  if (!text.includes('?')) return false;
  return tokens(statedPart(text)).filter((w) => w.length > 2 && isContentWord(w)).length < 2;
}

/** Whether a question asks about asking ("What did Ben ask Ana?", "Who wondered…"): then asking turns are the answer. */
export function asksAboutAsking(question: string): boolean {
  return /\b(?:ask|asks|asked|asking|question|questions|wonder|wonders|wondered|wondering|inquire|inquired|enquire|enquired)\b/i.test(question);
}

/**
 * The score factor of a turn for `askingFactor`: `factor` for a turn that only asks (`onlyAsks`), 1 otherwise, and 1
 * for every turn when the question asks about asking. Bad factors (outside 0–1) are refused.
 */
export function askingTurnFactor(text: string, question: string, factor: number): number {
  if (!(factor >= 0 && factor <= 1)) throw new RangeError(`askingFactor is a factor from 0 to 1, got ${String(factor)}`);
  if (factor === 1 || asksAboutAsking(question)) return 1;
  return onlyAsks(text) ? factor : 1;
}
