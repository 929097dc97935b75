/**
 * Each clause's own end (rules 36): "I'm working from home, and I'm a postman over the holidays" tells of two states, and
 * the holidays end only the second. A sentence is cut into clauses at punctuation, a dash, "and", "but" or "so" (not at
 * "before" or "when": "until the week before school starts" is one end, rules 37); a piece with no verb ("over the
 * holidays", "and weekends") belongs to the clause before it (the one after, when it opens the sentence), and so does a
 * piece about "it", "that" or "this" ("I'm a barista, and that's until March": the end of what was said before).
 */
import { hasVerb } from './told-tense.js';
import { stateEnd } from './state-end.js';

/** Where a sentence is cut into clauses: punctuation, a dash, or "and" / "but" / "so". */
const CLAUSE_CUT = /[,;:!?.]|\s*[–—]\s+|\s-\s|\b(?:so|and|but)\b/gi;
/** A piece that tells of what the clause before said ("though it's only for the summer", "and that's until March"). */
const ABOUT_BEFORE = new RegExp(String.raw`^[\s,;:–—-]*(?:(?:and|but|so|though|although)\s+)?(?:it|that|this)(?:['’]s|\s+(?:is|will be))`
  + String.raw`\s+(?:(?:only|just|probably|all)\s+)*(?:for|until|till|til|through|over|during)\b`, 'i');

/** A clause of a sentence: where it lies (`from` inclusive, `to` exclusive) and when the state it tells of ends. */
export interface ClauseEnd {
  from: number;
  to: number;
  /** Where a piece about the clause ("though it's only for the summer") joined it, if one did. */
  about?: number;
  /** `stateEnd` of the clause alone, or null. */
  until: string | null;
}

/** The clauses of `text`, each with a verb, with their ends resolved against `refIso`; one clause when it cannot be cut. */
export function clauseEnds(text: string, refIso: string): ClauseEnd[] {
  const cuts = [0, ...[...text.matchAll(CLAUSE_CUT)].map((m) => m.index ?? 0), text.length];
  // `about`: where a piece about the clause ("but it's just until Christmas") joined it, its end read alone when the
  // clause read whole has none (a holiday end is read in a sentence's first clause only, `namedEnd`).
  const clauses: Array<{ from: number; to: number; about?: number }> = [];
  let pending: number | null = null;
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const from: number = pending ?? cuts[i]!;
    const to = cuts[i + 1]!;
    if (to <= cuts[i]!) continue;
    const piece = text.slice(cuts[i], to);
    const last = clauses[clauses.length - 1];
    if (last && ABOUT_BEFORE.test(piece)) {
      last.about ??= cuts[i]!;
      last.to = to;
    } else if (hasVerb(piece)) {
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
  return clauses.map(({ from, to, about }) => ({ from, to, ...(about === undefined ? {} : { about }),
    until: stateEnd(text.slice(from, to), refIso) ?? (about === undefined ? null : stateEnd(text.slice(about, to), refIso)) }));
}

/**
 * The end of a fact whose value is `value`: the end of the clause that says the value ("postman" in "…, and I'm a postman
 * over the holidays"), or `sentenceEnd` when the sentence is one clause or the value is not said in it as written (as a
 * whole word).
 */
export function endOfValue(text: string, clauses: ClauseEnd[], value: string | null, sentenceEnd: string | null): string | null {
  return endOfWords(text, clauses, [value], sentenceEnd);
}

/**
 * The end of a fact of `slot` and `value`: a liking's value is its polarity ("love", "dislike"), so a `preference:<thing>`
 * fact ends as the clause that names the thing ("I'm off until Monday, and I hate Thai food": no end), or, when the
 * thing is not written as its slot says, the clause of the value (rules 37). Other facts as `endOfValue`.
 */
export function endOfFact(text: string, clauses: ClauseEnd[], slot: string | null, value: string | null, sentenceEnd: string | null): string | null {
  return endOfWords(text, clauses, factWords(slot, value), sentenceEnd);
}

/** The end of the clause that says the first of `words` written in `text`; `sentenceEnd` when none is. */
function endOfWords(text: string, clauses: ClauseEnd[], words: Array<string | null>, sentenceEnd: string | null): string | null {
  // One clause with a piece about it joined ("I'm a postman but it's just until Christmas"): that clause's end.
  if (clauses.length < 2) return clauses[0]?.about === undefined ? sentenceEnd : clauses[0].until;
  const clause = clauseSaying(text, clauses, words);
  return clause === undefined ? sentenceEnd : clause?.until ?? null;
}

/** The words a fact of `slot` and `value` is said by: a liking's thing first (its value is its polarity), then the value. */
export function factWords(slot: string | null, value: string | null): Array<string | null> {
  return [slot && /^preference:./.test(slot) ? slot.slice('preference:'.length) : null, value];
}

/**
 * The clause of `clauses` that says the first of `words` written in `text`: undefined when none is written, null when
 * it is written outside every clause.
 */
export function clauseSaying(text: string, clauses: ClauseEnd[], words: Array<string | null>): ClauseEnd | null | undefined {
  for (const word of words) {
    const at = word ? whereSaid(text, word) : -1;
    if (at >= 0) return clauses.find((c) => at >= c.from && at < c.to) ?? null;
  }
  return undefined;
}

/** Where `value` is said in `text`: as a whole word ("art" is not inside "start"), or anywhere when it opens or ends with no word character; -1 when not. */
function whereSaid(text: string, value: string): number {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const whole = new RegExp(String.raw`(?<![\w-])${escaped}(?![\w-])`, 'i').exec(text);
  return whole ? whole.index : /^\w(?:.*\w)?$/.test(value) ? -1 : text.toLowerCase().indexOf(value.toLowerCase());
}
