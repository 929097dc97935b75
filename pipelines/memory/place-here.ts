/**
 * The place a speaker is in, as the talk has told it, for a liking said of it by pointing ("I live in Porto and I love
 * this city", rules 40): the latest home or stay the speaker told of, this turn's earlier sentences first, then the
 * speaker's earlier turns. With none told, "I love this city" stays an opinion of the moment (rules 38).
 */
import { STAY_SLOT } from './stays.js';

/** A sentence that points at the place the speaker is in ("this city", "this town"; `PLACE_HERE` in embedded-rules.ts). */
export const POINTS_HERE = /\bthis\s+(?:city|town|village|country|neighbou?rhood|island)\b/i;

/** What the facts a sentence gave tell of where the speaker is; null when they tell nothing. */
export interface PlacedFact { slot: string | null; value: string | null; retraction: boolean }

/**
 * The place named by a home or a stay among `facts` (the last one), as a name: "a tiny flat in hackney" -> "Hackney",
 * "porto" -> "Porto"; null for a withdrawn one, "with my parents" or a dwelling with no place named.
 */
export function placeFrom(facts: readonly PlacedFact[]): string | null {
  for (const f of [...facts].reverse()) {
    if ((f.slot !== 'lives_in' && f.slot !== STAY_SLOT) || f.retraction || !f.value) continue;
    const named = f.value.match(/\b(?:in|on)\s+((?:the\s+)?\S.*)$/i)?.[1] ?? f.value;
    if (/^(?:with|a|an|my|our|the|his|her|their)\b/i.test(named)) continue;
    // A recogniser writes names in lower case ("porto"): the memory names it as a place is written.
    return named === named.toLowerCase() ? named.replace(/\b[a-z]/g, (ch) => ch.toUpperCase()) : named;
  }
  return null;
}
