/**
 * Obligations said in the first person ("I need to renew my passport", "I have to return the library
 * books by Friday", "I've got to sell the bike", "I must send the invoice this week", "I should call
 * the plumber"): plans of the speaker's, which a later outcome or cancellation closes. Most such
 * sentences in chat are no plan: a maxim ("I need to sleep more", "I should exercise more", "I need
 * to spend more time with my kids"), a habit ("I have to take the bus every day"), a turn of phrase
 * ("I have to say the cake was great", "I must admit…"), a state ("I need to be patient"). The rule,
 * the same as for "we should / we need to" (`joint-plan.ts`): an obligation is a plan when it names a
 * time, or a particular thing of its own (with "the", "my", "this"…, or a named owner's: "Grandma's prescription"); not when it says "more", "less",
 * "better" (a resolution no single act fulfils) without a time, not a habit, and not a wish
 * (`planSubstance`).
 */
import { resolvePronouns, thirdPerson, type Perspective } from './pronouns.js';
import { FUTURE, HABIT, LEAVE_TAKING, MAXIM, NAMED_OWNER, OWN_THING } from './plan-cues.js';
import { planSubstance } from './plan-substance.js';

/** An obligation read from one sentence: its text with the speaker's name, and the first word of its action. */
export interface Obligation {
  content: string;
  verb: string;
}

/** Words before "I" that keep it the subject ("so I need to…", "okay, I have to…", "I think I should…"). */
const LEAD = String.raw`^(?:(?:well|so|okay|ok|alright|all right|right|yeah|yes|then|and|but|anyway|also|now|oh|ugh|honestly|actually|i think|i guess|i reckon|i suppose|i know)\b[\s,]*)*`;
/** Words between "I" and its modal that change nothing ("I really need to…", "I still have to…"). */
const ADV = String.raw`(?:\s+(?:really|definitely|probably|just|still|also|finally|actually|seriously|absolutely|totally|urgently))*`;
/** The ways of saying an obligation, as written in the fact ("needs to", "has got to", "must"). */
/** "I got to" alone is past ("I got to volunteer at the fair": was able to), not an obligation. */
const MODAL = String.raw`(?<how>\s+need to|\s+have to|['’]ve got to|\s+have got to|\s+gotta|\s+ought to|\s+must|\s+should)`;
const OBLIGATION = new RegExp(`${LEAD}I${ADV}${MODAL}${ADV}\\s+(?!not\\b|never\\b)(?<act>.+)`, 'i');

/** What follows the modal without naming something to do: a turn of phrase, a thought, a state, a past ("should have"). */
const NO_ACTION = /^(?:say|admit|confess|agree|mention|tell you|ask you|warn you|thank|apologi[sz]e|know|think|wonder|guess|imagine|remember|see|hope|be|have\s+\w+(?:ed|en)\b|have been|go now|get going|run now|leave now)\b/i;
/** A question tagged on at the end ("I should start one, shouldn't I"). */
const TAG_QUESTION = /\b(?:shouldn['’]t|mustn['’]t|don['’]t|haven['’]t|needn['’]t)\s+I\s*(?:[.!,]|$)|,\s*right\s*[.!]?$/i;

/** How the fact says the modal: "needs to", "has to", "has got to", "must", "should", "ought to". */
function modalPhrase(how: string): string {
  const m = how.trim().toLowerCase().replace(/^['’]ve got to$/, 'have got to').replace(/^gotta$/, 'got to');
  if (m === 'got to') return 'has got to';
  if (m === 'have got to') return 'has got to';
  if (m === 'must' || m === 'should' || m === 'ought to') return m;
  const [verb, ...rest] = m.split(' ');
  return [verb === 'have' ? 'has' : thirdPerson(verb ?? 'need'), ...rest].join(' ');
}

/**
 * The obligation a first-person sentence states as a plan, or null. `dated`: the sentence carries a
 * date (from the date reader). A question ("do I have to…?", "should I…?") asks and states nothing.
 */
export function readObligation(sentence: string, who: Perspective, dated: boolean): Obligation | null {
  const s = sentence.trim();
  if (/\?\s*$/.test(s) || HABIT.test(s)) return null;
  const m = s.match(OBLIGATION);
  if (!m?.groups?.how || !m.groups.act) return null;
  const action = m.groups.act.replace(/[.!]+$/, '').trim();
  // "I have to go, talk to you tomorrow": a leave-taking, no plan even with a date near.
  if (!action || NO_ACTION.test(action) || LEAVE_TAKING.test(action) || TAG_QUESTION.test(action)) return null;
  const timed = dated || FUTURE.test(action);
  if (!timed && (MAXIM.test(action) || !(OWN_THING.test(action) || NAMED_OWNER.test(action)))) return null;
  if (planSubstance(action, timed) === 'wish') return null;
  const verb = action.split(/\s+/)[0]!.toLowerCase();
  return { content: `${who.speaker} ${modalPhrase(m.groups.how)} ${resolvePronouns(action, who)}`, verb };
}
