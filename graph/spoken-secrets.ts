/**
 * The one reader of a secret given in speech (a PIN, a password, a passcode, a code word, a card's security code, a
 * door, gate or alarm code, a combination) and of where its value lies. Only a value given counts: "my password was
 * changed yesterday", "the wifi password is on the fridge" and "my PIN is locked" give none. What reads it:
 * - fact extraction: a secret's clause gives no fact and no attribute (`withoutSecretClause`, rules 55, 56, 62);
 * - the transcript stored at ingest (and the redaction of turns stored before it, pipelines/interaction/redact-stored-secrets.ts):
 *   "[redacted]" in place of a value holding a digit (`withSecretsRedacted`);
 * - the lexical index: no digits of a number said in words that is such a value (`secretDigitValues`, graph/lexical-terms.ts).
 * A value holding a digit never needs its part of speech read; a plain word does ("sunshine" is one, "wrong" none: `secretValues`).
 */
import type { WinkMethods } from 'wink-nlp';
import { spokenRuns } from './spoken-digits.js';

/**
 * What a stored utterance keeps in place of a secret's value ("my PIN is [redacted]"; `withSecretsRedacted`):
 * itself a secret's value, so a transcript read again gives no fact of it.
 */
export const REDACTED_MARK = '[redacted]';

