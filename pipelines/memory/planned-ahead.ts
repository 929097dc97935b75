/**
 * A plan told as made (rules 90, newcomer trial): "We planned a trip to Lisbon in May" is a trip still to come, told
 * as a plan being made ("We are planning a trip to Lisbon in May"), so it is read as a plan for the coming May that a
 * later "we had to cancel the Lisbon trip" closes (it was a done act of last May).
 */
import { FUTURE } from './plan-cues.js';

/**
 * "I / we (have) planned a / an …": a plan made, of a thing named. Not "had planned" ("We had planned a trip to Japan in
 * April…"): a plan told as overtaken (rules 96).
 */
const PLANNED = /^(\W*)(I|we)(?:['’]ve|\s+have)?\s+planned\s+(?=(?:a|an)\s)/i;
/**
 * A time said as past beside it ("last May", "in May last year", "ago"), or a clause after it telling how it went ("…and
 * it was amazing", "…but then covid hit"; rules 96): the plan's time is behind.
 */
const PAST_TIME = /\b(?:last|ago|yesterday|previous)\b|\b(?:and|but|so)\b[^.?!]*\b(?:was|were|went|got|came|hit|ended|happened|turned\s+out|fell\s+through|did\s+not|didn['’]t|never)\b/i;

/** `sentence` with a plan told as made of a thing at a time to come said as a plan being made; as said otherwise. */
export function withPlannedAhead(sentence: string): string {
  if (!PLANNED.test(sentence) || !FUTURE.test(sentence) || PAST_TIME.test(sentence)) return sentence;
  return sentence.replace(PLANNED, (_m, lead: string, who: string) => `${lead}${who} ${/^i$/i.test(who) ? 'am' : 'are'} planning `);
}
