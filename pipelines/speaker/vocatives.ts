/**
 * Vocatives: which words of an utterance call someone by name, and where ("Ben, can you…", "…, Ben?", "thanks, Ana",
 * "Done Tom, your repair is booked", and in recognised speech without punctuation "robert can you send me…"). The one
 * reader of them: callers keep their own policy (whom a name may be, what a fact keeps, whom a turn is said to).
 */
import { givenNamePrevalence } from './given-names.js';
import { capitalise, isMixedCase, nameAt, tokens } from './name-tokens.js';
import { labelIsAlsoWord } from './name-words.js';
import { MONTH_NAME, WEEKDAY_NAME } from '../memory/months.js';

const OPENERS = new Set(['hi', 'hey', 'hello', 'thanks', 'thank', 'ok', 'okay', 'so', 'well', 'yes', 'no', 'sorry', 'right', 'morning', 'bye', 'goodbye', 'cheers']);
/** What follows a turn-opening vocative in unpunctuated speech: "ana what do you think", "robert can you…". */
const QUESTION_OPENERS = new Set(['what', 'when', 'where', 'who', 'why', 'how', 'which', 'please', 'thanks', 'thank']);
const REQUEST_OPENERS = new Set(['could', 'would', 'can', 'do', 'did', 'are', 'have', 'will', 'should', 'were']);

/** "robert can you…", "ana what…": not "robert is late", "robert did it". */
function opensRequest(next: string, after: string[]): boolean {
  return QUESTION_OPENERS.has(next) || (REQUEST_OPENERS.has(next) && after.includes('you'));
}

/** `text` without the pronoun "I", which recognised speech writes capitalised too. */
const withoutPronounI = (text: string): string => text.replace(/\bI\b/g, '');

/**
 * Words used vocatively: "Ana, can you…", "…, Ben?", "thanks, Ana", "hi Ben", and in recognised speech
 * without punctuation a turn-opening name followed by a question or request ("robert can you send me…").
 * With `known` names (lower-case), only those count and case does not matter; otherwise a first name
 * (see `nameAt`: listed, or capitalised in typed text) is required.
 */
export function findVocatives(text: string, known?: ReadonlySet<string>): string[] {
  // "robert can you tell me what I need": the pronoun "I", capitalised in recognised speech too, makes no typed text.
  const cased = isMixedCase(withoutPronounI(text));
  const t = tokens(text);
  const ok = (k: number): boolean => (known ? known.has(t[k]?.lower ?? '') : nameAt(t, k, { cased }));
  const found: string[] = [];
  const isPunct = (k: number): boolean => k < 0 || k >= t.length || t[k]!.pos === 'PUNCT';
  for (let k = 0; k < t.length; k++) {
    if (!ok(k)) continue;
    const prev = t[k - 1]?.lower ?? '';
    const startSlot =
      k === 0 || isPunct(k - 1) || OPENERS.has(prev) || (prev === 'you' && t[k - 2]?.lower === 'thank') || (prev === 'and' && ok(k - 2));
    // Followed by a comma or the end of the sentence: "Ana, …", "…, Ben?", "thanks Ana".
    const endSlot = isPunct(k + 1) || t[k + 1]?.lower === 'and';
    const commaBefore = t[k - 1]?.value === ',';
    // Unpunctuated speech: "robert can you…" opens the turn with the name, then a request or question.
    const spokenOpening = !cased && (k === 0 || OPENERS.has(prev)) && k + 1 < t.length &&
      opensRequest(t[k + 1]!.lower, t.slice(k + 2, k + 4).map((x) => x.lower));
    // Typed text: a name closing its sentence (".", "!", "?" or the end) after a word that ends a clause ("See you tomorrow
    // Ben."; rules 80; "Can you send me the invoice tomorrow Ben?"; rules 82), as `clauseClosing` reads a listener's;
    // unpunctuated speech only there, with a listener's name. A name no one is known by must be a listed first name, no day
    // or month, and not after a determiner ("See you Sunday.", "I saw that Madonna."). "Did you see Ben?", "Is it Ben?": asked about.
    const typedClosing = cased && k > 0 && (k + 1 === t.length || ['.', '!', '?'].includes(t[k + 1]!.value)) && closesAsCall(prev, t[k - 2]?.lower)
      && (known !== undefined || (givenNamePrevalence(t[k]!.value) > 0 && !DETERMINERS.has(prev) && !CALENDAR.test(t[k]!.lower)));
    if ((startSlot && endSlot) || (commaBefore && isPunct(k + 1)) || spokenOpening || typedClosing) {
      found.push(known ? t[k]!.lower : capitalise(t[k]!.value));
    }
  }
  return [...new Set(found)];
}

