/**
 * "My wife Maria ordered the road bike", said by Luis (trial11 F6): a relation of the speaker's named beside it (an
 * apposition: "my wife Maria", "my brother Tom", "my colleague Ana") opening a sentence makes that person the subject
 * of the clause, not the speaker. Where they are a participant, the clause is read as told about them ("Maria ordered
 * the road bike", about Maria), and the relation is kept apart ("Maria is Luis's wife").
 */
import { isCalendarWord } from '../speaker/calendar-words.js';
import { givenNamePrevalence } from '../speaker/given-names.js';
import { isMixedCase } from '../speaker/name-tokens.js';
import { couldBeName, isAlsoCommonWord } from '../speaker/name-words.js';
import { isMonthWord } from './months.js';

/** The relations of a person the rules read ("my sister Maria", "Ben is my manager"). */
export const RELATION_ROLES = ['best friend', 'sister', 'brother', 'mother', 'mom', 'mum', 'father', 'dad', 'wife', 'husband',
  'partner', 'boyfriend', 'girlfriend', 'son', 'daughter', 'friend', 'manager', 'boss', 'colleague', 'coworker',
  'co-worker', 'cousin', 'aunt', 'uncle', 'neighbor', 'neighbour', 'roommate', 'grandmother', 'grandfather',
  'fiance', 'fiancée', 'teacher', 'doctor', 'therapist'];

const ROLES = RELATION_ROLES.join('|');
/** Words that may open a sentence before its subject ("And my wife Maria…", "Hi, my wife Maria…"). */
const LEAD = String.raw`(?:(?:and|but|so|oh|also|plus|well|hi|hello|hey|yes|yeah|actually|anyway)\b[\s,]*)*`;
/** "my wife Maria ordered…", "my wife, Maria, ordered…": the role, the name, and the rest from its verb on. */
const APPOSITION = new RegExp(String.raw`^\s*${LEAD}my\s+(?:new\s+)?(${ROLES})\s*,?\s+(\p{L}[\p{L}'-]*)\s*,?\s+(\p{Ll}.*)$`, 'isu');
/** A relation named beside its person anywhere in a text: the extraction needs that person's name. */
const ANY_APPOSITION = new RegExp(String.raw`\bmy\s+(?:new\s+)?(?:${ROLES})\s*,?\s+\p{L}`, 'iu');

/**
 * Whether `word`, said after a relation ("my wife maria"), is a name: capitalised in mixed-case text; in all-lower-case
 * text (a recogniser's) a listed given name that is no ordinary word, verb or adjective, day or month ("my brother will
 * come" names no Will).
 */
export function isApposedName(word: string, text: string): boolean {
  if (isMixedCase(text)) return /^\p{Lu}/u.test(word) && couldBeName(word, undefined, true);
  const lower = word.toLowerCase();
  return givenNamePrevalence(lower) > 0 && couldBeName(lower) && !isAlsoCommonWord(lower) && !isCalendarWord(lower);
}

/** A day's number said after a month ("December 3", "May 3rd"; after a short form, its dot too: "Dec. 3"). */
const DAY_NUMBER = /^\s*\d{1,2}(?:st|nd|rd|th)?\b/i;
const SHORT_DAY_NUMBER = /^\.?\s*\d{1,2}(?:st|nd|rd|th)?\b/i;

/**
 * Whether `word`, said after a relation ("my mother Tuesday", "my mother December 3", "my mother Dec 3"), is a day, date or
 * time rather than the relative's name: a weekday, today / tomorrow / tonight or a feast always; a month, by name or short
 * form (months.ts), when a day's number follows it (`after`: the text after the word), and a month's name when it is no
 * listed given name ("my daughter April" names April).
 */
export function isDaySaid(word: string, after: string): boolean {
  if (isMonthWord(word, true) && !isMonthWord(word) && SHORT_DAY_NUMBER.test(after)) return true;
  if (!isCalendarWord(word)) return false;
  if (!isMonthWord(word)) return true;
  return DAY_NUMBER.test(after) || givenNamePrevalence(word.toLowerCase()) < 0.001;
}

/** Whether `text` names a relation beside its person ("my wife Maria"): the participants it names are looked up. */
export function namesRelation(text: string): boolean {
  return ANY_APPOSITION.test(text);
}

/**
 * `sentence` opened by a relation named beside a participant other than the speaker ("My wife Maria ordered the road
 * bike", Maria a participant), as told about them: "Maria ordered the road bike", the name as they hold it. Null when
 * it opens with no such apposition or the person is no participant known here (`names`: id → display name).
 */
export function apposedSubject(sentence: string, names: Record<string, string | null>, speakerId: string): string | null {
  const m = APPOSITION.exec(sentence);
  if (!m?.[2] || !m[3] || !isApposedName(m[2], sentence) || isDaySaid(m[2], m[3])) return null;
  const word = m[2].toLowerCase();
  const held = Object.entries(names).find(([id, n]) => id !== speakerId && n !== null && n.split(' ')[0]!.toLowerCase() === word)?.[1];
  return held ? `${held.split(' ')[0]} ${m[3]}` : null;
}
