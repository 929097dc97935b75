/**
 * A day a booking or an arrangement is for (rules 50): "I booked the table for Friday", "we reserved a room for
 * Saturday", "I scheduled the call for Thursday". The act is told as past, but the day it is for lies ahead: said on a
 * Monday, "for Friday" is the coming Friday, not the one before (relative-date.ts read the whole clause as past). So is
 * the day a thing is moved to (rules 68): "I moved Leo's checkup to Monday December 7", said on 1 December, is the coming
 * 7 December, not last year's.
 */
import { clauseAround } from './told-tense.js';
import { MONTH_SAID } from './months.js';

/** Verbs that fix a time for something, in any form ("booked", "have reserved", "I'd arranged"). */
const BOOKING_VERB = /\b(?:book(?:s|ed|ing)?|reserv(?:e|es|ed|ing)|schedul(?:e|es|ed|ing)|re-?schedul(?:e|es|ed|ing)|plann?(?:ed|ing)?|arrang(?:e|es|ed|ing)|organi[sz](?:e|es|ed|ing)|order(?:s|ed|ing)?|pencil(?:l?ed|l?ing)?|invit(?:e|es|ed|ing)|set\s+(?:it|that|this|them|one|something)?\s*up|sort(?:ed)?\s+out)\b/i;
/**
 * Verbs that move a time, in any form ("moved", "have rescheduled", "pushed … back", "brought it forward", "got pushed to").
 * Not "bring", "switch", "change", "put" alone (rules 74): "I brought Leo to Tuesday's appointment", "I pushed through to
 * the 5th round" move no time.
 */
const MOVE_VERB = /\b(?:mov(?:e|es|ed|ing)|re-?schedul(?:e|es|ed|ing)|postpon(?:e|es|ed|ing))\b|\bpush(?:es|ed|ing)?\b(?:.*\bback\b|\s+(?:to|till|until)\b)|\b(?:bring(?:s|ing)?|brought)\b.*\bforward\b/i;
/** "to / till / until" (with "on" or "the") just before the date phrase: the day a move is to. */
const TO_BEFORE = /\b(?:to|till|until)\s+(?:on\s+)?(?:the\s+)?$/i;
/** "for" (with "the" or "this / next / coming") just before the date phrase. */
const FOR_BEFORE = /\bfor\s+(?:the\s+)?$/i;
/** What chrono may keep of "for" in its phrase ("for Friday"). */
const FOR_IN_PHRASE = /^for\s+(?!(?:a|an|the\s+next|the\s+past|the\s+last|\d+|one|two|three|four|five|six|seven|eight|nine|ten|several|few|couple)\b)/i;
/** A day or a date, not a span: a weekday, today / tonight / tomorrow, a month, a day of the month. */
const A_DAY = new RegExp(String.raw`^(?:for\s+)?(?:(?:this|next|coming)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tonight|tomorrow)\b|\b(?:${MONTH_SAID})\b|^(?:for\s+)?(?:the\s+)?\d`, 'i');

/**
 * True when the date phrase `phrase` (at `index` of `text`) names the day a booking or an arrangement is for, or a move
 * is to: it comes after "for" and its clause has a verb of booking (`BOOKING_VERB`), or after "to / till / until" and its
 * clause has a verb of moving before it (`MOVE_VERB`). Such a day lies ahead whatever the clause's tense.
 */
export function bookedFor(text: string, index: number, phrase: string): boolean {
  if (!A_DAY.test(phrase.trim())) return false;
  const before = text.slice(0, index);
  // "to Tuesday's class": a thing of that day, no day a move is to (rules 74).
  const possessive = /^['’]s\b/.test(text.slice(index + phrase.length));
  // The verb before "to", in the clause that ends at the phrase: "I moved Leo's checkup to Monday December 7".
  if (!possessive && TO_BEFORE.test(before) && MOVE_VERB.test(clauseAround(before, Math.max(0, before.length - 1)))) return true;
  if (!(FOR_BEFORE.test(before) || FOR_IN_PHRASE.test(phrase.trim()))) return false;
  // The verb before "for", in the clause that holds the phrase: "I booked the table for Friday".
  return BOOKING_VERB.test(clauseAround(text, index).split(/\bfor\b/i)[0] ?? '');
}