/**
 * Words that may open a call by name: "hey Ben, …", "thanks Ben, …", and an agent's acknowledgement before the caller's
 * name ("Done Maria, the new address is…", "Sure Tom, …"; calls2).
 */
const ACKNOWLEDGEMENTS = ['hi', 'hey', 'hello', 'thanks', 'thank you', 'ok', 'okay', 'so', 'well', 'yes', 'yeah', 'no', 'sorry', 'right', 'oh',
  'and', 'but', 'done', 'sure', 'great', 'perfect', 'alright', 'all right', 'of course', 'certainly', 'noted', 'got it', 'no problem'];
const CALL_OPENERS = `(?:${[...ACKNOWLEDGEMENTS].sort((a, b) => b.length - a.length).join('|')})`;
const ACKNOWLEDGED = new Set(ACKNOWLEDGEMENTS);

/** The sentences of `text`, split after their closing punctuation. */
export const sentencesOf = (text: string): string[] => text.split(/(?<=[.!?])\s+/);

/**
 * Listed first names an acknowledgement opening a sentence calls, capitalised, before a comma ("Done Tom, your repair is
 * booked", "No problem, Tom, …", "Sure Maria, …"): a person called whether or not anyone present holds the name
 * (trial11 F5: the agent's text on a call, stored before the caller's first words).
 */
