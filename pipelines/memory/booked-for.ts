/**
 * A day a booking or an arrangement is for (rules 50): "I booked the table for Friday", "we reserved a room for
 * Saturday", "I scheduled the call for Thursday". The act is told as past, but the day it is for lies ahead: said on a
 * Monday, "for Friday" is the coming Friday, not the one before (relative-date.ts read the whole clause as past). So is
 * the day a thing is moved to (rules 68): "I moved Leo's checkup to Monday December 7", said on 1 December, is the coming
 * 7 December, not last year's.
 */
import { BOOKING_NOUNS, HOUR_SAID, saysClock } from './clock-time.js';
import { clauseAround, toldAsPast } from './told-tense.js';
import { MONTH_DATE_SAID, WEEKDAY_NAME } from './months.js';
import { PAST_TIME } from './spoken-clauses.js';
import { COUNT } from './spans.js';

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
/**
 * "for" (with "the") just before the date phrase, or with an hour of the clock between ("for half past 7 on Friday",
 * "for 7:30pm on Friday"; rules 107).
 */
const FOR_BEFORE = new RegExp(String.raw`\bfor\s+(?:the\s+)?(?:${HOUR_SAID}\s+)?$`, 'i');
/** "for" with an hour of the clock just before the date phrase ("for half past 7 on Friday"). */
const FOR_HOUR_BEFORE = new RegExp(String.raw`\bfor\s+${HOUR_SAID}\s+$`, 'i');
/** What chrono may keep of "for" in its phrase ("for Friday"). */
const FOR_IN_PHRASE = /^for\s+(?!(?:a|an|the\s+next|the\s+past|the\s+last|\d+|one|two|three|four|five|six|seven|eight|nine|ten|several|few|couple)\b)/i;
/**
 * A day or a date, not a span: a weekday ("on" before it after an hour: "for half past 7 on Friday"), today / tonight /
 * tomorrow, a month (a short form before a day's number: "mar 3", "Sept. 12"; rules 110), a day of the month.
 */
const A_DAY = new RegExp(String.raw`^(?:for\s+|on\s+)?(?:(?:this|next|coming)\s+)?(?:${WEEKDAY_NAME}|today|tonight|tomorrow)\b|\b(?:${MONTH_DATE_SAID})\b|^(?:for\s+)?(?:the\s+)?\d`, 'i');

/**
 * A thing booked for a slot of its own (rules 97): a word that only names a booking (clock-time.ts `BOOKING_NOUNS`), a
 * table, a room, a flight, a train, a bus, a ferry (rules 110), a seat, a court, a lesson… The day and hour said with it ("a table at Luigi's on Friday at
 * 7pm") are the slot's.
 */
const SLOT_THINGS = [...BOOKING_NOUNS, 'table', 'flight', 'train', 'bus', 'ferry', 'room', 'ticket', 'seat', 'court', 'session', 'lesson', 'tour',
  'taxi', 'cab'];
const BOOKED_SLOT = new RegExp(String.raw`\b(?:${SLOT_THINGS.join('|')})s?\b|\bclass(?:es)?\b`, 'i');
/**
 * Verbs that book a slot, in any form ("booked", "have reserved", "scheduled"), with the auxiliaries before them ("I've",
 * "was", "had") and a negation ("didn't", "never"; rules 107: "I didn't book a table on Friday at 7pm" is no act behind);
 * not "ordered", "planned" (a thing, a plan). "booking" only after a form of "be" ("I'm booking"): "a
 * booking", "our booking" is the noun (rv97 H2).
 */