/** A password or a code word named and given: "my password is…", "the passcode's…", "code word:"; the rest follows. */
const SECRET = /\b(?:password|passcode|pass\s+code|passphrase|pass\s+phrase|code\s*word|safe\s*word)\s*(?:(?:is|was)\b|['’]s\b|:)\s*/gi;
/**
 * A secret number named and given: "my PIN is double seven…", "security code: 447", "the door code is 4417", "the safe's
 * combination is 12 34 56" (not "the pin was bent").
 */
const SECRET_NUMBER = /\b(?:pin|pin\s+(?:number|code)|security\s+(?:code|number)|cvv|cvc|card\s+verification\s+(?:code|value)|(?:door|gate|alarm|entry|access|lock|safe)\s+code|combination)\s*(?:(?:is|was)\b|['’]s\b|:)\s*/gi;

/**
 * A part of every secret's name (`SECRET`, `SECRET_NUMBER`): a text that holds none gives no secret. What a scan of stored
 * turns looks for (`GraphStore.utterancesContaining`; pipelines/interaction/redact-stored-secrets.ts).
 */
export const SECRET_NAME_FRAGMENTS: readonly string[] = ['pass', 'code', 'safe', 'pin', 'security', 'cvv', 'cvc', 'verification', 'combination'];

/**
 * Where a secret's value lies in a text (`start`, `end`: offsets of the text searched, an opening quote left out).
 * `plain`: a word with no digit, capital or symbol inside ("sunshine"), a value only where it is a noun, not "wrong" or
 * "expired" (read with its part of speech by `secretValues`). `digits`: the value
 * holds a digit, written or said ("4421", "hunter2", "hunter two", "double seven three one"), the only values the stored
 * transcript redacts (a word said is kept: a false redaction would lose what the user said).
 */
export interface SecretSpan {
  start: number;
  end: number;
  plain: boolean;
  digits: boolean;
}

/** A value's end: where it ends (in `rest`), whether it is a plain word, whether it holds a digit (`SecretSpan`). */
type ValueEnd = Omit<SecretSpan, 'start'>;

/** Where a number said in words of three digits or more opens `rest` ("seven seven three one", "double oh seven"). */
function spokenDigitsEnd(rest: string): number | null {
  const run = spokenRuns(rest, 3)[0];
  return run !== undefined && run.start === 0 ? run.end : null;
}

/** The first word of `rest`, its trailing punctuation left out. */
function firstWord(rest: string): string {
  return /^\S+/.exec(rest)?.[0].replace(/[.,;:!?"'’)]+$/, '') ?? '';
}

/** What ends a clause: punctuation, a closing quote, the end of the text, "and / but / so / because", "ok / thanks / please". */
const CLAUSE_END = /^\s*(?:[,.;!?"'’”)]|$|(?:and|but|so|because|ok|okay|thanks|please)\b)/i;
/** A short hedge said after a value: "I think", "I believe", "I guess", "if I remember right / correctly", "or so", "right?". */
const HEDGE = /^\s*,?\s*(?:i\s+(?:think|believe|guess)|if\s+i\s+remember\s+(?:right|rightly|correctly)|or\s+so|right(?=\s*\?))\b/i;

/**
 * Whether what follows a value ends its clause (`CLAUSE_END`: "my pin is 77 31 ok"), a short hedge after it allowed
 * ("my PIN is 7731 I think", "…5512 if I remember right"; rules 63). "6 digits long", "2FA protected", "four digits long
 * I think" end none: the hedge must come right after the value and end the clause itself.
 */
function endsClause(after: string): boolean {
  const hedge = HEDGE.exec(after);
  return CLAUSE_END.test(hedge ? after.slice(hedge[0].length) : after);
}

/** A word in capitals only ("OK", "TBD", "NONE", "WIFI"): an abbreviation or a word stressed, no value. */
function allCaps(word: string): boolean {
  return /^[\p{Lu}'’.-]+$/u.test(word) && /\p{Lu}.*\p{Lu}|^\p{Lu}$/u.test(word);
}

/**
 * Where the password `rest` opens with ends: one word with a digit ("hunter2"), a capital after a letter or a symbol
 * inside ("TrOub4dor", "p@ss"), a word and a number said after it ("hunter two"), a number said in words (three digits
 * or more), each ending its clause (`endsClause`: not "2FA protected", "12 characters long"), a value redacted
 * (`REDACTED_MARK`), or one plain word that ends the clause ("sunshine": `plain`). Not "on the fridge", "case
 * sensitive", "the same as last time", nor a word in capitals ("OK", "TBD": `allCaps`).
 */
function passwordEnd(rest: string): ValueEnd | null {
  if (rest.startsWith(REDACTED_MARK)) return { end: REDACTED_MARK.length, plain: false, digits: true };
  const word = firstWord(rest);
  const after = rest.slice(word.length);
  if (allCaps(word)) return null;
  if (/\d/.test(word)) return endsClause(after) ? { end: word.length, plain: false, digits: true } : null;
  if (/\p{L}\p{Lu}/u.test(word) || /^[^\s]*\p{L}[^\p{L}\p{N}\s'’-][^\s]*\p{L}/u.test(word)) {
    return endsClause(after) ? { end: word.length, plain: false, digits: false } : null;
  }
  const spoken = spokenDigitsEnd(rest);
  if (spoken !== null) return endsClause(rest.slice(spoken)) ? { end: spoken, plain: false, digits: true } : null;
  const run = spokenRuns(rest, 1)[0];
  if (run !== undefined && /^\S+\s+$/.test(rest.slice(0, run.start)) && endsClause(rest.slice(run.end))) return { end: run.end, plain: false, digits: true };
  return /^\p{L}[\p{L}'’-]*$/u.test(word) && endsClause(after) ? { end: word.length, plain: true, digits: false } : null;
}

/**
 * Where the secret number `rest` opens with ends: digits written ("7731", "77 31") or said (three or more), the end
 * of a clause after them ("the PIN is 30 days old", "the security code is 3 digits" give none).
 */
function secretNumberEnd(rest: string): number | null {
  if (rest.startsWith(REDACTED_MARK)) return REDACTED_MARK.length;
  const written = /^\S*\d(?:[\s-]*\d)*/.exec(rest);
  const end = written ? written[0].length : spokenDigitsEnd(rest);
  return end !== null && endsClause(rest.slice(end)) ? end : null;
}

/** Where a value given at `at` opens, after an opening quote ("the code word is 'pineapple'"). */
function valueStart(text: string, at: number): number {
  return at + (/^["'‘“]+(?=\S)/.exec(text.slice(at))?.[0].length ?? 0);
}

/** Every secret's value `text` gives, in order (`SecretSpan`), plain words included. */
function secretSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const m of text.matchAll(SECRET)) {
    const start = valueStart(text, m.index + m[0].length);
    const found = passwordEnd(text.slice(start));
    if (found) spans.push({ start, ...found, end: start + found.end });
  }
  for (const m of text.matchAll(SECRET_NUMBER)) {
    const start = valueStart(text, m.index + m[0].length);
    const end = secretNumberEnd(text.slice(start));
    if (end !== null) spans.push({ start, end: start + end, plain: false, digits: true });
  }
  return spans.sort((a, b) => a.start - b.start).filter((s, i, all) => i === 0 || s.start >= all[i - 1]!.end);
}


/** Tags of a word that names a value: a noun, a name, a word the tagger does not know. */
const VALUE_TAGS = new Set(['NOUN', 'PROPN', 'X']);
/** Past participles written as their verb ("the password is set / reset / shut"): no value, though tagged a bare verb. */
const SAME_PARTICIPLE = new Set(['set', 'reset', 'shut', 'cut', 'put', 'hit', 'hurt', 'split', 'read', 'upset', 'let', 'quit', 'spread']);

/**
 * Whether the plain word ending `upTo` (the text up to a secret's value) names a value: tagged a noun or a name, or a
 * bare verb that is no participle ("monkey" after "is" is tagged a verb; "expired", "gone", "set" are participles).
 */
function namesValue(nlp: WinkMethods, upTo: string): boolean {
  const tokens = nlp.readDoc(upTo).tokens();
  const words = tokens.out() as string[];
  const tags = tokens.out(nlp.its.pos) as string[];
  const lemmas = tokens.out(nlp.its.lemma as unknown as typeof nlp.its.value) as string[];
  const i = words.length - 1;
  const word = words[i]?.toLowerCase() ?? '';
  if (VALUE_TAGS.has(tags[i] ?? '')) return true;
  return tags[i] === 'VERB' && lemmas[i]?.toLowerCase() === word && !/(?:ed|en|ing)$/.test(word) && !SAME_PARTICIPLE.has(word);
}

/**
 * Every secret's value `text` gives, in order: shaped as one (digits, a symbol, capitals inside, a number said) or a
 * plain word where it names a value ("my password is sunshine": `namesValue`; not "the password is wrong"). A sentence
 * giving one gives no memory, in a fact's words or a profile value.
 */
export function secretValues(nlp: WinkMethods, text: string): SecretSpan[] {
  return secretSpans(text).filter((s) => !s.plain || namesValue(nlp, text.slice(0, s.end)));
}

/**
 * The values of `secretValues` that hold a digit, written or said ("4421", "hunter2", "double seven three one"): what
 * the stored transcript redacts and the lexical index reads no digits of. No part of speech is read: a value with a
 * digit is never a plain word.
 */
export function secretDigitValues(text: string): SecretSpan[] {
  return secretSpans(text).filter((s) => s.digits);
}

/**
 * `sentence` without the clause that gives a secret, and what follows it: "I repair lighthouse lenses and my gate code is
 * 5512." keeps "I repair lighthouse lenses." (before, the whole sentence gave no memory). The clause opens after the last
 * ", " / "; " / "and" / "but" / "so" before the secret's value; with no such break, or one word before it ("Okay, my PIN
 * is 4421"), nothing is kept (empty string). The same string when it gives no secret.
 */
export function withoutSecretClause(nlp: WinkMethods, sentence: string): string {
  const first = secretValues(nlp, sentence)[0];
  if (!first) return sentence;
  const before = sentence.slice(0, first.start);
  const breaks = [...before.matchAll(/(?:[,;]\s+|\s+(?:and|but|so)\s+)/gi)];
  const last = breaks[breaks.length - 1];
  if (!last) return '';
  const kept = before.slice(0, last.index).replace(/[\s,;]+$/, '');
  return kept.split(/\s+/).filter((w) => /\w/.test(w)).length >= 2 ? `${kept}.` : '';
}

/**
 * `text` with each secret's value it gives that holds a digit (`secretDigitValues`: "4421", "hunter2", "double seven
 * three one") replaced by {@link REDACTED_MARK}; the same string when it gives none. A value without a digit
 * ("sunshine", "p@ss") is kept as said: it gives no memory (`secretValues`), but a false redaction would lose the
 * user's words. Redacting a text again changes nothing (the mark is itself a value, replaced by itself).
 */
export function withSecretsRedacted(text: string): string {
  let out = text;
  for (const s of secretDigitValues(text).reverse()) out = out.slice(0, s.start) + REDACTED_MARK + out.slice(s.end);
  return out;
}
