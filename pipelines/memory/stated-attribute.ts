/**
 * An attribute of the speaker's stated with its value (trial12 F4, a clinic's front desk): "my insurance is Humana", "my
 * new insurance is Kaiser", "my insurance is now Kaiser", "I switched my insurance to Kaiser". Each fills one slot of the
 * speaker's, keyed by what it is (`insurance`), so a later value replaces the earlier one in any session, whether or not
 * "now", "new" or "switched" is said.
 */
import { findDates } from './relative-date.js';
import { SPOKEN_FILLERS } from './stated-owner.js';
import { defaultWordNet } from '../retrieval/wordnet.js';

/** An attribute a sentence states: the slot it fills, what it is as said, and its value. */
export interface StatedAttribute {
  /** The slot: the attribute's words, lower case, joined by "_" ("insurance", "dental_insurance"). */
  slot: string;
  /** The attribute as said ("dental insurance"). */
  what: string;
  value: string;
}

/** Words that open a statement and are no part of it ("Also, my insurance is…", "Actually my…"). */
const OPENING = String.raw`${SPOKEN_FILLERS}(?:(?:also|actually|oh|and|by\s+the\s+way)\b[\s,]+)*`;
/** The attribute: one to three lower-case words after "my", "new / current / updated" left out. */
const WHAT = String.raw`(?:(?:new|current|updated|present)\s+)?([a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)`;
/** "my insurance is (now) Humana", "my insurance has changed to Kaiser". */
const IS = new RegExp(String.raw`^${OPENING}my\s+${WHAT}\s+(?:is|['’]s|has\s+(?:now\s+)?changed\s+to|changed\s+to)\s+(?:now\s+)?(.+)$`, 'i');
/** "I switched my insurance to Kaiser", "I've changed my insurance to Blue Cross". */
const SWITCHED = new RegExp(String.raw`^${OPENING}I(?:['’]ve|\s+have)?\s+(?:just\s+|now\s+|finally\s+)?(?:switched|changed|updated)\s+my\s+${WHAT}\s+(?:over\s+)?to\s+(.+)$`, 'i');

/** Where a value ends: a clause bound, "and", "but", "now", "instead / rather than / not", a reason, a time. */
const VALUE_END = /\s*(?:[,;.!?]|\s(?:and|but|so|because|since|now|instead|rather|not|from|for|until|as\s+of)\b).*$/i;

/**
 * Attributes other rules read (a name, an address, a number, a secret), or that name events, plans, plural things or
 * what cannot hold one value ("my kids are…" is no "is"; "my appointment is on Friday" is a plan).
 */
const OTHER_RULES = /^(?:name|surname|address|number|phone|email|e-mail|password|pin|code|passcode|order|orders|booking|appointment|reservation|plan|plans|flight|train|birthday|favourite|favorite|problem|question|issue|point|guess|worry|fault|turn|pleasure|bad|job|life|day|week|weekend|morning|evening)$/i;

/** Value openers that say no value: a denial, a preposition, a pronoun, an adjective of degree ("my back is really sore"). */
const NO_VALUE = /^(?:not|no|never|on|at|in|for|with|from|to|by|about|up|down|off|out|it|that|this|still|also|just|really|very|so|too|a\s+bit|kind\s+of|sort\s+of|going|gone|being|been)\b/i;

/** Lexicographer files of attributes that are a person, a feeling, a body part or a state: no slot of one value. */
const NO_ATTRIBUTE_SENSE = /^noun\.(?:person|feeling|body|state|time|event)$/;

/**
 * The attribute `sentence` states for its speaker, or null. Its value must be a name (capitalised, "Delta Dental") or a
 * noun phrase (`isNounPhrase`), no date, no adjective ("my back is sore"), no person's attribute ("my son is Leo": a
 * relation, read elsewhere) and no question.
 */
export function statedAttribute(sentence: string, isNounPhrase: (phrase: string) => boolean): StatedAttribute | null {
  const s = sentence.trim();
  if (/\?\s*$/.test(s)) return null;
  const m = IS.exec(s) ?? SWITCHED.exec(s);
  if (!m?.[1] || !m[2]) return null;
  const what = m[1].toLowerCase().replace(/\s+/g, ' ');
  const head = what.split(' ').pop()!;
  if (OTHER_RULES.test(head) || OTHER_RULES.test(what.split(' ')[0]!)) return null;
  const senses = defaultWordNet().nounKinds(head, true);
  if (senses.length > 0 && NO_ATTRIBUTE_SENSE.test(senses[0]!.lexFile)) return null;
  const said = m[2].replace(VALUE_END, '').trim();
  if (!said || NO_VALUE.test(said)) return null;
  const value = said.replace(/^(?:the|a|an)\s+/i, '');
  if (!value || value.split(/\s+/).length > 4 || findDates(value, '2026-01-01T00:00:00.000Z').length > 0) return null;
  const named = /^[A-Z\d]/.test(value);
  if (!named && !isNounPhrase(said)) return null;
  return { slot: what.replace(/[\s-]+/g, '_'), what, value };
}
