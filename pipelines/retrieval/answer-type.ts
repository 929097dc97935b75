import * as chrono from 'chrono-node';

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
 * True when the question asks for a person ("Who told Ben…?", "Whom did Ana invite?", "Whose idea
 * was…?", "To whom…", "Which of them…", "Which person…"): its evidence is the turn that says or does
 * the thing (its speaker is the answer), not the reply to it.
 */
export function asksWho(question: string): boolean {
  return /^\s*(?:(?:to|by|from|with|for)\s+)?(?:who|whom|whose)\b/i.test(question) ||
    /^\s*which\s+(?:of\s+(?:them|you|us|the\s+\w+)|(?:\w+\s+)?(?:person|people|one|member|participant|speaker))\b/i.test(question);
}

