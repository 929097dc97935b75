/**
 * Plans said with "we" ("we'll have a picnic on Saturday", "we're going to repaint the kitchen",
 * "let's get together on Friday", "shall we book the cabin?"): the speaker's and the addressees'
 * together, written with all their names ("Lena and Ben will have a picnic on Saturday").
 */
import { inclusiveWe, resolvePronouns, weTogether, type Perspective } from './pronouns.js';
import { FAREWELL, FUTURE, HABIT, LEAVE_TAKING, OWN_THING } from './plan-cues.js';
import { planSubstance } from './plan-substance.js';
import { edgeVocatives } from '../speaker/vocatives.js';

/** A joint plan read from one sentence: its text with names, and the first word of its action. */
export interface JointPlan {
  content: string;
  verb: string;
  /** Whether the people addressed are in it ("let's…", "we'll…"), or only the speaker's own people ("we decided to…"). */
  shared: boolean;
}

/** Words that place a dated sentence behind now ("we decided last week to…"). */
const BEHIND = /\b(?:last|ago|yesterday|earlier|previously)\b/i;

/** Words before "we" that keep it the subject ("so we'll…", "I think we should…", "okay, let's…"). */
const LEAD = String.raw`^(?<lead>(?:(?:well|so|okay|ok|alright|all right|right|yeah|yes|then|and|but|anyway|great|perfect|good|cool|maybe|perhaps|i think|i guess|i reckon|i suppose)\b[\s,]*)*)`;
/** A time said first ("next Saturday we're…", "on Friday, let's…", "after the holidays we'll…"). */
const WHEN = String.raw`(?:(?<when>(?:next|this|on|in|at|after|before|tomorrow|tonight|later|soon)\b[^,.;!?]{0,30}?),?\s+)?`;
/** Words between "we" and its verb that change nothing ("we'll all…", "we should really…"). */
const ADV = String.raw`(?:\s+(?:all|both|really|definitely|probably|just|still|also|finally|actually|then|totally|absolutely|certainly))*`;
/** Verbs of a progressive that tells a plan ("we're flying to Madrid on the 12th"). */
const MOVES = 'going|flying|travell?ing|driving|heading|moving|visiting|starting|taking|leaving|meeting|seeing|attending|having|hosting|celebrating|throwing|planning|organi[sz]ing|arranging|getting|doing|running|joining|staying|spending';

/** The modal or verb a mode captured ("need", "'ve decided"), lower-case. */
const how = (m: RegExpMatchArray): string => (m.groups?.how ?? '').trim().toLowerCase();

/** Each way of saying a joint plan, and how the fact says it ("will", "are going to", "should"). */
const MODES: Array<{ re: RegExp; say: (m: RegExpMatchArray) => string; weak?: boolean; dated?: boolean }> = [
  { re: new RegExp(`${LEAD}${WHEN}let(?:['’]s| us) not forget to\\s+(?<act>.+)`, 'i'), say: () => 'will' },
  { re: new RegExp(`${LEAD}${WHEN}let(?:['’]s| us)${ADV}\\s+(?!not\\b)(?<act>.+)`, 'i'), say: () => 'plan to' },
  { re: new RegExp(`${LEAD}${WHEN}(?:shall we|why don['’]t we|how about we|what about we)${ADV}\\s+(?<act>.+)`, 'i'), say: () => 'could' },
  { re: new RegExp(`${LEAD}${WHEN}we(?:['’]ll|\\s+will|\\s+shall)${ADV}\\s+(?!not\\b|never\\b)(?<act>.+)`, 'i'), say: () => 'will' },
  { re: new RegExp(`${LEAD}${WHEN}we(?:(?:['’]re|\\s+are)${ADV}\\s+going to|(?:['’]re|\\s+are)?${ADV}\\s+gonna)\\s+(?<act>.+)`, 'i'), say: () => 'are going to' },
  {
    re: new RegExp(`${LEAD}${WHEN}we(?:['’]re|\\s+are)${ADV}\\s+(?<how>planning|hoping|intending|aiming) to\\s+(?<act>.+)`, 'i'),
    say: (m) => `are ${how(m)} to`,
  },
  {
    re: new RegExp(`${LEAD}${WHEN}we${ADV}(?<how>\\s+plan|\\s+want|\\s+hope|\\s+intend|\\s+aim|(?:['’]ve|\\s+have)?${ADV}\\s+decided|['’]d (?:like|love)|\\s+would (?:like|love)) to\\s+(?<act>.+)`, 'i'),
    say: (m) => `${how(m).replace(/^['’]ve\b/, 'have').replace(/^['’]d\b/, 'would').replace(/\s+/g, ' ')} to`,
  },
  {
    re: new RegExp(`${LEAD}${WHEN}we${ADV}(?<how>\\s+need|\\s+have|['’]ve got|\\s+have got|\\s+ought) to${ADV}\\s+(?<act>.+)`, 'i'),
    say: (m) => `${how(m).replace(/^['’]ve got/, 'have got')} to`, weak: true,
  },
  { re: new RegExp(`${LEAD}${WHEN}we${ADV}\\s+(?<how>should|must)${ADV}\\s+(?!not\\b|never\\b|have\\b)(?<act>.+)`, 'i'), say: how, weak: true },
  { re: new RegExp(`${LEAD}${WHEN}we(?:['’]re|\\s+are)${ADV}\\s+(?<act>(?:${MOVES})\\b.+)`, 'i'), say: () => 'are', dated: true },
];