const SLOT_VERB = /(?:\b(?:have|has|had|was|were|is|are|been|be|just|already|did|never|not)(?:n['’]t)?\s+|['’](?:ve|d|s|re|m)\s+)*(?:\b(?:book(?:s|ed)?|reserv(?:e|es|ed|ing)|schedul(?:e|es|ed|ing)|arrang(?:e|es|ed|ing))\b|(?:\b(?:am|is|are|was|were|be|been)\s+|['’](?:m|re|s)\s+)booking\b)/i;
/**
 * "on Friday", "this Friday", "Friday": a weekday, as chrono may give it with the hour ("on Friday at 7pm"), or after an
 * hour of the clock ("at 7:30pm on Friday"; rules 107).
 */
const ON_WEEKDAY = new RegExp(String.raw`^(?:(?:at\s+)?${HOUR_SAID}\s+)?(?:on\s+)?(?:(?:this|coming)\s+)?${WEEKDAY_NAME}\b`, 'i');
/**
 * One slot of its day, told by its place in the day, just before the weekday ("the last flight on Friday", "the first
 * session on Friday"; rules 107): the day is the slot's, with no hour said. Not more than one ("the last tickets on
 * Friday": those left, booked that day).
 */
const SLOT_OF_THE_DAY = new RegExp(String.raw`\bthe\s+(?:first|last|earliest|latest|early|late)\s+(?:${SLOT_THINGS.join('|')}|class)\s+$`, 'i');
/**
 * A time told of the past ("last Friday", "yesterday", "a week ago"; spoken-clauses.ts `PAST_TIME`), or "last time", "the
 * previous time / Friday": its clause's day is no slot ahead. Not "last" or "past" alone (rules 107): "the last flight",
 * "half past 7" are no time gone by. Not "this morning / afternoon" (review of rules 107, H1): today's, it dates the act
 * of booking ("This morning I booked a table on Friday at 8pm" is the coming Friday). "last time" and "previous" are
 * this reader's own, not `PAST_TIME`'s (rules 110): spoken-clauses.ts would cut a clause after them ("i saw him last
 * time i was in london").
 */
const TIME_BACK = new RegExp(String.raw`\b(?:(?!this\s)(?:${PAST_TIME})|last\s+time|previous)\b`, 'i');
/**
 * The day before today, told of the act ("Yesterday I booked a table on Friday at 8pm", "last night I reserved a room…";
 * rules 110; "two days ago", "a few days ago", "the day before yesterday": rules 112): a slot booked then with a weekday of
 * its own is no day before it, so the weekday's slot lies ahead. Counted as every span is (spans.ts `COUNT`: "10 days
 * ago", "ten days ago", "a couple of days ago"; rules 114, M6).
 */
const ACT_DAY_BEFORE = new RegExp(String.raw`\b(?:(?:the\s+day\s+before\s+)?yesterday(?:\s+(?:morning|afternoon|evening|night))?|last\s+night`
  + String.raw`|(?:${COUNT}|(?:a\s+)?couple(?:\s+of)?|few)\s+days?\s+ago)\b`, 'gi');
/** An hour of the clock between "at" or "for" and the weekday ("at half past 7 on Friday", "at nine thirty on Friday"; rules 110). */
const HOUR_BEFORE = new RegExp(String.raw`\b(?:at|for)\s+${HOUR_SAID}\s+$`, 'i');
/** Where the words said with a weekday end: "for" (another day or thing), a clause's punctuation or joining word. */
const WITH_DAY_ENDS = /\bfor\b|[,;!?]|\.(?!\d)|\b(?:and|but|so|because|then)\b/i;
/**
 * After the weekday and its hour, another day the booking is for, or a thing with a day of its own ("for Saturday", "for
 * our trip in January", "for the concert in March"): the slot is that; the weekday is the act's. Not a thing with no day
 * ("for my birthday", "for the two of us", "for you").
 */
const FOR_THE_SLOT = new RegExp(String.raw`^(?:\s*(?:at\s+)?[\w:.]+(?:\s*(?:am|pm))?)?\s*,?\s*for\s+(?:(?:[\w'’-]+\s+){0,3}?(?:in|on|next|this)\s+)?`
  + String.raw`(?:(?:this|next|coming)\s+)?(?:${WEEKDAY_NAME}|tomorrow|tonight|${MONTH_DATE_SAID})\b(?!['’]s)`, 'i');
/** "from" before the first day of a range booked ("booked the cottage from the 20th to the 22nd"; rules 112). */
const FROM_RANGE_BEFORE = /\bfrom\s+$/i;
/**
 * A range of days read whole, "from" in it ("from Friday to Sunday", "from the 20th to the 22nd", "from Dec 20 to Dec 22"):
 * one day of one or two words ("the" apart), then a word of {@link RANGE_IN} (after review, L2).
 */
const FROM_RANGE = /^from\s+(?:the\s+)?\S+(?:\s+\S+)?\s+(?:to|till|until|through|thru|-|–)\s+/i;
const RANGE_IN = /\s(?:to|till|until|through|thru|-|–)\s/i;
/** The words after a range's first day that name its last ("… to the 22nd", "… to Sunday"). */
const RANGE_AFTER = /^\s*(?:to|till|until|through|thru|-|–)\s+(?:the\s+)?\w/i;
/** A clause of why or when, to the next break ("because Tom asked me", "before it filled up"): no outcome of the slot. */
const WHY_OR_WHEN = /\b(?:because|cause|cos|since|as|when|after|before|while|once)\b[^,;.!?]*/gi;

/**
 * True when the weekday `phrase` (at `index` of `text`) is the slot a thing was booked for (rules 97): its clause books
 * (`SLOT_VERB`) a thing of a slot (`BOOKED_SLOT`) and says the hour ("I booked a table at Luigi's on Friday at 7pm", "we
 * have a table booked… on Friday at 7pm", "I've reserved a room on Friday at 3pm") or names the slot by its place in the
 * day ("the last flight on Friday"; rules 107), the hour said before the weekday too ("at half past 7 on Friday"; rules
 * 110). The day of the act of booking is said with no hour ("I booked the flights on Friday": past), and one told as back
 * ("last Friday at 7pm") stays back; "yesterday" or "last night" dates the act, not the slot (rules 110).
 */
function bookedSlot(text: string, index: number, phrase: string): boolean {
  if (!ON_WEEKDAY.test(phrase.trim())) return false;
  const clause = clauseAround(text, index);
  if (!(SLOT_VERB.test(clause) && BOOKED_SLOT.test(clause) && !TIME_BACK.test(clause.replace(ACT_DAY_BEFORE, ' ')))) return false;
  // The hour said with the weekday ("on Friday at 7pm"), not with another day or thing of the clause ("on Friday for
  // Saturday at 7pm": Friday is the day of the act of booking; rv97 H5); or the slot told by its place in the day ("the
  // last flight on Friday").
  const after = text.slice(index + phrase.length);
  const timed = HOUR_BEFORE.test(text.slice(0, index)) || (saysClock(clause) && (saysClock(phrase) || saysClock(after.split(WITH_DAY_ENDS)[0] ?? '')));
  if (!timed && !SLOT_OF_THE_DAY.test(text.slice(0, index))) return false;
  // "… at 6am for our trip in January", "… for Saturday": the slot is that day or thing; the weekday the act's.
  if (FOR_THE_SLOT.test(after)) return false;
  return !slotGone(text.replace(ACT_DAY_BEFORE, ' '));
}

/**
 * The sentence but the verb of booking, and but a clause of why or when, told of the past ("and it was amazing", "but I
 * missed it", "The tour we booked on Saturday at 10am was amazing"): the slot booked has come and gone (rv97 H1).
 */
function slotGone(text: string): boolean {
  return toldAsPast(text.replace(SLOT_VERB, ' ').replace(WHY_OR_WHEN, ' '));
}

/**
 * True when the date phrase `phrase` (at `index` of `text`) names the day a booking or an arrangement is for, or a move
 * is to: it comes after "for" and its clause has a verb of booking (`BOOKING_VERB`), or after "to / till / until" and its
 * clause has a verb of moving before it (`MOVE_VERB`), or it is the slot a thing was booked for at an hour
 * (`bookedSlot`; rules 97). Such a day lies ahead whatever the clause's tense.
 */
export function bookedFor(text: string, index: number, phrase: string): boolean {
  if (bookedSlot(text, index, phrase)) return true;
  // "from the 20th to the 22nd" as a range's whole phrase (state-end.ts reads it so; rules 114, M4): its first day.
  if (!A_DAY.test(phrase.trim().replace(/^from\s+/i, ''))) return false;
  const before = text.slice(0, index);
  // "to Tuesday's class": a thing of that day, no day a move is to (rules 74).
  const possessive = /^['’]s\b/.test(text.slice(index + phrase.length));
  // The verb before "to", in the clause that ends at the phrase: "I moved Leo's checkup to Monday December 7".
  if (!possessive && TO_BEFORE.test(before) && MOVE_VERB.test(clauseAround(before, Math.max(0, before.length - 1)))) return true;
  // "I've booked the cottage from the 20th to the 22nd", "I booked a room from Friday to Sunday" (rules 112): the stay
  // booked, as "for" it is, unless told with a time gone by or its outcome ("… and it was lovely").
  const clause = clauseAround(text, index);
  if (FROM_RANGE_BEFORE.test(before) || FROM_RANGE.test(phrase.trim())) {
    const range = RANGE_AFTER.test(text.slice(index + phrase.length)) || RANGE_IN.test(phrase);
    return range && BOOKING_VERB.test(clause.split(/\bfrom\b/i)[0] ?? '') && !TIME_BACK.test(clause) && !slotGone(text);
  }
  if (!(FOR_BEFORE.test(before) || FOR_IN_PHRASE.test(phrase.trim()))) return false;
  // The verb before "for", in the clause that holds the phrase: "I booked the table for Friday".
  if (!BOOKING_VERB.test(clause.split(/\bfor\b/i)[0] ?? '')) return false;
  // An hour between "for" and the weekday ("for half past 7 on Friday") is a slot, as `bookedSlot` reads one: told with a
  // time gone by or an outcome ("… last weekend", "… and it was lovely"), it is behind (review of rules 107, H3).
  return !(FOR_HOUR_BEFORE.test(before) && (TIME_BACK.test(clause) || slotGone(text.replace(BOOKING_VERB, ' '))));
}
