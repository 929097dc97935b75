/**
 * Numbers a recogniser writes as words, read as digits where a value is said (rules 55): "my order number is five five
 * two zero" → "…is 5520", "call me on five five five oh one four two" → "…on 5550142", "I live at twelve elm street" →
 * "…at 12 elm street", "flat two b" → "flat 2b". Anywhere else words stay words ("one of my friends", "I have two
 * kids"). A secret (a PIN, a password, a security code) is no memory at all (`statesSecret`).
 */
import { saysNumberInWords, spokenRuns, type SpokenRun } from '../../graph/spoken-digits.js';

/** What a number of digits read out follows: "order number is", "the code is", "reference", "my number's". */
const VALUE_CUE = /\b(?:number|code|reference|ref|id)(?:(?:\s+(?:is|was)|['’]s)(?:\s+now)?|\s+(?:has\s+)?changed\s+to)?\s+$/i;
/**
 * A thing numbered, named before its number: "cancel order five five two zero", "booking double oh seven…"; not the verb
 * ("I want to order two hundred cups").
 */
const NUMBERED_CUE = /(?<!\b(?:to|i|we|you|they|will|ll|can|could|would|should|shall|please|must|might|may|and|also|just|then)\s+)\b(?:order|account|booking|reservation|ticket|case|claim|invoice|policy|membership|tracking|confirmation)\s+(?:no\.?\s+)?$/i;
/** What a phone number follows: "call me on", "ring Ben at", "you can reach us on". */
const PHONE_CUE = /\b(?:call|ring|text|phone|reach|contact)\s+[\p{L}]+\s+(?:on|at)\s+$/iu;
/** What a house number follows when a street follows it: "live at", "deliver it to", "address is", "from". */
const HOUSE_CUE = /\b(?:at|to|is|from)\s+$/i;
/** What a flat's or a unit's number follows: "flat two b", "apartment twelve". */
const FLAT_CUE = /\b(?:flat|apartment|apt|unit|suite)\s+$/i;
const STREET = 'street|st|road|rd|avenue|ave|lane|ln|drive|close|court|crescent|way|place|square|terrace|gardens|grove|hill|row|walk|mews|park|parade|boulevard';
/** Words no street name holds between a house number and its street word ("two miles down the road" is no address). */
const NOT_IN_NAME = 'on|in|at|of|the|a|an|to|down|up|along|and|or|by|near|from|with|for|my|your|our|his|her|their|miles?|minutes?|hours?|days?|weeks?|times?';
/** One to three words of a street's name, then its street word: " elm street", " Old Mill Lane". */
const STREET_AFTER = new RegExp(String.raw`^(?:\s+(?!(?:${NOT_IN_NAME})\b)[\p{L}'’-]+){1,3}\s+(?:${STREET})\b`, 'iu');
/** A letter after a house or flat number ("two b"): "a" only where the address ends or pauses. */
const LETTER = /^\s+(?:([b-h])(?![\p{L}\p{N}'’])|(a)(?=\s*(?:[,.;]|$)))/iu;

/** What a number found in a sentence reads as in its place, or null where it stays as said. */
function asValue(sentence: string, run: SpokenRun): string | null {
  const before = sentence.slice(0, run.start);
  const after = sentence.slice(run.end);
  if (VALUE_CUE.test(before)) return run.digits.length >= 2 ? run.digits : null;
  if (PHONE_CUE.test(before)) return run.digits.length >= 6 ? run.digits : null;
  // Three digits or more: "order twenty pizzas" stays.
  if (NUMBERED_CUE.test(before)) return run.digits.length >= 3 ? run.digits : null;
  if (!/^\d+$/.test(run.digits)) return null;
  const letter = LETTER.exec(after);
  const flat = FLAT_CUE.test(before);
  const rest = letter ? after.slice(letter[0].length) : after;
  if (!flat && !(HOUSE_CUE.test(before) && STREET_AFTER.test(rest))) return null;
  return `${run.digits}${(letter?.[1] ?? letter?.[2] ?? '').toLowerCase()}`;
}

/**
 * `sentence` with each number said in words where a value is said written as digits: after "number / code / reference
 * (is)" (two digits or more), after "order / booking / account…" (three or more), after "call / ring / reach … on / at" (six or more: "call me at five thirty" is a time), a
 * house number before its street ("at twelve elm street", "to one hundred and five Hill Road") and a flat's number
 * ("flat two b"). The same string when it says none.
 */
export function withSpokenValues(sentence: string): string {
  if (!saysNumberInWords(sentence)) return sentence;
  let out = sentence;
  for (const run of spokenRuns(sentence, 1).reverse()) {
    if (!saysNumberInWords(sentence.slice(run.start, run.end))) continue;
    const value = asValue(sentence, run);
    if (value === null) continue;
    const letter = /[a-z]$/.test(value) ? LETTER.exec(sentence.slice(run.end))?.[0].length ?? 0 : 0;
    out = out.slice(0, run.start) + value + out.slice(run.end + letter);
  }
  return out;
}

/** A secret named and given: "my password is…", "the passcode's…". */
const SECRET = /\b(?:password|passcode|pass\s+code|passphrase)\s*(?:is|was|['’]s|:)\s*\S/i;
/** A secret number named and given: "my PIN is double seven…", "security code: 447" (not "the pin was bent"). */
const SECRET_NUMBER = /\b(?:pin|pin\s+(?:number|code)|security\s+(?:code|number)|cvv|cvc|card\s+verification\s+(?:code|value))\s*(?:is|was|['’]s|:)\s*(.+)$/i;

/**
 * Whether `sentence` gives a secret (a PIN, a password, a passcode, a card's security code): no memory keeps it, in a
 * fact's words or a profile value.
 */
export function statesSecret(sentence: string): boolean {
  const number = SECRET_NUMBER.exec(sentence)?.[1];
  return SECRET.test(sentence) || (number !== undefined && (/\d/.test(number) || spokenRuns(number, 1).length > 0));
}
