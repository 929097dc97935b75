/**
 * What a meeting says to run itself, and a topic said first (trial10 F5): "Alright, thanks everyone, see you next
 * week", "let's go through the action items" and "Hmm, that seems like a lot" tell nothing to remember, and were facts
 * ("Ana, Chidi, Dana and Ben plan to go through action items"); "About the budget, I changed my mind" is "I changed my
 * mind about the budget".
 */
import { WEEKDAY_NAME } from './months.js';

/** An interjection or acknowledgement that opens or joins the rest. */
const INTERJECTION = String.raw`(?:hmm+|hm+|mm+|oh|ah|wow|well|so|ok|okay|alright|all right|right|yeah|yes|great|good|cool|perfect|and)`;
/** The room as one says it to them. */
const ROOM = String.raw`(?:everyone|everybody|all|you all|all of you|guys|folks|team|people)`;
/** When one sees a room again. */
const AGAIN = String.raw`(?:next (?:week|time|month|meeting)|tomorrow|soon|later|then|around|on ${WEEKDAY_NAME})`;
/** What a meeting goes through: its own items, not a subject of its own ("let's review the budget" stays). */
const MEETING_ITEMS = String.raw`(?:(?:the|our|today['’]s|this week['’]s|last week['’]s)\s+)?(?:action items|agenda|next (?:item|point|topic)|updates|notes|minutes|items|points|list|status)`;
/** A meeting's step: "let's get started", "let's go through the action items", "let's wrap up". */
const STEP = String.raw`(?:let['’]?s|let us)\s+(?:(?:go|run)\s+(?:through|over)\s+${MEETING_ITEMS}|get\s+(?:started|going)|start|begin|wrap(?:\s+(?:it|this))?\s+up|move\s+on|recap|review\s+${MEETING_ITEMS}|look\s+at\s+${MEETING_ITEMS})`;
/** A reaction to what was just said, with nothing named: "that seems like a lot", "that sounds good", "that's a lot". */
const REACTION = String.raw`that(?:['’]s|\s+is)?\s+(?:(?:seems|sounds|looks|feels)\s+(?:like\s+)?)?(?:a\s+lot|a\s+bit\s+much|too\s+much|a\s+plan|(?:(?:really|very|quite|pretty|a\s+bit|too|so)\s+)?(?:good|great|fine|fair|reasonable|ok|okay|right|tight|high|low|much|interesting|ambitious|steep|expensive|doable))`;
/** The parts a meeting's formula is made of, each a whole comma-separated part of the sentence; a bare reaction with `reaction`. */
const partOf = (reaction: boolean): RegExp => new RegExp(String.raw`^(?:${INTERJECTION}|(?:thanks|thank\s+you)(?:\s+(?:so|very)\s+much)?(?:\s+${ROOM})?|(?:see\s+you|bye|goodbye)(?:\s+${ROOM})?(?:\s+${AGAIN})?`
  + String.raw`|${STEP}${reaction ? `|${REACTION}` : ''}|(?:good|great|nice)\s+(?:meeting|session|work|job|discussion)(?:\s+${ROOM})?)$`, 'i');
const PART = partOf(true);
const PART_ANSWERING = partOf(false);

/**
 * True when `sentence` is, whole, a meeting's formula or a bare reaction (`PART` for each comma-separated part): a
 * thanks, a farewell, a step of the meeting ("let's go through the action items") or a reaction naming nothing ("Hmm,
 * that seems like a lot"). No memory. "Let's review the budget", "that seems like a lot for the venue" stay. Said
 * `afterQuestion` (the turn before, by someone else, asks one: "So it's 12 Elm Street?"), a reaction is an answer
 * ("Okay, that's right", "Yes, that's high") and stays (review12 F9).
 */
export function meetingFormula(sentence: string, afterQuestion = false): boolean {
  const parts = sentence.replace(/[.!?]+\s*$/, '').split(/\s*[,;:—–]\s*|\s+-\s+/).map((p) => p.trim()).filter((p) => p.length > 0);
  const part = afterQuestion ? PART_ANSWERING : PART;
  return parts.length > 0 && parts.every((p) => part.test(p));
}

/** Words after which a topic said first reads naturally as "… about <topic>" ("changed my mind", "I'm not sure"). */
const TAKES_ABOUT = /\b(?:mind|sure|unsure|worried|wrong|right|thinking|thought|talked|spoke|asked|forgot|heard|care|cares|excited|concerned|curious|mistaken|doubts|feel|feels|felt)$/i;
/** "About the budget, …", "As for the budget, …", "Regarding the launch, …": the topic, then the clause. */
const TOPIC_FIRST = /^(?:about|regarding|as\s+for|as\s+to)\s+((?:the|my|our|this|that|your)\s+[\w'’ -]{1,40}?),\s+(.+?)([.!?]*)$/i;

/**
 * `sentence` with a topic said first moved after the clause it is about, where the clause ends in a word that takes
 * "about" (`TAKES_ABOUT`): "About the budget, I changed my mind." → "I changed my mind about the budget."; else as said
 * ("About the budget, we cut it by ten percent" keeps its order).
 */
export function withTopicLast(sentence: string): string {
  const m = TOPIC_FIRST.exec(sentence.trim());
  if (!m?.[1] || !m[2] || !TAKES_ABOUT.test(m[2].trim())) return sentence;
  const clause = m[2].trim();
  return `${clause.charAt(0).toUpperCase()}${clause.slice(1)} about ${m[1]}${m[3] ?? ''}`;
}
