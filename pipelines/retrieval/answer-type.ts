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

/** Words ending in "s" that are no plural noun after "what" / "which". */
const NOT_PLURAL = new Set(['is', 'was', 'has', 'does', 'this', 'its', 'his', 'hers', 'yours', 'ours', 'theirs', 'always', 'perhaps', 'across', 'plus', 'less', 'unless', 'thus', 'us']);

/**
 * True when the question asks for several things, each likely said at another time ("What books has Ana read?",
 * "Which cities has John been to?", "What kinds of art…", "What are Ana's pets' names?", "Where has Ana camped?",
 * "What do Ana and Ben both like?", "How many times…"): a plural noun after "what" / "which" (with "kind(s) of",
 * "type(s) of"), "what are", a wh-question in the perfect ("has / have … <verb>"), "both", or "how many times".
 */
export function asksForList(question: string): boolean {
  const q = question.trim().toLowerCase();
  if (/\bboth\b/.test(q)) return true;
  if (!/^(?:what|which|where|who|how|in what)\b/.test(q)) return false;
  if (/^how many times\b/.test(q) || /^(?:what|which) are\b/.test(q)) return true;
  if (/^(?:what|which|where|who)\s+(?:\w+\s+){0,2}(?:has|have)\s+(?!to\b|a\b|an\b|the\b)\w+(?:\s+and\s+\w+)?\s+(?!to\b|a\b|an\b|the\b)\w+/.test(q)) return true;
  const head = /^(?:in\s+)?(?:what|which)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?(?:[a-z+-]+\s+)?([a-z]+)\b/.exec(q);
  const plural = (w: string): boolean => w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/.test(w) && !NOT_PLURAL.has(w);
  if (/^(?:in\s+)?(?:what|which)\s+(?:kinds|types|sorts|ways)\b/.test(q)) return true;
  return head !== null && (plural(head[1] as string) || plural(/^(?:in\s+)?(?:what|which)\s+([a-z]+)/.exec(q)?.[1] ?? ''));
}
