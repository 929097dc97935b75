/**
 * Length caps on memory texts. A turn may be 10,000 characters of unpunctuated speech (a dictation, a pasted
 * document); the rules' statement fallback would record it whole as one fact and every query item would carry it
 * twice (its text and `source_text`). A fact is cut to its first clause within {@link MAX_FACT_CHARS}; a served
 * `source_text` to {@link MAX_SOURCE_TEXT_CHARS} with an ellipsis.
 */

/** The longest fact text the rules record; a longer one is cut at a clause bound, or not recorded when it has none. */
export const MAX_FACT_CHARS = 300;
/** The longest `source_text` a query or memory item carries; the rest is cut at a word bound and marked with "…". */
export const MAX_SOURCE_TEXT_CHARS = 500;

/** Shortest clause worth keeping as a fact (shorter cuts are no statement of their own). */
const MIN_CLAUSE_CHARS = 40;

/**
 * `text` when it is at most `max` characters; else its longest prefix ending at a sentence or clause bound
 * (the last ". ", "; ", ": " or ", " within it, else the last " and ", " but ", " so ", " because "…) of at least
 * 40 characters, without the bound;
 * null when it has none (an over-long unpunctuated statement, not recorded).
 */
export function clauseCapped(text: string, max: number = MAX_FACT_CHARS): string | null {
  if (text.length <= max) return text;
  const head = text.slice(0, max + 1);
  const last = (re: RegExp): number | undefined => [...head.matchAll(re)].map((m) => m.index).filter((i) => i >= MIN_CLAUSE_CHARS && i <= max).pop();
  // A punctuation mark first; a conjunction only where the words run on unpunctuated.
  const cut = last(/[.!?;:,](?=\s)/g) ?? last(/\s(?=(?:and|but|so|because|which|while)\s)/gi);
  return cut === undefined ? null : text.slice(0, cut).trimEnd();
}

/** `text` cut to at most `max` characters at a word bound, with "…" added when anything was cut. */
export function ellipsised(text: string, max: number = MAX_SOURCE_TEXT_CHARS): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${(space >= max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
