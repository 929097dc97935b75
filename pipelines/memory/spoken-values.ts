/**
 * Numbers a recogniser writes as words, read as digits where a value is said (rules 55): "my order number is five five
 * two zero" → "…is 5520", "call me on five five five oh one four two" → "…on 5550142", "I live at twelve elm street" →
 * "…at 12 elm street", "flat two b" → "flat 2b". Anywhere else words stay words ("one of my friends", "I have two
 * kids", "at nine thirty", "let's order two hundred cups"). A secret given (a PIN, a password, a security code) gives no
 * fact and no attribute (`withoutSecretClause`, graph/spoken-secrets.ts).
 */
import { saysNumberInWords, spokenRuns, type SpokenRun } from '../../graph/spoken-digits.js';

/** What a number of digits read out follows: "order number is", "the code is", "reference", "my number's". */
const VALUE_CUE = /\b(?:number|code|reference|ref|id)(?:(?:\s+(?:is|was)|['’]s)(?:\s+now)?|\s+(?:has\s+)?changed\s+to)?\s+$/i;
/**
 * A thing numbered, named before its number: "booking double oh seven…", "my account seven seven…"; not a verb
 * ("I want to order two hundred cups", "let's book…").
 */
const NUMBERED_CUE = /(?<!\b(?:to|i|we|you|they|will|ll|can|could|would|should|shall|please|must|might|may|and|also|just|then|let['’]?s|let\s+us)\s+)\b(?:account|booking|reservation|ticket|claim|invoice|policy|membership|tracking|confirmation)\s+(?:no\.?\s+)?$/i;
/**
 * "Order" and "case", which are also a verb and a phrase ("let's order two hundred cups", "in case two hundred people
 * come"), as a thing numbered only after an article, a possessive or a verb that acts on one: "the order", "my
 * case", "Ben's order", "cancel order five five two zero", "about case…".
 */
const ORDER_CUE = /\b(?:the|a|an|my|your|our|his|her|their|this|that|(?!let['’]s)\p{L}+['’]s|(?:cancel|track|check|chase|amend|change|refund|return|reopen|close)\p{L}*|about|for|regarding|re)\s+(?:order|case)\s+(?:no\.?\s+)?$/iu;
/** What a phone number follows: "call me on", "ring Ben at", "you can reach us on". */
const PHONE_CUE = /\b(?:call|ring|text|phone|reach|contact)\s+[\p{L}]+\s+(?:on|at)\s+$/iu;
/** What a house number follows when a street follows it: "live at", "deliver it to", "address is", "from". */
const HOUSE_CUE = /\b(?:at|to|is|from)\s+$/i;
/** What a flat's or a unit's number follows: "flat two b", "apartment twelve". */
const FLAT_CUE = /\b(?:flat|apartment|apt|unit|suite)\s+$/i;
const STREET = 'street|st|road|rd|avenue|ave|lane|ln|drive|close|court|crescent|way|place|square|terrace|gardens|grove|hill|row|walk|mews|park|parade|boulevard';
/** Words no street name holds between a house number and its street word ("two miles down the road" is no address). */
const NOT_IN_NAME = 'on|in|at|of|the|a|an|to|down|up|along|and|or|by|near|from|with|for|my|your|our|his|her|their|miles?|minutes?|hours?|days?|weeks?|times?';
/**
 * One to three words of a street's name, then its street word, which ends the name: " elm street", " Old Mill Lane";
 * not " Hyde Park Corner" (a place: "at two Hyde Park Corner" is a time).
 */
const STREET_AFTER = new RegExp(String.raw`^(?:\s+(?!(?:${NOT_IN_NAME})\b)[\p{L}'’-]+){1,3}\s+(?:${STREET})\b`, 'iu');
/** A capitalised word after a street word: the name goes on ("Hyde Park Corner"). */
const NAME_GOES_ON = /^\s+\p{Lu}/u;
/** A unit said before tens, as a time is ("nine thirty", "seven forty five"); a house number says "nine hundred and thirty". */
const UNIT_TENS = /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:twenty|thirty|forty|fifty)\b/i;
/** A letter after a house or flat number ("two b"): "a" only where the address ends or pauses. */
const LETTER = /^\s+(?:([b-h])(?![\p{L}\p{N}'’])|(a)(?=\s*(?:[,.;]|$)))/iu;

/** What a number found in a sentence reads as in its place, or null where it stays as said. */
function asValue(sentence: string, run: SpokenRun): string | null {
  const before = sentence.slice(0, run.start);
  const after = sentence.slice(run.end);
  if (VALUE_CUE.test(before)) return run.digits.length >= 2 ? run.digits : null;
  if (PHONE_CUE.test(before)) return run.digits.length >= 6 ? run.digits : null;
  // Three digits or more: "order twenty pizzas" stays.
  if (NUMBERED_CUE.test(before) || ORDER_CUE.test(before)) return run.digits.length >= 3 ? run.digits : null;
  // A time ("at nine thirty") is no house number.
  if (!/^\d+$/.test(run.digits) || UNIT_TENS.test(sentence.slice(run.start, run.end))) return null;
  const letter = LETTER.exec(after);
  const flat = FLAT_CUE.test(before);
  const rest = letter ? after.slice(letter[0].length) : after;
  const street = flat ? null : STREET_AFTER.exec(rest);
  if (!flat && !(HOUSE_CUE.test(before) && street && !NAME_GOES_ON.test(rest.slice(street[0].length)))) return null;
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

/**
 * A value given alone (an LLM extractor's slot or attribute value) with a number said in words as digits: all of it a
 * number of two digits or more ("five five five oh one four two" → "5550142", "two thousand and five" → "2005"), or a
 * house number before its street ("twelve elm street" → "12 elm street"). Else as it is ("two", "twenty kids").
 */
export function spokenValue(value: string): string {
  if (!saysNumberInWords(value)) return value;
  const whole = spokenRuns(value, 2)[0];
  if (whole !== undefined && whole.start === 0 && /^\s*[.,]?\s*$/.test(value.slice(whole.end))) return whole.digits;
  const house = withSpokenValues(`at ${value}`);
  return house === `at ${value}` ? value : house.slice(3);
}
