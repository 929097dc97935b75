/**
 * "yes my order number is four five seven two one": a number a speaker states for themselves or their listener (an
 * order, account, booking, ticket… number or reference), with the digits read out joined ("45721"). Recognised speech
 * spells digits out one by one, and says "oh" for zero and "double three" for "33". A caller may have several orders,
 * bookings, tickets or cases (rules 49): their numbers are kept each in a slot of its own (`order_number:45721`), and
 * one said to replace them ("my new order number is…", "…is now…", "…has changed to…") replaces those held.
 */
import { spokenNumber } from '../../graph/spoken-digits.js';
import { SPOKEN_FILLERS, STATED_OPENING, statedOwner, type StatedOwner } from './stated-owner.js';

/** A stated identifier: whose it is, what it numbers and its value. */
export interface StatedIdentifier {
  owner: StatedOwner;
  /** What it numbers, as said: "order number", "booking reference". */
  what: string;
  /**
   * The slot and profile attribute it fills: "order_number:45721" for a thing one may have several of (each number a
   * slot of its own), "phone_number", "account_number" for one the person has one of.
   */
  slot: string;
  /** The slot of the kind ("order_number"), when the number is said to replace the ones held of that kind. */
  replaces?: string;
  /** The digits (and letters) joined: "45721", "AB123". */
  value: string;
}

const THINGS = 'order|account|reference|booking|ticket|customer|membership|member|policy|case|tracking|invoice|claim|confirmation|reservation|phone|mobile|postcode';
const STATED = new RegExp(STATED_OPENING
  + String.raw`(?:(new|updated|correct|right|actual)\s+)?((?:${THINGS})(?:\s+(?:number|no|reference|ref|id|code))?)\s+`
  + String.raw`(?:(?:is|['’]s)(\s+now)?|(?:has\s+|['’]s\s+)?(changed)\s+to)\s+(.+?)\s*[.!]?$`, 'i');
/** Things one may have several of at once: each number is kept beside the others. */
const SEVERAL = /^(?:order|booking|reservation|ticket|case|claim|invoice|tracking|confirmation|reference)\b/;
/** "call me on five five five oh one four two", "you can reach me at…": the speaker's phone number (rules 55). */
const CALL_ME = new RegExp(SPOKEN_FILLERS + String.raw`(?:you\s+can\s+|please\s+|just\s+)?(?:call|ring|text|reach|phone)\s+me\s+(?:back\s+)?(?:on|at)\s+(.+?)\s*[.!]?$`, 'i');

/** The identifier `sentence` states ("my order number is four five seven two one"), or null. */
export function statedIdentifier(sentence: string): StatedIdentifier | null {
  const call = CALL_ME.exec(sentence.trim());
  const phone = call ? spokenNumber(call[1]!) : null;
  // Six digits or more: "call me at five thirty" is a time.
  if (phone && /^\d{6,}$/.test(phone)) return { owner: 'speaker', what: 'phone number', slot: 'phone_number', value: phone };
  const m = STATED.exec(sentence.trim());
  if (!m) return null;
  const [, whose, renewed, what, now, changed, said] = m as unknown as [string, string, string | undefined, string, string | undefined, string | undefined, string];
  const value = spokenNumber(said);
  if (!value) return null;
  const thing = what.toLowerCase().replace(/\s+/g, ' ');
  const named = /\s/.test(thing) ? thing : `${thing} number`;
  const kind = named.replace(/\s+/g, '_');
  const owner = statedOwner(whose);
  const slot = identifierSlot(kind, value);
  const replacing = slot !== kind && Boolean(renewed ?? now ?? changed);
  return { owner, what: named, slot, value, ...(replacing ? { replaces: kind } : {}) };
}

/**
 * The slot a number of the identifier kind `kind` ("order_number", "phone_number") fills: a slot of its own for a thing
 * one may have several of (`order_number:45721`), else the kind's.
 */
export function identifierSlot(kind: string, value: string): string {
  return SEVERAL.test(kind.replace(/_/g, ' ')) ? `${kind}:${value}` : kind;
}

/** An identifier's slot as `identifierSlot` keys it, and the kind whose numbers it replaces. */
export interface KeyedIdentifier {
  slot: string;
  value: string;
  replaces?: string;
}

/**
 * A slot and value another extractor wrote for a number ("order_number" = "four five seven two one", or already
 * "order_number:45721") keyed as the rules key it (`identifierSlot`: "order_number:45721"), replacing the numbers of its
 * kind when `said` (the turn) states it as a replacement ("my new order number is…"); null for a slot that is no
 * identifier of which one may have several, or a value that is no number.
 */
export function keyedIdentifier(slot: string | null, value: string | null, said: string): KeyedIdentifier | null {
  const m = /^([a-z]+(?:_[a-z]+)*)(?::(.+))?$/.exec(slot ?? '');
  if (!m || !SEVERAL.test(m[1]!.replace(/_/g, ' '))) return null;
  const kind = m[1]!;
  const number = spokenNumber(m[2] ?? value ?? '');
  if (number === null) return null;
  const stated = said.split(/(?<=[.!?])\s+/).map(statedIdentifier).find((i) => i?.value === number);
  return { slot: identifierSlot(kind, number), value: number, ...(stated?.replaces === kind ? { replaces: kind } : {}) };
}

/**
 * True when `held` is a slot of the identifier kind `kind` ("order_number", or one number of it, "order_number:45721"):
 * one said to replace the numbers of that kind ends it.
 */
export function ofIdentifierKind(held: string | null, kind: string): boolean {
  return held === kind || (held?.startsWith(`${kind}:`) ?? false);
}
