/**
 * Cues that tell a plan from a habit or a maxim, shared by the readers of plans said with "we"
 * (`joint-plan.ts`), of first-person obligations (`obligation.ts`) and by plan-object matching
 * (`plan-object.ts`): a habit ("we usually…", "every day"), a time to come said in words
 * ("tomorrow", "next week", "by Friday"), and a definite thing of the action's own ("the hotel",
 * "my passport").
 */

/** Words of frequency: what is done again and again, not once. */
const FREQUENCY = 'usually|always|often|sometimes|normally|generally';

/** A habit ("every day", "usually", "we'll always…") or a resolution kept over time ("more often", "regularly"). */
export const HABIT = new RegExp(`\\b(?:${FREQUENCY}|never|regularly|every (?:day|morning|evening|night|week|weekend|month|time)|each (?:day|morning|week)|daily|weekly)\\b`, 'i');

/** A time to come, said in words ("tomorrow", "next week", "this month", "on Friday", "by the end of…"). */
export const FUTURE = /\b(?:tomorrow|tonight|next|this (?:weekend|week|month|year|spring|summer|autumn|fall|winter|evening|afternoon|morning)|soon|later|in (?:a|two|three|a few) (?:days?|weeks?|months?)|on (?:the \d|mon|tue|wed|thu|fri|sat|sun)|by (?:mon|tue|wed|thu|fri|sat|sun|january|february|march|april|may|june|july|august|september|october|november|december|the end|tomorrow|next))/i;

/**
 * A particular thing of the action's own ("the hotel", "my passport"), not any one ("a job") or none
 * ("sleep"); a "that" with no noun after it points back at what someone else said ("I need to try baking that").
 */
export const OWN_THING = /\b(?:the|that|this|these|those|my|our|your|his|her|their)\s+(?!(?:is|was|are|were|too|again)\b)[a-z]/i;

/** A comparative: a resolution no single act fulfils ("drink more water", "take better care of my car"). */
export const MAXIM = /\b(?:more|less|fewer|better|harder|healthier)\b/i;