export function acknowledgedNames(text: string): string[] {
  const found: string[] = [];
  for (const sentence of sentencesOf(text)) {
    const m = /^\s*(\p{L}+(?:\s+\p{L}+)?)\s*,?\s+(\p{Lu}\p{Ll}+)\s*,\s*\S/u.exec(sentence);
    if (m && ACKNOWLEDGED.has(m[1]!.toLowerCase().replace(/\s+/g, ' ')) && givenNamePrevalence(m[2]!) > 0) found.push(m[2]!);
  }
  return found;
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Titles a listener's name may carry, never called alone ("Agent Kim", "Mrs Lopez"). */
const TITLES = new Set(['agent', 'mr', 'mrs', 'ms', 'miss', 'dr', 'sir', 'madam', 'doctor']);

/** The names a listener may be called by: the name whole, and each word of a longer one ("Tom" for Tom Becker; calls2). */
export function calledBy(listener: string): string[] {
  const words = listener.trim().split(/\s+/).map((w) => w.replace(/[.,]+$/, ''));
  const parts = words.length > 1 ? words.filter((w) => w.length > 1 && !TITLES.has(w.toLowerCase())) : [];
  return [listener, ...parts];
}

/** Where a sentence calls someone by name: the characters `[start, end)` of the call, with its opener and punctuation. */
export interface VocativeSpan {
  start: number;
  end: number;
  /**
   * At the sentence's start ("Hey Ben, …", unpunctuated "ben can you…"), at its end ("…, Ben."), or the whole sentence
   * ("Thanks Ben!", "Ben!"; a call and nothing else).
   */
  at: 'opening' | 'closing' | 'whole';
}

/** Greetings and thanks before a name in unpunctuated speech: "thanks ana see you friday", "hi ben". */
const SPOKEN_GREETINGS = ['hi', 'hey', 'hello', 'thanks', 'thank you', 'cheers', 'bye', 'goodbye', 'morning'];
/** A question or a request to "you" after a name opening unpunctuated speech ("ben can you…"; as `opensRequest` reads it). */
const SPOKEN_REQUEST = `(?:${[...QUESTION_OPENERS].join('|')})\\b|(?:${[...REQUEST_OPENERS].join('|')})\\s+(?:\\S+\\s+)?you\\b`;
const SPOKEN_OPENERS = `(?:${[...OPENERS, 'thank you'].sort((a, b) => b.length - a.length).join('|')})`;

/** Recognised speech as the rules see it: no capitals but the pronoun "I" (written capitalised in recognised speech too). */
const isSpoken = (sentence: string): boolean => !/\p{Lu}/u.test(withoutPronounI(sentence));

/**
 * Where `sentence` calls one of `listeners` (the whole name or one word of a longer one, in any case) at its start or
 * its end: "Ben, my sister moved", "Hey Ben, …", "I'll bring the tent, Ben", "…, thanks Ben!", "See you tomorrow Ben."
 * (`clauseClosing`), and in unpunctuated speech (no capitals) "ben can you send it", "thanks ben see you friday". Not a
 * name inside what is said ("Ben is a great cook", "ben is late"). A sentence that is a call and nothing else ("Thanks
 * Ben!", "Ben!") is one span `whole`. The closing call is read after the opening one is set aside. The listeners are
 * names known to the session: in speech without punctuation only a known name can be told from a word that opens the
 * sentence.
 */
export function edgeVocatives(sentence: string, listeners: readonly string[]): VocativeSpan[] {
  const called = listeners.flatMap(calledBy).filter((n) => n.trim().length > 1).sort((a, b) => b.length - a.length);
  if (called.length === 0) return [];
  const name = `(?:${called.map(esc).join('|')})`;
  // "hello may i ask…", "bill can you…": unpunctuated, a name that is also a word is read as the word.
  const spokenNames = called.filter((n) => !labelIsAlsoWord(n)).map(esc);
  const spoken = `(?:${spokenNames.join('|')})`;
  const spans: VocativeSpan[] = [];
  const opening = new RegExp(`^\\s*(?:${CALL_OPENERS}[\\s,]+)?${name}\\s*[,:!]\\s+(?=\\S)`, 'i').exec(sentence) ?? (spokenNames.length > 0 && isSpoken(sentence)
    ? new RegExp(`^\\s*(?:(?:${SPOKEN_GREETINGS.join('|')})\\s+${spoken}\\s+(?=\\S)|(?:${SPOKEN_OPENERS}\\s+)?${spoken}\\s+(?=${SPOKEN_REQUEST}))`, 'i').exec(sentence)
    : null);
  const from = opening ? opening[0].length : 0;
  if (opening) spans.push({ start: 0, end: from, at: 'opening' });
  const whole = new RegExp(`^\\s*(?:${CALL_OPENERS}[\\s,]+${name}\\s*[.!?]*|${name}\\s*!+)\\s*$`, 'i').test(sentence);
  const rest = sentence.slice(from);
  const closing = new RegExp(`\\s*,\\s*(?:${CALL_OPENERS}\\s+)?${name}(?=\\s*[.!?]*\\s*$)`, 'i').exec(rest) ?? (whole ? null
    : isSpoken(sentence) ? (spokenNames.length > 0 ? clauseClosing(rest, spoken, false) : null) : clauseClosing(rest, name, true));
  if (closing) spans.push({ start: from + closing.index, end: from + closing.index + closing[0].length, at: 'closing' });
  if (spans.length > 0) return spans;
  return whole ? [{ start: 0, end: sentence.length, at: 'whole' }] : [];
}

/**
 * Words after which a name closing a sentence is no object but a call: a pronoun or a word of time or manner that ends a
 * clause ("see you tomorrow ben", "can you send it ben", "thanks for that ana", "See you Friday Ana."). Not a verb or a
 * preposition, which would take the name ("I met ben", "talk to ana", "I went with Ben.").
 */
const CLAUSE_ENDS = new Set(['it', 'that', 'this', 'these', 'those', 'you', 'tomorrow', 'today', 'tonight', 'later', 'soon', 'now', 'then',
  'again', 'too', 'please', 'here', 'there', 'already', 'yet', 'anyway', 'though', 'first', 'asap', 'morning', 'afternoon', 'evening',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'weekend']);
/** Words of `CLAUSE_ENDS` that may be determiners, taking a capitalised word after them ("that Madonna", "this April"). */
const DETERMINERS = new Set(['this', 'that', 'these', 'those']);
/** Days and months, which close a sentence as when, not whom ("See you Sunday.", "See you June!"). */
const CALENDAR = new RegExp(`^(?:${WEEKDAY_NAME}|${MONTH_NAME})$`);
/** A verb "to be" before "it", "that", "you"…: the name after them is asked about, not called ("is it ben", "are you ben"). */
const COPULAS = new Set(['is', 'was', 'are', 'were', "isn't", "wasn't", "aren't", "weren't", "'s", 'be']);

/**
 * Whether a name closing its sentence after the word `last` (lower case; `beforeLast` the one before it) calls someone:
 * after a word that ends a clause (`CLAUSE_ENDS`), not after one asked about ("is it ben", "are you Ben"). The one reading
 * of a closing call without a comma, unpunctuated (rules 77) or typed (rules 80).
 */
function closesAsCall(last: string, beforeLast: string | undefined): boolean {
  return CLAUSE_ENDS.has(last) && !COPULAS.has(beforeLast ?? '');
}

/**
 * The call by one of the `names` (a pattern) that closes `text` after a word that ends a clause (`closesAsCall`), with
 * the space before it, before any closing mark. Unpunctuated speech: in any case. `typed` text: the name as written
 * (capitalised; "See you tomorrow Ben."; rules 80; "Can you send me the invoice tomorrow Ben?"; rules 82).
 */
function clauseClosing(text: string, names: string, typed: boolean): RegExpExecArray | null {
  const m = new RegExp(`(?<=(?:^|\\s)(?:(\\S+)\\s+)?(\\S+))\\s+${names}(?=\\s*[.!?]*\\s*$)`, typed ? '' : 'i').exec(text);
  return m && closesAsCall(m[2]!.toLowerCase(), m[1]?.toLowerCase()) ? m : null;
}

/**
 * Names `text` calls someone by, whoever holds them (`findVocatives`, capitalised, then `acknowledgedNames`: "Done Maria,
 * …"): what a caller that knows no listener reads.
 */
export function namesCalledIn(text: string): string[] {
  return [...new Set([...findVocatives(text), ...acknowledgedNames(text)])];
}

/** Whether `listener` answers to `name`: their whole name or one word of a longer one (`calledBy`), case aside. */
export function answersTo(listener: string, name: string): boolean {
  return calledBy(listener).some((n) => n.toLowerCase() === name.toLowerCase());
}

/**
 * Which of `listeners` (names known to the session) `text` calls, by the whole name or one word of a longer one, anywhere
 * in it: as `findVocatives` reads a call ("I think, Ben, that…", "ana and ben, lunch is ready") or at a sentence's edge
 * as `edgeVocatives` does ("Hi Tom.", "Done Tom, …", "thanks ben see you friday", "see you tomorrow ben").
 */
export function calledListeners(text: string, listeners: readonly string[]): string[] {
  const found = new Set(findVocatives(text, new Set(listeners.flatMap(calledBy).map((n) => n.toLowerCase()))));
  const sentences = sentencesOf(text);
  return listeners.filter((l) => calledBy(l).some((n) => found.has(n.toLowerCase())) || sentences.some((s) => edgeVocatives(s, [l]).length > 0));
}
