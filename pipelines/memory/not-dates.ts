/**
 * Phrases chrono reads as a date that name none (rules 49): a recurring time ("every weekend", "on Mondays"), a house
 * number after "at" ("we live at 4 Rose Court", read as four o'clock), a relative named by a month ("my daughter April";
 * rules 89) and the verb "march" ("we will march on Friday"; rules 110). relative-date.ts leaves them as said.
 */
import { RELATION_ROLES } from './relation-apposition.js';
import { CAPITALISED_MONTH_NAME, MONTH_NAMES, MONTH_SAID, WEEKDAY_NAME } from './months.js';

/**
 * A recurring time (rules 49): "every weekend", "every Monday", "each Friday", "every other Sunday", "on weekends", "on
 * Mondays". chrono reads the span or the weekday after "every" as one day ("every weekend" was Saturday 28 November); a
 * habit has no one day, so the words stay as said.
 */
const RECURRING_BEFORE = /\b(?:every|each)\s+(?:single\s+)?(?:other\s+)?(?:on\s+)?$/i;
const RECURRING_PLURAL = /^(?:on\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends)$/i;

/** True when the date phrase `phrase` (at `index` of `text`) is a recurring time ("every Monday"), not one day. */
export function isRecurring(text: string, index: number, phrase: string): boolean {
  if (RECURRING_PLURAL.test(phrase)) return true;
  return !/^(?:this|next|last|coming)\b/i.test(phrase) && RECURRING_BEFORE.test(text.slice(0, index));
}

