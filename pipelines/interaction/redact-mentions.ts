/**
 * What an erasure redacts in other people's turns: the erased person's distinctive names and the identifying values
 * they gave (an agent's read-back "So that is Ilvane Drossmark at 12 Elm Street, phone 555 0142, right?").
 */

import { saysNumberInWords, spokenRuns } from '../../graph/spoken-digits.js';
import { withSpokenValues } from '../memory/spoken-values.js';
import { isCalendarWord } from '../speaker/calendar-words.js';
import { isFunctionWord, labelIsAlsoWord } from '../speaker/name-words.js';
import { MONTH_SHORT } from '../memory/months.js';

/** What a redacted name or value is replaced with in a kept utterance. */
export const ERASED_MARK = '[erased]';

/**
 * Attribute and fact slots whose values identify a person: addresses (`address`, `<kind>_address`), phone numbers,
 * emails, dates of birth, postcodes, codes and PINs (`locker_code`), and the numbers of identifying kinds: account,
 * order, customer, card, passport, licence, booking… (`order_number:45721`). Never any other `*_number` (`favourite_number`).
 */
const CONTACT_SLOT = new RegExp(String.raw`(?:^|_)(?:address|phone|mobile|telephone|landline|fax|email|e_mail|birth|dob|postcode|zip|zipcode)(?:_|:|$)`
  + String.raw`|(?:^|_)(?:account|order|customer|client|card|passport|licence|license|booking|membership|member|policy|invoice|tracking|patient|ssn|iban|tax|insurance)_(?:number|no|reference|ref|id)(?::|$)`
  + String.raw`|_(?:code|pin|passcode|password)(?::|$)`, 'i');
/** The kind of value a contact slot holds, which decides what of it identifies (`slotValues`). */
function slotKind(key: string): 'address' | 'email' | 'date' | 'phone' | 'number' {
  if (/(?:^|_)(?:e_?mail)(?:_|:|$)/i.test(key)) return 'email';
  if (/(?:^|_)(?:birth|dob)(?:_|:|$)/i.test(key)) return 'date';
  if (/(?:^|_)(?:phone|mobile|telephone|landline|fax)(?:_|:|$)/i.test(key)) return 'phone';
  if (/(?:^|_)(?:address|postcode|zip|zipcode)(?:_|:|$)/i.test(key)) return 'address';
  return 'number';
}

