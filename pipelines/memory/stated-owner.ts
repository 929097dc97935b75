/**
 * Whose a stated number or address is (trial 8, a call centre): "yes my order number is…", "so your delivery address
 * is…". Shared by identifiers.ts and delivery-address.ts, which read what follows.
 */

/** Whose a stated thing is: the speaker's ("my", "our") or the listener's ("your"). */
export type StatedOwner = 'speaker' | 'addressee';

/** Spoken fillers that open a turn: "yes ", "okay, so ". */
export const SPOKEN_FILLERS = String.raw`^(?:(?:yes|yeah|yep|so|okay|ok|right|well|and|um|uh|er|erm|sure)\b[\s,]+)*`;

/** Spoken fillers before it, then whose it is, captured: "yes my ", "okay, so your ". */
export const STATED_OPENING = String.raw`${SPOKEN_FILLERS}(my|our|your)\s+`;

/** The owner a possessive of `STATED_OPENING` names. */
export function statedOwner(whose: string): StatedOwner {
  return /^your$/i.test(whose) ? 'addressee' : 'speaker';
}
