/**
 * "yes my order number is four five seven two one": a number a speaker states for themselves or their listener (an
 * order, account, booking, ticket… number or reference), with the digits read out joined ("45721"). Recognised speech
 * spells digits out one by one, and says "oh" for zero and "double three" for "33". A caller may have several orders,
 * bookings, tickets or cases (rules 49): their numbers are kept each in a slot of its own (`order_number:45721`), and
 * one said to replace them ("my new order number is…", "…is now…", "…has changed to…") replaces those held.
 */
import { STATED_OPENING, statedOwner, type StatedOwner } from './stated-owner.js';

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
const DIGITS: Record<string, string> = { zero: '0', oh: '0', o: '0', nought: '0', one: '1', two: '2', three: '3', four: '4', five: '5',
  six: '6', seven: '7', eight: '8', nine: '9' };
const TENS: Record<string, string> = { ten: '10', eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16',
  seventeen: '17', eighteen: '18', nineteen: '19', twenty: '2', thirty: '3', forty: '4', fifty: '5', sixty: '6', seventy: '7', eighty: '8', ninety: '9' };
const REPEAT: Record<string, number> = { double: 2, triple: 3 };

/**
 * The digits and letters read out at the start of `said`, joined ("four five seven two one" → "45721", "double oh
 * seven" → "007", "forty five" → "45", "45721" as it is); null when it opens with no number or gives fewer than two.
 */
export function spokenNumber(said: string): string | null {
  const words = said.toLowerCase().split(/[\s,-]+/).filter((w) => w.length > 0);
  let out = '';
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const times = REPEAT[w];
    const next = words[i + 1] ?? '';
    if (times && (DIGITS[next] ?? /^\d$/.test(next))) {
      out += (DIGITS[next] ?? next).repeat(times);
      i++;
    } else if (/^\d+$/.test(w)) out += w;
    else if (DIGITS[w] !== undefined) out += DIGITS[w];
    else if (TENS[w] !== undefined) {
      const tens = TENS[w];
      const unit = DIGITS[next];
      // "forty five" → 45, "forty" → 40; "ten" … "nineteen" stand alone.
      if (tens.length === 1 && unit !== undefined && unit !== '0') {
        out += tens + unit;
        i++;
      } else out += tens.length === 1 ? `${tens}0` : tens;
    } else if (/^[a-z]\d+$|^\d+[a-z]$/.test(w)) out += w.toUpperCase();
    else break;
  }
  return out.length >= 2 ? out : null;
}

/** The identifier `sentence` states ("my order number is four five seven two one"), or null. */
export function statedIdentifier(sentence: string): StatedIdentifier | null {
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
