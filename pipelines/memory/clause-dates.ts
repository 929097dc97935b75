/**
 * A fact's date from its own clause (rules 39): "Hi, I'm Dana, and next week I start a new job" tells two things, and
 * "next week" dates only the second; Dana's name was given now, not next week. A sentence is cut as for clause ends
 * (`clauseEnds`); a fact is placed in the clause that says its value (or a liking's thing).
 */
import { type ClauseEnd, clauseSaying, factWords } from './clause-ends.js';
import { type FoundDate, eventDate } from './relative-date.js';

/**
 * When the fact of `slot` and `value` happened: `eventDate` of the clause of `text` that says it, from the dates found
 * in that clause alone (`found`: `findDates` of the whole `text`); `sentenceEvent` when the sentence is one clause or the
 * fact's words are not written in it.
 */
export function eventOfFact(text: string, clauses: ClauseEnd[], slot: string | null, value: string | null, found: FoundDate[],
  refIso: string, sentenceEvent: string | null): string | null {
  if (clauses.length < 2 || !value) return sentenceEvent;
  const clause = clauseSaying(text, clauses, factWords(slot, value));
  if (!clause) return sentenceEvent;
  const own = text.slice(clause.from, clause.to);
  return eventDate(own, refIso, found.filter((d) => new RegExp(`(?<![\\w'’])${escape(d.phrase)}(?![\\w'’])`, 'i').test(own)));
}

function escape(words: string): string {
  return words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
