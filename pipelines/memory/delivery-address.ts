/**
 * Where someone wants things sent, told as an address (trial 8, a call centre): "my delivery address is 5 Hill Road,
 * Bristol", "…is now 22 Quay Street, Bath", or asked for ("please deliver it to 12 Park Road in Leeds"). Each fills one
 * slot of the person it is for (`delivery_address`), so a newer address replaces the older one, whoever heard either.
 */
import { addressAs } from './address.js';
import { STATED_OPENING, statedOwner, type StatedOwner } from './stated-owner.js';
import { WEEKDAY_NAME } from './months.js';

/** An address a speaker states for themselves or their listener. */
export interface StatedAddress {
  owner: StatedOwner;
  /** What it is, as said: "delivery address", "address". */
  what: string;
  /** The slot it fills: "delivery_address", "billing_address", "address". */
  slot: string;
  /** The address as said, town included ("5 Hill Road, Bristol"). */
  value: string;
}

/** The slot a request to deliver or send to an address fills for the one asking. */
export const DELIVERY_SLOT = 'delivery_address';

const KINDS = 'delivery|shipping|billing|postal|home|work|office';
const STATED = new RegExp(STATED_OPENING + String.raw`(?:(?:new|updated|correct|current)\s+)?(?:(${KINDS})\s+)?address\s+`
  + String.raw`(?:is|['’]s|has\s+changed\s+to|changed\s+to)(?:\s+now)?\s+(.+?)\s*[.!]?$`, 'i');
/** "deliver it to …", "send the parcel to …", "ship them to …". */
const SEND_TO = /^(?:deliver|send|ship|post|bring|redirect)\b.*?\bto\s+(.+)$/i;
/** What follows an address and is no part of it: "instead of Park Road", "rather than…", "by Friday", "please". */
const AFTER = new RegExp(String.raw`\s*(?:[,;]\s*|\s+)(?:instead\b|rather\s+than\b|not\s+(?:to\s+)?\d|by\s+|on\s+${WEEKDAY_NAME}\b|please\b|tomorrow\b|today\b|next\s+\w+|this\s+\w+).*$`, 'i');

/** The address as said, its trailing punctuation and what follows it off; null when it does not read as one. */
function addressPart(said: string): string | null {
  return addressAs(said.replace(AFTER, ''), true);
}

/** The address `sentence` states ("my delivery address is now 22 Quay Street, Bath"), or null. */
export function statedAddress(sentence: string): StatedAddress | null {
  const m = STATED.exec(sentence.trim());
  if (!m?.[1] || !m[3]) return null;
  const value = addressPart(m[3]);
  if (!value) return null;
  const kind = m[2]?.toLowerCase();
  return { owner: statedOwner(m[1]), what: kind ? `${kind} address` : 'address', slot: kind ? `${kind}_address` : 'address', value };
}

/** The address a request's task sends something to ("deliver the kettle to 4 Mill Lane in York instead of Park Road"), or null. */
export function deliveryTo(task: string): string | null {
  const to = SEND_TO.exec(task.trim())?.[1];
  return to ? addressPart(to) : null;
}
