import * as chrono from 'chrono-node';
import { namedDate } from './memory-items.js';

/** What kind of answer a question expects, where the wording says so. */
export type AnswerType = 'time' | 'number';

const ASKS_TIME = /^\s*(?:when|how long|since when|what (?:time|date|day|month|year)|which (?:time|date|day|month|year|week))\b/i;
const ASKS_NUMBER = /^\s*(?:how (?:many|much|often|old|far))\b/i;
const NUMBER = /\b(?:\d+|once|twice|thrice|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand|several|few|every (?:day|week|month|year))\b/i;
/** A year on its own ("since 2019"), which chrono does not read as a time. */
const YEAR = /\b(?:19|20)\d\d\b/;
/** A fixed reference for parsing turns: only whether a time is named matters, not which. */
const REFERENCE = new Date(Date.UTC(2000, 0, 1));

/** The answer type a question's wording asks for ("When…" → time, "How many…" → number), or null. */
export function expectedAnswerType(question: string): AnswerType | null {
  if (ASKS_TIME.test(question)) return 'time';
  if (ASKS_NUMBER.test(question)) return 'number';
  return null;
}

/**
 * True when `text` holds an answer of `type`: a time expression chrono can read ("last week",
 * "on 8 May", "two years ago") or a year; or a number or count word.
 */
export function holdsAnswerType(text: string, type: AnswerType): boolean {
  if (type === 'number') return NUMBER.test(text);
  return YEAR.test(text) || chrono.parse(text, REFERENCE).length > 0;
}

/**
 * How an item is judged to hold a time for a "When…?" question (`AgenticOptions.timeAnswers`):
 * - `words`: its text names a time chrono reads against a fixed day, or a year (`holdsAnswerType`);
 * - `dated`: its words date what it tells of against when it was said (`namedDate`: "last Tues", "on the 15th", an
 *   act told as just done, "I just got accepted", dated by the day it was said), or name a year: the same dating
 *   the item's `event_time` gets, so the turn that can answer "when" is the one the memory can date;
 * - `dated-facts`: as `dated`, and a fact whose `eventTime` is set holds one too (its date is a field, not in its text).
 */
export type TimeAnswerMode = 'words' | 'dated' | 'dated-facts';

/** The modes `timeAnswers` accepts. */
export const TIME_ANSWER_MODES: readonly TimeAnswerMode[] = ['words', 'dated', 'dated-facts'];

/**
 * True when an item (its text, when it was said, and for a fact its `eventTime`) holds a time as `mode` judges it.
 */
export function holdsTimeAnswer(m: { text: string; time: string; eventTime?: string | null }, mode: TimeAnswerMode): boolean {
  if (mode === 'words') return holdsAnswerType(m.text, 'time');
  if (mode === 'dated-facts' && m.eventTime) return true;
  return YEAR.test(m.text) || namedDate(m.text, m.time) !== null;
}

/**
 * True when the question asks for a person ("Who told Ben…?", "Whom did Ana invite?", "Whose idea
 * was…?", "To whom…", "Which of them…", "Which person…"): its evidence is the turn that says or does
 * the thing (its speaker is the answer), not the reply to it.
 */
export function asksWho(question: string): boolean {
  return /^\s*(?:(?:to|by|from|with|for)\s+)?(?:who|whom|whose)\b/i.test(question) ||
    /^\s*which\s+(?:of\s+(?:them|you|us|the\s+\w+)|(?:\w+\s+)?(?:person|people|one|member|participant|speaker))\b/i.test(question);
}