/** Whether a slot or attribute key holds an identifying value (`CONTACT_SLOT`); bookkeeping keys (`$…`) never do. */
export function isContactSlot(key: string): boolean {
  return !key.startsWith('$') && CONTACT_SLOT.test(key);
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** A phone number: seven digits or more, grouped by spaces, dots, dashes or brackets. */
const PHONE = /(?<![\p{L}\p{N}])\+?\d[\d ().-]{5,}\d(?![\p{L}\p{N}])/gu;
const STREET_KINDS = 'Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Way|Close|Court|Ct|Place|Pl|Boulevard|Blvd|Crescent|Terrace|Square|Gardens|Grove|Row|Walk|Parade|Mews';
/** A house number and street: "12 Elm Street", "4b Old Mill Lane". */
const STREET = new RegExp(String.raw`(?<![\p{L}\p{N}])\d{1,5}[a-zA-Z]?\s+(?:\p{Lu}[\p{L}'-]*\s+){1,3}(?:${STREET_KINDS})(?![\p{L}\p{N}])`, 'gu');

/**
 * The identifying values the erased person gave: `stated` values of contact slots (their profile attributes and the
 * slots of their facts) that identify by their kind (`slotValues`), and the phone numbers, emails and
 * house-number-and-street found in `texts`, their own words. Never a date, a time, an amount, a bare town or year.
 */
export function identifyingValues(stated: ReadonlyArray<{ key: string; value: unknown }>, texts: readonly string[]): string[] {
  const values: string[] = [];
  for (const { key, value } of stated) {
    if (!isContactSlot(key) || (typeof value !== 'string' && typeof value !== 'number')) continue;
    values.push(...slotValues(slotKind(key), String(value).trim()));
  }
  for (const said of texts) {
    // "call me on five five five oh one four two", "I live at twelve Elm Street": read as digits (rules 55).
    const text = withSpokenValues(said);
    values.push(...text.match(EMAIL) ?? [], ...text.match(STREET) ?? []);
    values.push(...(text.match(PHONE) ?? []).filter(phoneShaped));
  }
  return [...new Set(values.map((v) => v.trim()))].filter(redactable);
}

/**
 * What of a contact slot's value identifies: an address only as far as it holds a number (a street address, "12 Elm
 * Street" of "12 Elm Street, Vessingham"; never a bare "London"), an email holding "@", a date of birth only as a full
 * date (never a bare year "1985"), a phone number of seven digits or more, another number of four digits or more. A
 * value kept in words ("five five five oh one four two", "twelve Park Road") is read with its digits.
 */
function slotValues(kind: ReturnType<typeof slotKind>, said: string): string[] {
  const v = asDigits(said);
  switch (kind) {
    case 'address': return /\d/.test(v) ? [v, ...v.split(/[,;\n]/).map((p) => p.trim()).filter((p) => /\d/.test(p))] : [];
    case 'email': return v.includes('@') ? [v] : [];
    case 'date': return FULL_DATE.test(v) ? [v] : [];
    case 'phone': return digitsOf(v).length >= 7 ? [v] : [];
    case 'number': return digitsOf(v).length >= 4 ? [v] : [];
  }
}

/**
 * `value` with the number it opens with, said in words, as digits: all of it when it is nothing but a number ("five five
 * five oh one four two" → "5550142"), else its house number ("twelve Park Road" → "12 Park Road"); else as it is.
 */
function asDigits(value: string): string {
  if (!saysNumberInWords(value)) return value;
  const run = spokenRuns(value, 1)[0];
  if (!run || run.start !== 0 || /^\d+$/.test(value.slice(0, run.end))) return value;
  return run.end === value.length ? run.digits : /^\s+\p{L}/u.test(value.slice(run.end)) && /^\d+$/.test(run.digits) ? run.digits + value.slice(run.end) : value;
}

/** A month's first letters (`MONTH_SHORT` and "may"), its name's rest read by `[a-z]*`. */
const MONTHS = `${MONTH_SHORT}|may`;
/** A full date: day, month and year ("1985-03-15", "15/03/1985", "15 March 1985", "March 15, 1985"). */
const FULL_DATE = new RegExp(String.raw`\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}(?:st|nd|rd|th)?\s+(?:${MONTHS})[a-z]*\.?,?\s+\d{2,4}|(?:${MONTHS})[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{2,4}`, 'i');

/**
 * Whether a run of digits found in someone's words has a phone number's shape: seven to fifteen digits, and no date
 * ("2024-01-15", "15.01.2024"), time range ("10.00-12.00") or amount grouped in thousands ("1 000 000", "1,000,000").
 */
function phoneShaped(found: string): boolean {
  const digits = digitsOf(found).length;
  if (digits < 7 || digits > 15) return false;
  const t = found.trim();
  if (/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$|^\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}$/.test(t)) return false;
  if (/\d[.:]\d{2}\s*-\s*\d{1,2}[.:]\d{2}/.test(t)) return false;
  if (/^\d{1,3}(?:[ ,.]\d{3})+$/.test(t)) return false;
  return true;
}

/** A value long enough to identify: four digits or more when it is a number, else three characters with a letter or digit. */
function redactable(value: string): boolean {
  return isNumber(value) ? digitsOf(value).length >= 4 : value.length >= 3 && /[\p{L}\p{N}]/u.test(value);
}

