/**
 * Temporary values outside residence (rules 30): a state said with its end that the other rules leave as a plain
 * statement ("I'm on a juice cleanse for a few days", "I'm working as a lifeguard for two weeks", "I'm temping at a law
 * firm until Friday", "I'm on leave until January", "Leela and I are on a break until the new year") fills the slot its
 * lasting form fills (`diet`, `occupation`, `works_at`, `status`, `relationship`), so a present-tense question gets it
 * before the lasting value it interrupts and a lasting question the lasting value (pipelines/retrieval/where-asked.ts).
 */

import { IDIOM_NOUN } from './changes.js';
import { holdsAJob, likeableThing, type LikedBy } from './kinds.js';
import { DONE, GONE, PLAYED } from './standing-slots.js';
import { withoutTurnedDown } from './rejected-alternative.js';
import { STAY_SLOT } from './stays.js';
import { MONTH_NAME, WEEKDAY_NAME } from './months.js';

/**
 * Slots whose values interrupt the lasting value of another slot, by that slot: a stay (`staying_in`) interrupts the
 * home (`lives_in`), a leave or sabbatical (`status`) the occupation. Any other slot's temporary values interrupt its
 * own lasting ones ("working at Hooli until Friday", `works_at` with an end, interrupts "I work at Initech").
 */
const INTERRUPTS: Readonly<Record<string, string>> = { [STAY_SLOT]: 'lives_in', status: 'occupation' };

/** The slot whose lasting value a value of `slot` interrupts, or replaces: `lives_in` for `staying_in`, else as given. */
export function lastingSlotOf(slot: string): string {
  return INTERRUPTS[slot] ?? slot;
}

/**
 * Slots of one family by their prefix: every `sport:*` slot is one family (rules 31), "playing tennis this month"
 * interrupts "I play football"; every `preference:*` slot (rules 33), "for now I prefer sparkling water"
 * (`FOR_NOW_PREFERENCE`) interrupts "I prefer red wine"; and every `favourite:*` slot with them (rules 34): "my
 * favourite drink is coffee" is a lasting liking as "I prefer coffee" is, so "I prefer tea for the next few days"
 * interrupts it. One family for the present/lasting order only: the slots stay apart, so a favourite is replaced only
 * by another favourite of its kind, a liking only by its own withdrawal.
 */
const FAMILY_PREFIXES: ReadonlyArray<[prefix: string, family: string]> = [['sport:', 'sport'], ['preference:', 'preference'], ['favourite:', 'preference']];

/**
 * The family of `slot`: the values that interrupt one another, read together by the present/lasting order
 * (pipelines/retrieval/where-asked.ts): a stay and the home (`lastingSlotOf`), every sport.
 */
export function slotFamily(slot: string): string {
  return FAMILY_PREFIXES.find(([prefix]) => slot.startsWith(prefix))?.[1] ?? lastingSlotOf(slot);
}

/**
 * A person's preference held for now, with no end said ("for now I prefer green tea", "these days I'm drinking decaf",
 * "at the moment I'm into jazz"; rules 33): one slot per person, so the next one said for now replaces it, and apart
 * from the lasting preferences (`preference:<thing>`), which it interrupts and leaves current. (`slotKey` never gives
 * a thing's key an underscore: no thing's slot is this one.)
 */
export const FOR_NOW_PREFERENCE = 'preference:for_now';

/**
 * Slots whose values are temporary by their nature, said with an end or not: a status ("on strike", "on leave"; rules
 * 31), a preference held for now (rules 33).
 */
const TEMPORARY_BY_NATURE: ReadonlySet<string> = new Set(['status', FOR_NOW_PREFERENCE]);

/** Whether a value of `slot` is temporary by its nature, with no end of its own said. */
export function temporaryByNature(slot: string): boolean {
  return TEMPORARY_BY_NATURE.has(slot);
}

/** What a temporary state fills: the slot its lasting form fills, and its value as said. */
export interface TemporarySlot {
  slot: string;
  value: string;
  /** The memory's kind: a profile value, or a sport's preference (rules 31); absent: profile. */
  kind?: 'preference';
}