/** What follows a modal without making a plan ("we'll see", "we'll be fine", "let's say…", "let's face it"). */
const NO_ACTION = /^(?:see|say|face|hope|assume|suppose|imagine|pretend|manage|survive|cope|miss|know|wait and see|be (?:fine|ok|okay|alright|all right|honest|clear|real|careful|friends)|get (?:through|over|used)|figure (?:it|this|that|something) out|move on|recap|focus)\b/i;
/** "Going to" followed by a place, not a verb ("…going to the lake house", "…going to Lisbon"). */
const GOING_TO_PLACE = /^(?:the|a|an|my|our|your|his|her|their|this|that|some)\b|^[A-Z]/;

/** The action without a name it is said to at its end ("…unforgettable, Gina"; `edgeVocatives`). */
function withoutVocative(action: string, who: Perspective): string {
  const closing = edgeVocatives(action, who.addressees.filter(Boolean)).find((v) => v.at === 'closing');
  return closing ? (action.slice(0, closing.start) + action.slice(closing.end)).trim() : action;
}

/**
 * The joint plan a sentence states, or null. `dated`: the sentence carries a date (from the date
 * reader). Questions are plans only when they propose ("shall we…?", "why don't we…?"); "should
 * we…?" asks and agrees nothing. "We should / need to / must" is a plan only with a time or a thing
 * of its own ("…call the landlord tomorrow"), and a progressive only with a time ("we're flying to
 * Madrid on the 12th", not "we're having fun"). Encouragement said as a plan is none ("let's keep each
 * other motivated", "we'll make a difference", "let's go for it": `planSubstance`), and a "let's" or
 * "we'll" plan must name a time or a thing, place or event of its own ("let's go to a dance class", not
 * "let's boogie").
 */
export function readJointPlan(sentence: string, who: Perspective, dated: boolean): JointPlan | null {
  const s = sentence.trim();
  if (HABIT.test(s)) return null;
  const question = /\?\s*$/.test(s);
  for (const mode of MODES) {
    const m = s.match(mode.re);
    if (!m) continue;
    const action = withoutVocative((m.groups?.act ?? '').replace(/[.!?]+$/, '').trim(), who);
    // "Let's chat soon", "we have to go now": a farewell or a leave-taking, no plan.
    if (!action || NO_ACTION.test(action) || FAREWELL.test(action) || LEAVE_TAKING.test(action)) return null;
    const proposes = /\b(?:shall we|why don['’]t we|how about we|what about we)\b/i.test(s);
    if (question && !proposes) return null;
    const timed = dated || FUTURE.test(s);
    if (mode.weak && !timed && !OWN_THING.test(action)) return null;
    if (mode.dated && !timed) return null;
    // Encouragement said as a plan ("let's keep each other motivated", "we'll make a difference") is no plan;
    // nor is an activity with nothing to hold it ("let's boogie"), unless said as "we should / need to" with a thing of its own.
    const substance = planSubstance(action, timed);
    if (substance === 'wish' || (substance === 'bare' && !mode.weak)) return null;
    // "We" takes in the people addressed when the sentence or the setting says so (`inclusiveWe`: "let's", "we'll", a
    // group addressed), or when the plan is set at a time to come, as "we'll" is ("we're flying to Madrid on the 12th",
    // "we've decided to sell the car next month"); "we decided to do doggy playdates", told to one person, is the
    // speaker's own people's.
    const ahead = FUTURE.test(s) || (dated && !BEHIND.test(s));
    const shared = who.addressees.length > 0 && ((who.inclusive ?? inclusiveWe(s, who)) || ahead);
    const us: Perspective = { ...who, inclusive: shared };
    const everyone = shared ? weTogether(who) : `${who.speaker} and others`;
    let say = mode.say(m);
    // "Let's plan a hike": a plan to plan is a plan ("will plan a hike").
    if (/^plan\b/i.test(action) && /\bplan(?:ning)? to$/.test(say)) say = 'will';
    // "We're going to the lake house": going somewhere, not a verb "the".
    const verb = /going to$/.test(say) && GOING_TO_PLACE.test(action) ? 'go' : action.split(/\s+/)[0]!.toLowerCase();
    // A time said first goes last, as a plan is written ("next Saturday we're…" -> "… next Saturday").
    const when = m.groups?.when ? ` ${m.groups.when.trim().replace(/^\w/, (c) => c.toLowerCase())}` : '';
    // "Maybe we should…" stays a maybe.
    const hedge = /\b(?:maybe|perhaps)\b/i.exec(m.groups?.lead ?? '')?.[0].toLowerCase();
    return { content: `${hedge ? `${hedge} ` : ''}${everyone} ${say} ${resolvePronouns(action, us)}${when}`, verb, shared };
  }
  return null;
}