function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/** A value of digits and separators only: matched however the digits are grouped ("5550142" in "555 0142"). */
function isNumber(value: string): boolean {
  return /^\+?[\d ().-]+$/.test(value) && /\d/.test(value);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A pattern of each value (case-insensitive, spaces as any run of them; a number however its digits are grouped, never
 * inside a decimal or a longer number), as a whole word, longest first.
 */
function valuePatterns(values: readonly string[]): RegExp[] {
  return byLength(values).map((v) => (isNumber(v)
    ? new RegExp(`(?<!\\d|\\d[.,])${[...digitsOf(v)].join(v.includes('.') ? '[\\s().-]*' : '[\\s()-]*')}(?![.,]?\\d)`, 'gu')
    : bounded(v.split(/\s+/).map(escape).join('\\s+'), 'i')));
}

function bounded(core: string, flags: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])${core}(?![\\p{L}\\p{N}_])`, `gu${flags}`);
}

function byLength(list: readonly string[]): string[] {
  return [...new Set(list)].sort((a, b) => b.length - a.length);
}

/** A greeting or thanks before a name: "Hi Will", "Thanks May". */
const GREETING = /(?:^|[^\p{L}])(?:hi|hey|hello|thanks|thank you|bye|goodbye|dear|morning|evening|cheers)[,!]?\s+$/iu;

/**
 * Whether the one-word name found at `at` in `text` is used as the person's name. A name that is also a word
 * (`labelIsAlsoWord`: "Will", "Mark", "May") counts only as an addressee ("Will, can you…", "Thanks, Will.", "Hi Will"),
 * or, unless it is a function word, day or month, written capitalised mid-sentence ("I told Will"); never at the start
 * of a sentence ("Will you call back?", "Mark the date."). Any other name counts wherever it is written.
 */
function usedAsName(text: string, at: number, name: string): boolean {
  if (/\s/.test(name) || !labelIsAlsoWord(name)) return true;
  const before = text.slice(0, at);
  const after = text.slice(at + name.length);
  const sentenceStart = /(?:^|[.!?:;]["')\]]?\s+|["'(\[]\s*|\n\s*)$/u.test(before);
  const vocative = (sentenceStart && /^\s*,/.test(after)) || (/,\s*$/.test(before) && /^\s*(?:[.!?]|$)/.test(after)) || GREETING.test(before);
  if (vocative) return true;
  const lower = name.toLowerCase();
  return !sentenceStart && !isFunctionWord(lower) && !isCalendarWord(lower);
}

/**
 * `text` with every one of `names` (case as written, as `textNames` reads fact texts; a name that is also a word only
 * where it is used as one, `usedAsName`) and `values` replaced by {@link ERASED_MARK}; the same string when it holds none.
 */
export function redactText(text: string, names: readonly string[], values: readonly string[]): string {
  let out = withoutSpokenValues(text, values);
  for (const pattern of valuePatterns(values)) out = out.replace(pattern, ERASED_MARK);
  for (const name of byLength(names)) {
    out = out.replace(bounded(escape(name), ''), (found: string, at: number, whole: string) => (usedAsName(whole, at, found) ? ERASED_MARK : found));
  }
  return out;
}

/**
 * `text` with each of `values` read back in words replaced by {@link ERASED_MARK}: a number whose digits are said one by
 * one ("five five five oh one four two" for "555 0142"), an address whose house number is ("twelve Elm Street" for "12
 * Elm Street"). The same string when it says none.
 */
function withoutSpokenValues(text: string, values: readonly string[]): string {
  const numbers = new Set(values.filter(isNumber).map(digitsOf));
  const addresses = values.map((v) => /^(\d+)\s+(\S.*)$/.exec(v)).filter((m) => m !== null);
  if (numbers.size === 0 && addresses.length === 0) return text;
  let out = text;
  for (const run of spokenRuns(text, 1).reverse()) {
    if (/^[\d\s,-]+$/.test(text.slice(run.start, run.end))) continue;
    let end = numbers.has(run.digits) ? run.end : -1;
    for (const [, house, street] of addresses) {
      const rest = house === run.digits ? new RegExp(`^\\s+${street!.split(/\s+/).map(escape).join('\\s+')}(?![\\p{L}\\p{N}_])`, 'iu').exec(text.slice(run.end)) : null;
      if (rest) end = Math.max(end, run.end + rest[0].length);
    }
    if (end >= 0) out = out.slice(0, run.start) + ERASED_MARK + out.slice(end);
  }
  return out;
}

/** The words that may end a number of `digits` said in words: "two" or "twelve" for "…2", "oh", "ten" or "-ty" for "…0". */
function spokenEnding(digits: string): string[] {
  const last = ['zero|oh|nought|ten|ty|hundred', 'one|eleven', 'two|twelve', 'three|thirteen', 'four', 'five|fifteen', 'six', 'seven', 'eight', 'nine'];
  return last[Number(digits.slice(-1))]?.split('|') ?? [];
}

/**
 * Fragments every text holding a name or value holds (case aside): a store's cheap first cut before
 * {@link redactText} decides. A name itself; a value's longest word; a number's last two digits (however grouped) and
 * the words its last digit may be said by.
 */
export function candidateFragments(names: readonly string[], values: readonly string[]): string[] {
  const longest = (v: string): string => v.split(/[^\p{L}\p{N}]+/u).reduce((a, b) => (b.length > a.length ? b : a), '');
  // A number read back in words ("five five five oh one four two") holds the word of its last digit.
  const spoken = values.filter(isNumber).flatMap((v) => spokenEnding(digitsOf(v)));
  return [...new Set([...names, ...values.map((v) => (isNumber(v) ? digitsOf(v).slice(-2) : longest(v))), ...spoken])].filter((f) => f.length > 0);
}
