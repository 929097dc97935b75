/**
 * Each clause's own end (rules 36): "I'm working from home, and I'm a postman over the holidays" tells of two states, and
 * the holidays end only the second. A sentence is cut into clauses where `clauseAround` cuts it; a piece with no verb
 * ("over the holidays", "and weekends") belongs to the clause before it (the one after, when it opens the sentence).
 */
import { CLAUSE_BREAK, hasVerb } from './relative-date.js';
import { stateEnd } from './state-end.js';

/** A clause of a sentence: where it lies (`from` inclusive, `to` exclusive) and when the state it tells of ends. */
export interface ClauseEnd {
  from: number;
  to: number;
  /** `stateEnd` of the clause alone, or null. */
  until: string | null;
}

/** The clauses of `text`, each with a verb, with their ends resolved against `refIso`; one clause when it cannot be cut. */
export function clauseEnds(text: string, refIso: string): ClauseEnd[] {
  const cuts = [0, ...[...text.matchAll(CLAUSE_BREAK)].map((m) => m.index ?? 0), text.length];
  const clauses: Array<{ from: number; to: number }> = [];
  let pending: number | null = null;
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const from: number = pending ?? cuts[i]!;
    const to = cuts[i + 1]!;
    if (to <= cuts[i]!) continue;
    const piece = text.slice(cuts[i], to);
    const last = clauses[clauses.length - 1];
    if (hasVerb(piece)) {
      clauses.push({ from, to });
      pending = null;
    } else if (last) {
      last.to = to;
    } else {
      pending = from;
    }
  }
  if (clauses.length === 0) return [{ from: 0, to: text.length, until: stateEnd(text, refIso) }];
  clauses[clauses.length - 1]!.to = text.length;
  return clauses.map((c) => ({ ...c, until: stateEnd(text.slice(c.from, c.to), refIso) }));
}

/**
 * The end of a fact whose value is `value`: the end of the clause that says the value ("postman" in "…, and I'm a postman
 * over the holidays"), or `sentenceEnd` when the sentence is one clause or the value is not said in it as written (as a
 * whole word).
 */
export function endOfValue(text: string, clauses: ClauseEnd[], value: string | null, sentenceEnd: string | null): string | null {
  if (clauses.length < 2 || !value) return sentenceEnd;
  // As a whole word ("art" is not inside "start"); a value that opens or ends with no word character as written.
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const whole = new RegExp(String.raw`(?<![\w-])${escaped}(?![\w-])`, 'i').exec(text);
  const at = whole ? whole.index : /^\w(?:.*\w)?$/.test(value) ? -1 : text.toLowerCase().indexOf(value.toLowerCase());
  if (at < 0) return sentenceEnd;
  return clauses.find((c) => at >= c.from && at < c.to)?.until ?? null;
}
