/**
 * Cues that tell a plan from a habit or a maxim, shared by the readers of plans said with "we"
 * (`joint-plan.ts`), of first-person obligations (`obligation.ts`) and by plan-object matching
 * (`plan-object.ts`): a habit ("we usually…", "every day"), a time to come said in words
 * ("tomorrow", "next week", "by Friday"), and a definite thing of the action's own ("the hotel",
 * "my passport").
 */
import { MONTH_NAME } from './months.js';

/** Words of frequency: what is done again and again, not once. */
const FREQUENCY = 'usually|always|often|sometimes|normally|generally';

/** A habit ("every day", "usually", "we'll always…") or a resolution kept over time ("more often", "regularly"). */
export const HABIT = new RegExp(`\\b(?:${FREQUENCY}|never|regularly|every (?:day|morning|evening|night|week|weekend|month|time)|each (?:day|morning|week)|daily|weekly)\\b`, 'i');

/** A time to come, said in words ("tomorrow", "next week", "this month", "on Friday", "by the end of…", "for March"). */
export const FUTURE = new RegExp(String.raw`\b(?:(?:in|for|before|until) (?:${MONTH_NAME})\b|tomorrow|tonight|next|this (?:weekend|week|month|year|spring|summer|autumn|fall|winter|evening|afternoon|morning)|soon|later|in (?:a|two|three|a few) (?:days?|weeks?|months?)|on (?:the \d|mon|tue|wed|thu|fri|sat|sun)|by (?:mon|tue|wed|thu|fri|sat|sun|${MONTH_NAME}|the end|tomorrow|next))`, 'i');

/**
 * A modal or verb that looks ahead ("will", "'ll", "going to", "gonna", "shall", "need / have / want / hope /
 * plan to", "about to"): what a sentence with one tells is still to come. Read by the date reader (such a sentence is
 * not told of the past) and by the pronoun rules (a "we" said with one is often a plan made together).
 */
export const LOOKS_AHEAD = /(?:['’]ll\b|\b(?:will|shall|going to|gonna|(?:need|have|want|hope|plan(?:ning)?|about) to)\b)/i;

/**
 * A particular thing of the action's own ("the hotel", "my passport"), not any one ("a job") or none
 * ("sleep"); a "that" with no noun after it points back at what someone else said ("I need to try baking that").
 */
export const OWN_THING = /\b(?:the|that|this|these|those|my|our|your|his|her|their)\s+(?!(?:is|was|are|were|too|again)\b)[a-z]/i;

/** A named owner's thing ("Grandma's prescription", "Tom's bike"): as particular as "my" makes it. */
export const NAMED_OWNER = /\b[A-Z][a-z]+['’]s\s+[a-z]/;

/** A comparative: a resolution no single act fulfils ("drink more water", "take better care of my car"). */
export const MAXIM = /\b(?:more|less|fewer|better|harder|healthier)\b/i;

/** Modifiers that leave a farewell a farewell ("soon", "later", "again", "sometime"). */
const VAGUE = String.raw`(?:\s+(?:again|soon|later|sometime|some time|another time|then|properly|shortly|in a (?:bit|while)|at some point|one of these days|before long|real soon|very soon|more|with each other|(?:to|with) (?:you|u)))*`;

/**
 * A farewell said as a plan: talking again with no topic or time of its own ("let's chat soon",
 * "let's catch up later", "let's talk again soon", "talk to you soon"). "Let's chat about the budget on
 * Monday" names a topic and a day: a plan.
 */
export const FAREWELL = new RegExp(String.raw`^(?:chat|talk|speak|catch up|touch base|(?:keep|stay|get) in touch)${VAGUE}\s*[.!]*$`, 'i');

/**
 * A leave-taking said as an obligation ("I have to go", "I have to run, speak to you on Monday", "we need
 * to get going now"): leaving the conversation, with nothing after it but "now" or the end of the clause.
 * "I have to go to the dentist", "I have to leave for the airport" name where to: plans.
 */
export const LEAVE_TAKING = /^(?:go|run|dash|leave|split|head off|head out|get going|get off|shoot off|sign off|log off|hop off|jump off)(?:\s+(?:now|soon|for now|right now|too|then|so|in a (?:bit|minute|sec|second|moment)))*\s*(?:[,;:.!?—–-]|$)/i;

/**
 * True for a text that tells a habit or a resolution kept over time, not one act ("Lena should call
 * Lena's mum more often", "Lena should always check the tyres"): no single outcome fulfils it.
 */
export function habitOrMaxim(text: string): boolean {
  return HABIT.test(text) || MAXIM.test(text);
}
