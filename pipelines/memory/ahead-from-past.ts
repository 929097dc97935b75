/**
 * Words that look ahead from a moment in the past: a promise or plan told as past ("Dan promised me he would fix my
 * laptop by Tuesday", "she was going to call on Friday") still names a day to come. A past verb beside them ("promised")
 * tells when it was said, not when it is to happen, so a date in such a clause lies ahead (rules 39).
 */
import { WEEKDAY_NAME } from './months.js';

/**
 * The future in the past ("would", "was going to", "were gonna"; not "would have", a past that did not happen), a verb
 * of promising or planning told as past ("promised", "agreed to", "planned to"; not "I booked it on Monday", an act told as past), or a deadline ("by Tuesday", "by the
 * 15th": what is to be done by then).
 */
export const AHEAD_FROM_PAST = new RegExp([
  String.raw`\bwould(?!\s+(?:have|['’]ve)\b|n['’]t\s+have\b)`,
  String.raw`\b(?:was|were)\s+(?:going\s+to|gonna|due\s+to|about\s+to|supposed\s+to|meant\s+to)\b`,
  String.raw`\b(?:promised|swore|vowed|pledged)\b|\b(?:agreed|offered|planned|intended|arranged)\s+to\b`,
  String.raw`\bby\s+(?:(?:next|this|coming)\s+)?(?:${WEEKDAY_NAME}|tomorrow|the\s+\d{1,2}(?:st|nd|rd|th))\b`,
].join('|'), 'i');

/** True when `text` looks ahead from a past moment (`AHEAD_FROM_PAST`): a date it names is to come. */
export function aheadFromPast(text: string): boolean {
  return AHEAD_FROM_PAST.test(text);
}
