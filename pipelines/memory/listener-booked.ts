/**
 * A booking a receptionist or an agent made for the one they speak to (rules 90, newcomer trial): "I have booked you in
 * with Dr. Patel on Tuesday at 10am", "I booked you a table for two on Friday", "you're all set for Tuesday at 10am" are
 * the caller's bookings, told as "you're booked…" so that the fact reads "Ana is booked in with Dr. Patel…", not as the
 * receptionist's act ("Jo has booked Ana in…", and a day read as past).
 */
import { PAST_TIME } from './spoken-clauses.js';
import { MONTH_NAME, MONTH_SHORT, WEEKDAY_NAME } from './months.js';

/**
 * The speaker's booking of the listener: "I booked you", "I've (just) booked you", "I have now booked you", "I've got you
 * booked"; "you both / you all" (and "got you two booked"; rules 98) are the listeners, told as "you" ("booked you two
 * seats" books two seats).
 */
const BOOKED_YOU = /\bI(?:['’]ve|\s+have)?\s+(?:(?:just|now|already|gone ahead and)\s+)?(?:booked\s+you|got\s+you(?:\s+(?:both|all|two))?\s+booked)\b(?:\s+(?:both|all)\b)?(\s+in\b)?(?:\s+(?=(?:a|an|the|two|three|four|five|six|\d+|for|on|with|at)\b))?/i;
/** "You're all set for Tuesday at 10am": the booking said done. */
const ALL_SET = /\byou(?:['’]re|\s+are)\s+all\s+set\s+for\b/i;
/**
 * What a booking said done books (rules 98): a day or date ("for Thursday", "for the 20th"), a clock time ("at 10am",
 * "10:30", "at 3"), someone it is with ("with Dr. Patel") or a thing ("for the cleaning", "for your appointment").
 * "You're all set for tonight, the car is outside" is someone made ready: no booking; "all set for tomorrow / today",
 * "for tonight's show" book that day (rules 105). A month is read as months.ts says it (rules 107: "Dec 14", "Sept 12").
 */
const BOOKED_THING = new RegExp(String.raw`\b${WEEKDAY_NAME}\b|\b(?:today|tomorrow)\b|\btonight['’]s\s+\p{L}|\bthe\s+\d{1,2}(?:st|nd|rd|th)\b|\b(?:${MONTH_NAME}|${MONTH_SHORT})\.?\s+\d|\bat\s+\d|\d(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o['’]clock)|\bwith\s+\p{Lu}|\bfor\s+(?:a|an|the|your|my|two|three|four)\s+\p{L}`, 'iu');
/**
 * A booking told with a time behind ("last week", "yesterday", "last time") or as a mistake ("for the wrong day"): the
 * speaker's past act, no booking that stands (rules 98). Not a possessive ("last week's appointment"; rules 105).
 */
const PAST_OR_WRONG = new RegExp(String.raw`\b(?:${PAST_TIME}|last\s+time|wrong(?:ly)?|by\s+mistake)\b(?!['’]s\b)`, 'i');
/** Where a clause ends: a stop, a comma, a dash, or a word that joins another clause ("…at 9am because you missed…"). */
const CLAUSE_END = /[,;.!?]|\s[–—-]\s|\b(?:because|since|so|but|when|though|although|while)\b/gi;

/**
 * The clause of `sentence` that holds its booking of the listener ("I booked you…", "you're all set for…"); empty when it
 * holds none. Only that clause tells whether the booking is past or a mistake (rules 105): "I booked you in for Friday
 * at 9am because you missed last week's appointment" books, "Sorry, I booked you for the wrong day last week" does not.
 */
function bookingClause(sentence: string): string {
  const at = [BOOKED_YOU.exec(sentence), ALL_SET.exec(sentence)].filter((m) => m !== null).sort((a, b) => a.index - b.index)[0];
  if (!at) return '';
  const ends = [...sentence.matchAll(CLAUSE_END)].map((m) => m.index);
  const start = Math.max(0, ...ends.filter((i) => i < at.index));
  const end = Math.min(sentence.length, ...ends.filter((i) => i >= at.index + at[0].length));
  return sentence.slice(start, end);
}

/**
 * A time behind said between "booked you (in)" and what it books ("I booked you in yesterday for Friday at 9am"): it dates
 * the act of booking, not the slot (rules 105). The booking word is group 1, the time group 2.
 */
const ACT_TIME = new RegExp(String.raw`(booked\s+you(?:\s+in)?)\s+(${PAST_TIME})\s+(?=for\s)`, 'i');

/** `sentence` with a booking made for the listener told as the listener's ("you're booked in…"); as said otherwise. */
export function withListenerBooked(said: string): string {
  // "I booked you in yesterday for Friday at 9am": the booking for Friday stands, the day it was made is left out.
  const act = ACT_TIME.exec(said);
  const sentence = act && BOOKED_THING.test(said.slice(act.index + act[0].length)) ? said.replace(ACT_TIME, '$1 ') : said;
  if (PAST_OR_WRONG.test(bookingClause(sentence))) return said;
  const booked = sentence.replace(BOOKED_YOU, (_m, inWord: string | undefined, offset: number, all: string) => {
    const rest = all.slice(offset + _m.length);
    // "booked you a table", "booked you two seats": the thing booked is what the listener is booked for.
    const forThing = !inWord && /^(?:a|an|the|two|three|four|five|six|\d+)\b/i.test(rest);
    return inWord ? "you're booked in " : forThing ? "you're booked for " : "you're booked ";
  });
  const set = ALL_SET.exec(booked);
  // Only what the clause of "all set for" goes on to say up to its end tells what it books.
  const clause = set ? booked.slice(set.index + set[0].length).split(/[,;.!?]|\s[–—-]\s/)[0]! : '';
  const told = set && BOOKED_THING.test(`for ${clause}`) ? booked.replace(ALL_SET, "you're booked in for") : booked;
  return told.replace(/\s{2,}/g, ' ');
}
