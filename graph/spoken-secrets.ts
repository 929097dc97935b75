/**
 * Whether a sentence gives a secret (a PIN, a password, a passcode, a card's security code): the memory rules keep no
 * fact and no attribute of it (pipelines/memory/spoken-values.ts, rules 55), and the lexical index does not add the
 * digits of a secret said in words to its terms (graph/lexical-terms.ts). Only a value given counts: "my password was
 * changed yesterday", "the wifi password is on the fridge" and "my PIN is locked" give none.
 */
import { spokenRuns } from './spoken-digits.js';

/** A password named and given: "my password is…", "the passcode's…", "password:"; the rest is in the capture. */
const SECRET = /\b(?:password|passcode|pass\s+code|passphrase)\s*(?:is|was|['’]s|:)\s*(.+)$/i;
/** A secret number named and given: "my PIN is double seven…", "security code: 447" (not "the pin was bent"). */
const SECRET_NUMBER = /\b(?:pin|pin\s+(?:number|code)|security\s+(?:code|number)|cvv|cvc|card\s+verification\s+(?:code|value))\s*(?:is|was|['’]s|:)\s*(.+)$/i;

/** Whether `rest` opens with a number said in words of three digits or more ("seven seven three one", "double oh seven"). */
function opensWithSpokenDigits(rest: string): boolean {
  const run = spokenRuns(rest, 3)[0];
  return run !== undefined && run.start === 0;
}

/**
 * Whether `rest` opens with a value a password is: one word with a digit ("hunter2"), capitals after its first letter
 * or a symbol inside ("TrOub4dor", "p@ss"), a word and a number said after it that ends the clause ("hunter two"), or
 * a number said in words (three digits or more). Not a word ("wrong", "on the fridge", "the same as last time").
 */
function opensWithPassword(rest: string): boolean {
  const word = /^\S+/.exec(rest)?.[0].replace(/[.,;:!?"'’)]+$/, '') ?? '';
  if (/\d/.test(word) || /^.+\p{Lu}/u.test(word) || /^[^\s]*\p{L}[^\p{L}\p{N}\s'’-][^\s]*\p{L}/u.test(word)) return true;
  if (opensWithSpokenDigits(rest)) return true;
  const run = spokenRuns(rest, 1)[0];
  return run !== undefined && /^\S+\s+$/.test(rest.slice(0, run.start)) && /^\s*(?:[,.;!?]|$)/.test(rest.slice(run.end));
}

/** Whether `sentence` gives a secret: no memory keeps it, in a fact's words or a profile value. */
export function statesSecret(sentence: string): boolean {
  const password = SECRET.exec(sentence)?.[1];
  if (password !== undefined && opensWithPassword(password)) return true;
  const number = SECRET_NUMBER.exec(sentence)?.[1];
  return number !== undefined && (/^\S*\d/.test(number) || opensWithSpokenDigits(number));
}
