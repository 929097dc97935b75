/**
 * What an erasure redacts in other people's turns: the erased person's distinctive names and the identifying values
 * they gave (an agent's read-back "So that is Ilvane Drossmark at 12 Elm Street, phone 555 0142, right?").
 */

/** What a redacted name or value is replaced with in a kept utterance. */
export const ERASED_MARK = '[erased]';

/**
 * Attribute and fact slots whose values identify a person: addresses (`address`, `<kind>_address`), phone numbers,
 * emails, dates of birth, postcodes, and account, order, booking… numbers (`order_number:45721`).
 */
const CONTACT_SLOT = /(?:^|_)(?:address|phone|mobile|email|e_mail|birth|dob|postcode|zip|zipcode)(?:_|:|$)|_(?:number|reference|ref|id|code)(?::|$)/i;

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
 * slots of their facts), each address also by its parts holding a number ("12 Elm Street" of "12 Elm Street,
 * Vessingham"), and the phone numbers, emails and house-number-and-street found in `texts`, their own words.
 */
export function identifyingValues(stated: ReadonlyArray<{ key: string; value: unknown }>, texts: readonly string[]): string[] {
  const values: string[] = [];
  for (const { key, value } of stated) {
    if (!isContactSlot(key) || (typeof value !== 'string' && typeof value !== 'number')) continue;
    const v = String(value).trim();
    values.push(v, ...v.split(/[,;\n]/).map((p) => p.trim()).filter((p) => /\d/.test(p)));
  }
  for (const text of texts) {
    values.push(...text.match(EMAIL) ?? [], ...text.match(STREET) ?? []);
    values.push(...(text.match(PHONE) ?? []).filter((p) => digitsOf(p).length >= 7));
  }
  return [...new Set(values.map((v) => v.trim()))].filter(redactable);
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
 * A pattern of each name (case as written, as `textNames` reads fact texts) and value (case-insensitive, spaces as
 * any run of them; a number however its digits are grouped), as a whole word, longest first.
 */
function patternsOf(names: readonly string[], values: readonly string[]): RegExp[] {
  const bounded = (core: string, flags: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}_])${core}(?![\\p{L}\\p{N}_])`, `gu${flags}`);
  const byLength = (list: readonly string[]): string[] => [...new Set(list)].sort((a, b) => b.length - a.length);
  return [
    ...byLength(values).map((v) => (isNumber(v)
      ? new RegExp(`(?<!\\d)${[...digitsOf(v)].join('[\\s().-]*')}(?!\\d)`, 'gu')
      : bounded(v.split(/\s+/).map(escape).join('\\s+'), 'i'))),
    ...byLength(names).map((n) => bounded(escape(n), '')),
  ];
}

/** `text` with every one of `names` and `values` replaced by {@link ERASED_MARK}; the same string when it holds none. */
export function redactText(text: string, names: readonly string[], values: readonly string[]): string {
  let out = text;
  for (const pattern of patternsOf(names, values)) out = out.replace(pattern, ERASED_MARK);
  return out;
}

/**
 * Fragments every text holding a name or value holds (case aside): a store's cheap first cut before
 * {@link redactText} decides. A name itself; a value's longest word; a number's last two digits (however grouped).
 */
export function candidateFragments(names: readonly string[], values: readonly string[]): string[] {
  const longest = (v: string): string => v.split(/[^\p{L}\p{N}]+/u).reduce((a, b) => (b.length > a.length ? b : a), '');
  return [...new Set([...names, ...values.map((v) => (isNumber(v) ? digitsOf(v).slice(-2) : longest(v)))])].filter((f) => f.length > 0);
}