const BE = String.raw`\b(?:I|[Ww]e)(?:['’]m|\s+am|['’]re|\s+are)(?:\s+(?:currently|still|now|just|also))?`;
/** Where a value ends: an end said, a clause boundary. */
const STOP = String.raw`(?=\s+(?:for|until|till|til|through|thru|this|next|over|during|while|and|but|so|because)\b|\s*[,.;!?]|\s*$)`;
const DIET_WORD = String.raw`(?:diet|cleanse|detox|fast)`;

const RULES: ReadonlyArray<{ slot: string; re: RegExp }> = [
  // "on a juice cleanse", "on a low-carb diet", "fasting", "doing keto".
  { slot: 'diet', re: new RegExp(String.raw`${BE}\s+(?:on\s+(?:a|an)\s+((?:[\w-]+\s+){0,2}?${DIET_WORD})\b|(fasting)\b|doing\s+(keto|paleo|whole30|intermittent\s+fasting|(?:a|an)\s+(?:[\w-]+\s+){0,2}?${DIET_WORD}\b))`, 'i') },
  // "working as a lifeguard".
  { slot: 'occupation', re: new RegExp(String.raw`${BE}\s+(?:working|employed)\s+as\s+(?:a|an)\s+([a-z][a-z -]*?)${STOP}`) },
  // "a barista for the holidays", "a lifeguard for the summer holidays" (rules 33): a job with its end, no "working as".
  { slot: 'occupation', re: new RegExp(String.raw`\bI(?:['’]m|\s+am)(?:\s+(?:currently|still|now|just|also))?\s+(?:a|an)\s+([a-z][a-z -]*?)${STOP}`) },
  // "temping at a law firm", "covering at the clinic", "filling in at the café".
  { slot: 'works_at', re: new RegExp(String.raw`${BE}\s+(?:temping|covering|filling\s+in|helping\s+out|subbing)\s+(?:at|for|in)\s+((?:the|a|an)\s+[a-z][^,.;!?]*?)${STOP}`) },
  // "on leave", "on paternity leave", "on sabbatical", "off work on sick leave", "on strike" (rules 31).
  { slot: 'status', re: new RegExp(String.raw`${BE}\s+(?:off\s+work\s+)?(?:out\s+)?(on\s+(?:[a-z]+\s+)?(?:leave|sabbatical|furlough|strike))\b`) },
  // "Leela and I are on a break", "we're taking a break".
  { slot: 'relationship', re: /\b(?:[A-Z][a-z]+\s+and\s+I|[Ww]e)\s+(?:are|['’]re)\s+((?:on|taking)\s+a\s+break)\b/ },
  // "playing tennis this month", "doing yoga for a few weeks", "swimming until March": a sport for a time (rules 31).
  { slot: 'sport', re: new RegExp(String.raw`${BE}\s+(?:playing\s+(${PLAYED})|doing\s+(${DONE})|(${GONE}))${STOP}`, 'i') },
];

/**
 * The slot and value a first-person temporary state fills by its words; null when none of the rules reads it.
 * A job needs a job-holder (`holdsAJob`: "a lifeguard", not "a mess this week"); `isNounPhrase` (from POS tags) is its
 * fallback for a word WordNet does not list, and keeps "I'm a bit tired this week" from being read as a job.
 */
export function temporarySlot(sentence: string, isNounPhrase: (phrase: string) => boolean = () => true): TemporarySlot | null {
  if (/\?\s*$/.test(sentence)) return null;
  for (const { slot, re } of RULES) {
    const m = re.exec(sentence);
    const said = m?.slice(1).find((g) => g !== undefined)?.trim();
    if (said && slot === 'occupation' && (said.split(' ').length > 3 || IDIOM_NOUN.test(said) || !holdsAJob(said, isNounPhrase))) continue;
    if (said && slot === 'sport') {
      const value = said.toLowerCase().replace(/\s+/g, ' ');
      return { slot: `sport:${value.replace(/ /g, '_')}`, value, kind: 'preference' };
    }
    if (said) return { slot, value: said.replace(/^(?:a|an)\s+/i, '').replace(/^taking\s+/i, 'on ').toLowerCase() };
  }
  return null;
}

/** Words that hold a value for now, with no end ("for now", "for the moment", "these days", "at the moment"). */
export const FOR_NOW_CUE = String.raw`(?:for\s+now|for\s+the\s+(?:moment|time\s+being)|at\s+the\s+moment|at\s+present|these\s+days|nowadays|right\s+now|currently|lately)`;
const I_SAY = String.raw`\bI(?:\s+(?:really|mostly|just|also))?`;
const I_BE = String.raw`\bI(?:['’]m|\s+am)(?:\s+(?:really|mostly|just|also|currently))?`;
/** What is held: up to a cue, a clause's end or a conjunction. */
const HELD = String.raw`([^,.;!?]+?)(?=\s+(?:${FOR_NOW_CUE}|and|but|because|so|though)\b|\s*[,.;!?]|\s*$)`;
/** How a liking is said: "I prefer", "I love", "I drink" (rules 34), "I'm into", "I'm drinking"; the thing held after it. */
const LIKING_SAID = (held: string): RegExp[] => [
  new RegExp(String.raw`${I_SAY}\s+(?:prefer|love|like|enjoy|drink|eat|listen\s+to|read|watch)\s+${held}`, 'i'),
  new RegExp(String.raw`${I_BE}\s+(?:(?:really\s+)?into|drinking|eating|listening\s+to|reading|watching)\s+${held}`, 'i'),
];
const FOR_NOW_SAID = LIKING_SAID(HELD);
/** What is held for a time: up to its end ("for two weeks", "until the new year", "this week") or a clause's end. */
const HELD_TILL_END = String.raw`([^,.;!?]+?)(?=\s+(?:for|until|till|til|through|thru|this|next|over|during|and|but|because|so|though)\b|\s*[,.;!?]|\s*$)`;
const FOR_A_TIME_SAID = LIKING_SAID(HELD_TILL_END);

/**
 * The thing a first-person sentence says the speaker prefers for now (rules 33: `FOR_NOW_PREFERENCE`): a liking said with a
 * cue of the present and no end ("For the moment I prefer sparkling water", "These days I'm drinking decaf", "At the
 * moment I'm into jazz", "I'm drinking rooibos for now"); null for a question, a dislike, a past, or no cue.
 */
export function forNowPreference(sentence: string): string | null {
  if (/\?\s*$/.test(sentence) || !new RegExp(String.raw`\b${FOR_NOW_CUE}\b`, 'i').test(sentence)) return null;
  // "For now I prefer tea, not coffee": the "not" turns down the alternative, it denies no liking (life5).
  return likingSaid(withoutTurnedDown(sentence)?.kept ?? sentence, FOR_NOW_SAID);
}

/**
 * How the liking matched as `said` is said: by a drink or food verb, by an activity verb ("listening to", "reading",
 * "watching"), or as a liking.
 */
function likedBy(said: string): LikedBy {
  if (/\b(?:drink|drinking|eat|eating)\b/i.test(said)) return 'consumed';
  return /\b(?:listen(?:ing)?\s+to|read(?:ing)?|watch(?:ing)?)\b/i.test(said) ? 'done' : 'liked';
}

/**
 * The thing a liking said by one of `said` holds; null for a past, a negation, or no thing named. `likeable` (rules 35)
 * also wants a likeable kind (`likeableThing`): "I like the plan for now" holds no liking.
 */
function likingSaid(sentence: string, said: ReadonlyArray<RegExp>, likeable = true): string | null {
  if (/\b(?:used\s+to|was|were|n['’]t|not|never|no\s+longer)\b/i.test(sentence)) return null;
  for (const re of said) {
    const m = re.exec(sentence);
    const held = m?.[1]?.trim().replace(/^(?:a\s+lot\s+of|lots\s+of)\s+/i, '');
    const thing = held?.replace(/^(?:my|the|a|an|some)\s+/i, '');
    if (!thing || thing.split(/\s+/).length > 4 || /^(?:it|that|this|them|to)\b/i.test(thing)) continue;
    // "Listening to synthwave" names a kind one likes; "listening to a podcast" one thing one does (rules 36).
    const by = likedBy(m![0]);
    // "For now I'm reading a thriller": one thing done is what one does, not a taste, whatever its kind (rules 37).
    const oneDone = by === 'done' && /^an?\s/i.test(held!);
    return !likeable || (!oneDone && likeableThing(thing, sentence, by === 'done' && thing === held ? 'liked' : by)) ? thing : null;
  }
  return null;
}

/**
 * True when a first-person sentence says a liking held for now or for a time (`forNowPreference`, `preferenceForATime`)
 * of a thing of no likeable kind (rules 35: "For now I like the plan", "I prefer Tuesday for now"): an opinion of the
 * moment, no preference. `ended` says whether the sentence names the end (`stateEnd`).
 */
export function unlikeableLiking(sentence: string, ended: boolean): boolean {
  if (/\?\s*$/.test(sentence)) return false;
  if (!ended && !new RegExp(String.raw`\b${FOR_NOW_CUE}\b`, 'i').test(sentence)) return false;
  const said = ended ? FOR_A_TIME_SAID : FOR_NOW_SAID;
  return likingSaid(sentence, said, false) !== null && likingSaid(sentence, said) === null;
}

/**
 * The thing a first-person sentence says the speaker prefers for a time whose end it names (rules 34: "This week I'm
 * really into techno", "I prefer tea for the next few days", "I'm reading poetry for a month"): the same slot as a
 * preference held for now (`FOR_NOW_PREFERENCE`), its end the fact's own. The caller has read the end (`stateEnd`);
 * null for a question, a dislike, a past, or no liking said.
 */
export function preferenceForATime(sentence: string): string | null {
  return /\?\s*$/.test(sentence) ? null : likingSaid(sentence, FOR_A_TIME_SAID);
}

/** What one is back on or to that is no liking: a time ("back on Monday"), a place or a state ("back to work", "on track"). */
const NOT_A_LIKING = new RegExp(String.raw`^(?:${WEEKDAY_NAME}|${MONTH_NAME}|tomorrow|tonight|today|next|the\s+(?:\d|first|second|third|weekend|office)|\d|work|school|uni|college|home|normal|track|form|duty|my\s+feet|square\s+one|it|that|this|them|him|her)\b`, 'i');

/** "I'm back on …", "I've gone back to …", "I'm drinking … again": a lasting liking said again after a for-now one. */
const SAID_AGAIN: ReadonlyArray<RegExp> = [
  new RegExp(String.raw`\bI(?:['’]m|\s+am|['’]ve|\s+have)\s+(?:gone\s+|going\s+|come\s+)?back\s+(?:on|to)\s+(?:(?:drinking|eating|listening\s+to|reading|watching)\s+)?${HELD_TILL_END}`, 'i'),
  // "Again" after a liking, a drink or food, not after reading or watching ("I'm reading the report again" is no liking).
  new RegExp(String.raw`${I_SAY}\s+(?:prefer|love|like|enjoy|drink|eat|listen\s+to)\s+([^,.;!?]+?)\s+again\b`, 'i'),
  new RegExp(String.raw`${I_BE}\s+(?:(?:really\s+)?into|drinking|eating|listening\s+to)\s+([^,.;!?]+?)\s+again\b`, 'i'),
];

/**
 * The thing a first-person sentence says the speaker likes again (rules 34: "I'm back on regular coffee", "I'm drinking
 * black coffee again", "I've gone back to jazz"): a lasting liking that ends the one held for now (`FOR_NOW_PREFERENCE`);
 * null for a question, a negation, a past, or none said.
 */
export function preferenceSaidAgain(sentence: string): string | null {
  const thing = /\?\s*$/.test(sentence) ? null : likingSaid(sentence, SAID_AGAIN);
  return thing && !NOT_A_LIKING.test(thing) ? thing : null;
}
