/**
 * What a service call says out of politeness, read before the embedded rules run: the phatic openings and closings
 * ("thank you for calling Brightside, how can I help you today", "is there anything else", "have a nice day") tell
 * nothing to remember, and "I'm sorry James, I will…" is an apology and a call by name, not "X is sorry James".
 * Built for recognised speech too (lower case, no punctuation).
 */
import { couldBeName } from '../speaker/name-words.js';

/** Where a firm's name said after "thanks for calling" ends: the next phrase of the call, punctuation or the end. */
const ORG_END = String.raw`(?=\s+(?:this\s+is|my\s+name|how|what|you['’]re|you\s+are|i['’]m|i\s+am|it['’]s|today|speaking)\b|\s*[,.;:!?]|\s*$)`;
/** Words of a clause of one's own before "speaking" ("I was speaking…", "she is not speaking…"): no firm's answer. */
const NOT_FIRM = String.raw`(?:i|we|you|he|she|they|it|this|that|was|were|am|is|are|be|been|being|not|no|stop|stopped|start|started|keep|kept|avoid|public|of|after|before|while|when|without|like|love|hate|enjoy|for)`;
/** The formulas, each removed wherever it stands in a sentence. */
const FORMULAS: readonly RegExp[] = [
  // "thank you for calling brightside home services": not "thanks for calling me back".
  new RegExp(String.raw`\b(?:thank\s+you|thanks)(?:\s+(?:so|very)\s+much)?\s+for\s+(?:calling|contacting|phoning|ringing)(?!\s+(?:me|us|him|her|them|back)\b)(?:\s+[\w'’&-]+){0,6}?${ORG_END}`, 'gi'),
  new RegExp(String.raw`\b(?:hello\s+|hi\s+)?(?:and\s+)?welcome\s+to(?:\s+[\w'’&-]+){1,6}?${ORG_END}`, 'gi'),
  /\bhow\s+(?:can|may|could)\s+(?:i|we)\s+(?:help|assist)(?:\s+you)?(?:\s+today)?\b\??/gi,
  /\bwhat\s+can\s+(?:i|we)\s+do\s+for\s+you(?:\s+today)?\b\??/gi,
  /\b(?:is\s+there\s+)?anything\s+else(?:\s+(?:that\s+)?(?:i|we)\s+can\s+(?:help(?:\s+you)?\s+with|do\s+for\s+you|help\s+with))?(?:\s+today)?\b\??/gi,
  /\b(?:you['’]re|you\s+are)\s+(?:very\s+|most\s+|so\s+)?welcome\b/gi,
  /\b(?:you\s+)?have\s+a\s+(?:nice|good|great|lovely|wonderful|pleasant)\s+(?:day|evening|afternoon|morning|weekend|one)\b/gi,
  /\b(?:thank\s+you|thanks)(?:\s+(?:so|very)\s+much)?\s+for\s+(?:your\s+)?(?:call|patience|time|help|holding|waiting)\b/gi,
  // An agent answering: "Parcelo support, Raj speaking", "parcelo raj speaking" (calls2). Not "I was speaking to…", nor
  // "this is Raj speaking" (an introduction the rules read).
  new RegExp(String.raw`^(?:(?!${NOT_FIRM}\b)[\w'’&-]+[\s,]+){1,5}speaking\b(?!\s+(?:to|with|about|of|on|for|at|in|up|out)\b)`, 'gi'),
];
/** Words that say nothing once the formulas are gone ("thank you very much", "okay bye"). */
const COURTESY = /^(?:(?:thank|thanks|you|very|so|much|bye|goodbye|good|yes|yeah|ok|okay|and|great|lovely|perfect|right|hello|hi|take|care|cheers|again|sir|madam|too|all|the|best|then|oh|well|alright|sure|no|problem)\b[\s,.;:!?-]*)+$/i;

/**
 * `sentence` without its phatic formulas; "" when nothing else is said ("thanks for calling Brightside, how can I help
 * you today?"). What stays is read as said: "… this is Tom how can I help you" keeps "this is Tom".
 */
export function withoutPhatic(sentence: string): string {
  let out = sentence;
  for (const re of FORMULAS) out = out.replace(re, ' ');
  if (out === sentence) return sentence;
  out = out.replace(/\s+([,.;:!?])/g, '$1').replace(/^[\s,.;:!?-]+/, '').replace(/\s{2,}/g, ' ').trim();
  return /\p{L}/u.test(out) && !COURTESY.test(out) ? out : '';
}

/**
 * Thanks or "please" closing a sentence ("cancel my Thursday cleaning, thanks", "…, thank you", "… please", "…, cheers"):
 * no part of what it asks or tells (rules 76). Not "say thank you", "no thanks", "my thanks", "as / what you please",
 * nor a sentence of courtesy alone. Set off by a comma it closes any sentence ({@link COMMA_COURTESY_TAIL}); without one
 * only a request ({@link REQUEST}), and never as the word a sentence needs: after a determiner, "to", "as", a copula or
 * "many" ("hard to please", "a thank you", "flowers as thanks", "is Cheers"; rules 78).
 */
const NOT_AFTER = String.raw`(?<!\b(?:say|says|said|saying|no|my|our|your|his|her|their|(?:as|if|what|whatever)\s+(?:you|we|they|I|he|she)))`;
const THANKS = String.raw`(?:thanks|thank\s+you|many\s+thanks)(?:\s+(?:so|very)\s+much|\s+a\s+lot|\s+again)?`;
const COMMA_COURTESY_TAIL = new RegExp(String.raw`${NOT_AFTER}\s*,\s*(?:${THANKS}|please|cheers)\s*([.!?]*)\s*$`, 'i');
/**
 * Thanks a verb of thanking takes ("to give thanks", "extend many thanks"; rules 81) or a thanks given ("a big / quick thank
 * you"): the thing said, no courtesy. Only those verbs: "speak to Ben thanks", "pay thanks" close with a courtesy (rules 85).
 */
const THANKS_NOT_TAKEN = String.raw`(?<!\b(?:give|gives|gave|giving|express|expresses|expressed|expressing|offer|offers|offered|offering|send|sends|sent|sending|extend|extends|extended|extending|convey|conveys|conveyed|conveying|relay|relays|relayed|relaying|return|returns|returned|returning|owe|owes|owed|owing|pass\s+on|passes\s+on|passed\s+on|passing\s+on)\s+|\b(?:a|an)\s+(?:big|quick|huge|special|little|heartfelt|warm|massive|short|sincere|proper|personal|formal|final|brief|small)\s+)`;
const BARE_COURTESY_TAIL = new RegExp(String.raw`${NOT_AFTER}(?<!\b(?:a|an|the|this|that|any|some|many|much|more|to|as|of|for|with|is|was|are|were|be|been|am))`
  + String.raw`\s+(?:${THANKS_NOT_TAKEN}${THANKS}|please)\s*([.!?]*)\s*$`, 'i');
/**
 * A request: "can / could / would you…", "can I / we…", a wish said as one ("I would like…", "I'd like…", "I want…";
 * rules 80), or an imperative, whose first word is no subject ("Cancel my cleaning please", not "She is hard to please")
 * and is not followed by a verb of its own ("Maria needs…").
 */
const REQUEST = /^\s*(?:(?:ok(?:ay)?|so|and|hi|hello|oh|well|yes|now)[\s,]+)*(?:(?:can|could|would|will)\s+(?:you|i|we)\b|(?:i|we)(?:\s+would|['’]d)\s+like\b|(?:i|we)\s+want\b|(?!(?:i|we|you|he|she|they|it|my|our|your|his|her|their|its|the|a|an|this|that|these|those|there|here|what|who|someone|everyone|nobody)\b)\p{L}+\b(?!['’]s\b)(?!\s+(?:is|was|are|were|has|had|have|needs?|wants?|said|says|will|would|can|could|should|must)\b))/iu;

/** `sentence` without thanks or "please" closing it (see {@link COMMA_COURTESY_TAIL}); as said where nothing else would stay. */
export function withoutCourtesyTail(sentence: string): string {
  const m = COMMA_COURTESY_TAIL.exec(sentence) ?? (REQUEST.test(sentence) ? BARE_COURTESY_TAIL.exec(sentence) : null);
  if (!m) return sentence;
  const rest = sentence.slice(0, m.index);
  return rest.trim().split(/\s+/).length < 2 || COURTESY.test(rest) ? sentence : `${rest}${m[1] ?? ''}`;
}

/** "I'm (so) sorry James", "sorry James": the apology and the name called after it. */
const APOLOGY = /^\s*(?:(?:oh|well|so|no|yes|okay|ok)[\s,]+)?(?:(?:i\s+am|i['’]m|im)\s+)?(?:so\s+|very\s+|really\s+|terribly\s+)?sorry(?:\s+about\s+that)?[\s,]+([A-Za-z][a-z'’-]+)\b[\s,.!]*/i;

/**
 * The first name called in an apology that opens `text` ("i am sorry james i will process your refund"), or null. The
 * word must be a name (a listed first name, or capitalised in typed text), and a clause by the speaker ("I", "we") or
 * nothing must follow it: "sorry James is late" calls no one.
 */
export function apologyCall(text: string): string | null {
  const m = APOLOGY.exec(text);
  const word = m?.[1];
  if (!m || !word) return null;
  const rest = text.slice(m[0].length);
  if (rest.trim() !== '' && !/^(?:i|we|i['’]ll|i['’]m|i['’]ve|i['’]d|we['’]ll|we['’]re|let\s+me)\b/i.test(rest)) return null;
  // Typed text has capitals besides the pronoun "I" (which the rules write capitalised in recognised speech too).
  const cased = /\p{Lu}/u.test(text.replace(/\bI\b/g, '')) && /\p{Ll}/u.test(text);
  if (cased && !/^\p{Lu}/u.test(word)) return null;
  if (!couldBeName(word.toLowerCase(), undefined, cased)) return null;
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/**
 * `sentence` without the apology that opens it, and the name called in it: "I'm sorry James, I will process your refund"
 * → "I will process your refund"; "" when the apology is all it says ("I'm so sorry", "sorry James"). An apology for
 * something ("I'm sorry for the delay", "sorry I'm late" stays "I'm late") keeps what it is for.
 */
export function withoutApology(sentence: string, listeners: readonly string[]): string {
  const bare = /^\s*(?:(?:oh|well|so|no|yes|okay|ok)[\s,]+)?(?:(?:i\s+am|i['’]m|im)\s+)?(?:so\s+|very\s+|really\s+|terribly\s+)?sorry(?:\s+about\s+that)?\b[\s,.!]*/i;
  const m = bare.exec(sentence);
  if (!m) return sentence;
  let rest = sentence.slice(m[0].length);
  const called = apologyCall(sentence);
  const name = called ?? listeners.find((n) => new RegExp(`^${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(rest));
  if (name && rest.toLowerCase().startsWith(name.toLowerCase())) rest = rest.slice(name.length).replace(/^[\s,.!]+/, '');
  if (rest.trim() === '') return '';
  return /^(?:i|we)\b/i.test(rest) ? rest.charAt(0).toUpperCase() + rest.slice(1) : sentence;
}
