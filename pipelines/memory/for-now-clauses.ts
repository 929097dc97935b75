/**
 * A liking held for now said beside something lasting, in one sentence (rules 38): "I love jazz, but for now I'm into
 * techno", "I'm a DJ at weekends, and for now I like deep house". The cue of the present ("for now", "these days")
 * belongs to its own clause only; read whole, the sentence gave one liking held for now of the wrong thing ("jazz") or
 * dropped the job. Such a sentence is read as its first-person clauses, each a sentence of its own.
 */
import { FOR_NOW_CUE, forNowPreference } from './temporary-slots.js';

const CUE = new RegExp(String.raw`\b${FOR_NOW_CUE}\b`, 'i');
/**
 * Where a first-person clause starts after another: after "," or ";" or "and / but / so", before "I" (a cue or "also"
 * may come first: "but for now I'm into techno").
 */
const FIRST_PERSON_CLAUSE = new RegExp(String.raw`\s*[,;]\s*(?:(?:and|but|so)\s+)?|\s+(?:and|but|so)\s+`
  + String.raw`(?=(?:(?:${FOR_NOW_CUE}|also|honestly|really),?\s+)*I(?:['’](?:m|ve|d|ll))?\b)`, 'gi');
/** A cut made only before "I" (`FIRST_PERSON_CLAUSE` checks what follows only after "and / but / so"). */
const BEFORE_I = new RegExp(String.raw`^(?:(?:${FOR_NOW_CUE}|also|honestly|really),?\s+)*I(?:['’](?:m|ve|d|ll))?\b`, 'i');

/**
 * `sentence` as its first-person clauses when one of them holds a liking for now (`forNowPreference`) and another has
 * no cue of the present; else the sentence alone.
 */
export function forNowClauses(sentence: string): string[] {
  if (!CUE.test(sentence)) return [sentence];
  const pieces: string[] = [];
  let from = 0;
  for (const m of sentence.matchAll(FIRST_PERSON_CLAUSE)) {
    const at = m.index ?? 0;
    const rest = sentence.slice(at + m[0].length);
    if (!BEFORE_I.test(rest)) continue;
    pieces.push(sentence.slice(from, at));
    from = at + m[0].length;
  }
  pieces.push(sentence.slice(from));
  const clauses = pieces.map((p) => p.trim()).filter((p) => p.length > 0);
  if (clauses.length < 2 || !BEFORE_I.test(clauses[0]!)) return [sentence];
  const heldForNow = clauses.some((c) => forNowPreference(c) !== null);
  return heldForNow && clauses.some((c) => !CUE.test(c)) ? clauses : [sentence];
}