/** Words that make a bare number after "at" a clock time ("at 4 pm", "at 4 o'clock", "at 4:30", "at 4 tomorrow"). */
const CLOCK_AFTER = /^(?:\s*(?:[:.]\d|am\b|pm\b|a\.m\.|p\.m\.|o['’]?clock\b|h\b|hours?\b|sharp\b|ish\b|-ish\b))/i;
/** Words naming a street or a building, after a house number ("4 Rose Court", "12 baker street", "flat 3"). */
const STREET_WORD = /\b(?:street|st|road|rd|lane|ln|avenue|ave|drive|dr|close|court|crescent|way|place|square|terrace|gardens|grove|hill|row|walk|mews|park|house|flat|apartment|building|cottages?)\b/i;
/** A weekday, a month or another time word: "at 4 Monday", "at 4 tomorrow" keep their clock time. */
const TIME_AFTER = new RegExp(String.raw`^\s+(?:${WEEKDAY_NAME}|today|tonight|tomorrow|${MONTH_SAID}|this|next|on|in|and|or|but|then|I)\b`, 'i');

/**
 * True when the date phrase `phrase` (at `index` of `text`) is a house number, not a clock time (rules 49): a bare number
 * after "at" ("we live at 4 Rose Court", "I live at 12 Baker Street") followed by a name or a street word, with nothing
 * that makes it a time (am / pm, o'clock, minutes, a day).
 */
export function isHouseNumber(text: string, index: number, phrase: string): boolean {
  const m = /^at\s+(\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)$/i.exec(phrase.trim());
  if (!m) return false;
  const after = text.slice(index + phrase.length);
  if (CLOCK_AFTER.test(after) || TIME_AFTER.test(after)) return false;
  const next = /^\s+([\p{L}][\p{L}'’-]*)(?:\s+([\p{L}][\p{L}'’-]*))?/u.exec(after);
  if (!next) return false;
  // "at 4 Rose Court": a name after the number; "at 12 baker street": a street word within the next two words.
  return /^\p{Lu}/u.test(next[1]!) || STREET_WORD.test(`${next[1]} ${next[2] ?? ''}`);
}

const ROLES = RELATION_ROLES.join('|');
/** A relation said before a word ("my daughter ", "Maria's sister, "). */
const RELATION_BEFORE = new RegExp(String.raw`\b(?:my|our|your|his|her|their|\p{Lu}[\p{L}-]*['’]s)\s+(?:new\s+|little\s+|older\s+|younger\s+)?(?:${ROLES})\s*,?\s+$`, 'iu');
/** A relation told after a name ("April is Maria's daughter"), as a relation's fact is written. */
const RELATION_AFTER = new RegExp(String.raw`^\s+(?:is|was)\s+(?:\p{Lu}[\p{L}-]*\s+)*\p{Lu}[\p{L}-]*['’]s\s+(?:${ROLES})\b`, 'u');
const MONTH = new RegExp(`^(?:${CAPITALISED_MONTH_NAME})$`);

/**
 * True when the date phrase `phrase` (at `index` of `text`) is a month's name capitalised right after a relation ("my daughter
 * April starts school", "my sister May", "my friend June") or before one told ("April is Maria's daughter"): a person's name
 * (rules 89), or one owning a thing ("April's party"; rules 113, {@link monthsThing}). Not with a day's number after it
 * ("my mother May 3rd": a date; relation-apposition.ts `isDaySaid`).
 */
export function isRelativesName(text: string, index: number, phrase: string): boolean {
  if (!MONTH.test(phrase.trim())) return false;
  const after = text.slice(index + phrase.length);
  if (/^\s*,?\s*\d/.test(after)) return false;
  // "April's party got cancelled": a month owns nothing; one owning a thing is a person's name (rules 113), not after a word a
  // month is said after ("last April's trip").
  if (monthsThing(after) && !MONTH_BEFORE.test(text.slice(0, index))) return true;
  return RELATION_BEFORE.test(text.slice(0, index)) || (/^\s*$/.test(text.slice(0, index)) && RELATION_AFTER.test(after))
    || (CLAUSE_START.test(text.slice(0, index)) && PERSON_DOING.test(after));
}

/** Where a clause's subject starts: the text's start, or after a stop, a comma or a joining word. */
const CLAUSE_START = /(?:^|[.;:!?,]\s*|\b(?:and|but|so|because|oh|well|actually)\s+)$/i;
/**
 * What a person does, told right after a month's name that opens a clause: "April is having a party on Saturday", "May
 * was bringing the cake", "June has invited us" (rules 115: read "April 2027 is having a party"). Only a verb of a
 * person's doing (rules 115 after review): not any "-ing" word, so a month's weather or how it went keeps the month
 * ("April was raining all week", "June was amazing last year", "April is going to be busy", "May is coming up fast").
 */
const PERSON_DOING = /^\s+(?:is|was|['’]s)\s+(?:having|hosting|throwing|bringing|organi[sz]ing|planning|visiting|marching|cooking|baking|inviting|picking|babysitting|moving|staying|joining|meeting|texting|phoning|driving|singing|playing|getting\s+married|taking\s+(?:us|me|him|her|them|the)\b)\b|^\s+(?:has|had)\s+(?:invited|asked|told|said|booked|called|texted|organised|organized|planned)\b/i;

/** A part of a month after its possessive ("March's last day", "April's first weekend", "May's 2nd week"): the month's own. */
const MONTH_PART = /^['’]s\s+(?:(?:first|second|third|fourth|fifth|last|final|\d+(?:st|nd|rd|th))\b|(?:week|weekend|day|days|end|start|beginning|middle|half)\b)/i;

/**
 * True when `after`, the text after a month's name, makes it own a thing ("April's party": a person's name; rules 113), not
 * a part of the month ("March's last day", "April's first weekend": a date; review of rules 113 H2).
 */
export function monthsThing(after: string): boolean {
  return /^['’]s\s+\p{L}/u.test(after) && !MONTH_PART.test(after);
}

/**
 * True when `after`, the text after a month's name opening a fact, makes the month a person: owning a thing ("April's
 * party"; {@link monthsThing}) or doing something ("April is having a party"; rules 115).
 */
export function monthAsPerson(after: string): boolean {
  return monthsThing(after) || PERSON_DOING.test(after);
}

/** Words a month is said after ("in March", "since March", "last March", "the 3rd of March"): "march" after them is the month. */
const MONTH_BEFORE = /\b(?:in|of|since|until|till|by|from|to|through|before|after|during|this|next|last|early|late|mid|every|each|and|or)\s+$/i;
/** Words the verb "march" is said after: a subject, a modal ("we march", "they'll march"; "going to march": {@link TO_MARCH_BEFORE}). */
const MARCHER_BEFORE = /(?:\b(?:I|we|you|they|he|she|will|would|can|could|shall|should|must|might|may|did|do|does|don['’]t|didn['’]t|won['’]t|let['’]s|always|often|usually|never|then)|['’]ll)\s+$/i;
/**
 * A verb and its "to" before the verb "march" ("going to march", "want to march", "have to march"; review of rules 110
 * H3), tested before {@link MONTH_BEFORE}, which has "to" for "moved to March".
 */
const TO_MARCH_BEFORE = /\b(?:(?:going|want(?:s|ed)?|need(?:s|ed)?|ha(?:ve|s|d)|got|ought|used|tr(?:y|ies|ied|ying)|plan(?:s|ning)?)\s+to|gonna|wanna)\s+$/i;
/** Words the verb "march" is said before: "march on", "march off", "march through the town", "march down to…". */
const MARCHED_AFTER = /^\s+(?:on|off|in|into|out|through|past|down|up|along|around|across|towards?|back)\b(?!\s+(?:the\s+)?\d)/i;

/**
 * A determiner before the noun "march" ("the march", "our march"; rules 112). Not "this / that": "moving to Spain this
 * march", as speech is written, is the month (after review, H1).
 */
const THE_MARCH_BEFORE = /\b(?:the|a|an|our|their|his|her|my|your)\s+$/i;
/** What the noun "march" is said before: a verb or a preposition of its own ("the march is on Saturday", "the march starts at noon"), or the clause's end. */
const THE_MARCH_AFTER = /^(?:\s+(?:is|was|will|starts?|started|begins?|began|goes|went|on|at|in|from|to|through|against|for|has|had|takes?|took|kicks?)\b|['’]s\b|\s*(?:[,.;!?]|$))/i;

/**
 * True when the date phrase `phrase` (at `index` of `text`) is the verb "march", not the month (rules 110): "march" alone,
 * after a subject, a modal or a verb's "to" ("we will march on Friday", "they march every year", "going to march") or
 * before a particle ("march on", "march through the town"), and not after a word a month is said after ("in March on a cheap flight");
 * and the noun, lower case after a determiner and before a verb or a preposition ("the march is on Saturday"; rules 112), not
 * after "this / that" ("this march": the month; after review, H1).
 */
export function isMarchedTo(text: string, index: number, phrase: string): boolean {
  const word = phrase.trim();
  if (!/^march$/i.test(word)) return false;
  const before = text.slice(0, index);
  if (word === 'march' && THE_MARCH_BEFORE.test(before) && THE_MARCH_AFTER.test(text.slice(index + phrase.length))) return true;
  if (TO_MARCH_BEFORE.test(before)) return true;
  if (MONTH_BEFORE.test(before)) return false;
  return MARCHER_BEFORE.test(before) || MARCHED_AFTER.test(text.slice(index + phrase.length));
}

/** An ordinal that picks one weekday of a month ("first", "2nd", "last"). */
const ORDINAL = String.raw`(?:first|second|third|fourth|fifth|last|final|\d(?:st|nd|rd|th))`;
const MONTHS_WEEKDAY = new RegExp(String.raw`^(?:on\s+)?(?:(${ORDINAL})\s+)?(?:${WEEKDAY_NAME}|weekend)$`, 'i');
const ORDINAL_BEFORE = new RegExp(String.raw`\b${ORDINAL}\s+$`, 'i');
const MONTH_OWNS_BEFORE = new RegExp(String.raw`\b(${MONTH_NAMES.join('|')})['’]s\s+$`, 'i');
const OF_MONTH_AFTER = new RegExp(String.raw`^\s+(?:of|in)\s+(${MONTH_NAMES.join('|')})\b`, 'i');

/**
 * True when the weekday phrase `phrase` (at `index` of `text`) is one weekday or weekend of a month picked by an ordinal
 * ("May's first Sunday", "the last Friday of May", "April's first weekend"; rules 115): not the coming one ("on May's first
 * on Sunday 13 December 2026" was written), so the words stay as said.
 */
export function isMonthsWeekday(text: string, index: number, phrase: string): boolean {
  return monthOfWeekday(text, index, phrase) !== null;
}

/**
 * The month whose weekday `phrase` picks ({@link isMonthsWeekday}): its name as said and where it stands in `text`, so
 * the month is read where chrono reads none ("on May's first Sunday": May; rules 115 after review); null for another phrase.
 */
export function monthOfWeekday(text: string, index: number, phrase: string): { month: string; index: number } | null {
  const m = MONTHS_WEEKDAY.exec(phrase.trim());
  if (!m) return null;
  const before = text.slice(0, index);
  const ordinal = m[1] ? null : ORDINAL_BEFORE.exec(before);
  if (!m[1] && !ordinal) return null;
  const head = ordinal ? before.slice(0, ordinal.index) : before;
  const owns = MONTH_OWNS_BEFORE.exec(head);
  if (owns) return { month: owns[1]!, index: owns.index + owns[0].indexOf(owns[1]!) };
  const end = index + phrase.length;
  const of = OF_MONTH_AFTER.exec(text.slice(end));
  return of ? { month: of[1]!, index: end + of.index + of[0].length - of[1]!.length } : null;
}
