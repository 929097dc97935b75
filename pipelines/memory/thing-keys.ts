/**
 * The key of a liked thing in a `preference:<thing>` slot, one for every way the thing is said (rules 43): "I love video
 * games" and "I'm not into video games anymore" name one slot, `preference:video game`, so the withdrawal ends the
 * liking by its slot and "I've gone off video games" replaces it. Before, a liking kept the plural ("video games") and its
 * withdrawal or change of taste made it singular, so they named two slots.
 */
import { defaultWordNet } from '../retrieval/wordnet.js';

/** Lower-case slot key from free text. */
export function slotKey(text: string): string {
  return text.toLowerCase().replace(/^(?:the|a|an|some)\s+/, '').replace(/[^a-z0-9]+/g, ' ').trim();
}

/** The slot of a liking held for now (temporary-slots.ts `FOR_NOW_PREFERENCE`): no thing, kept as it is. */
const FOR_NOW = 'preference:for_now';

/** Words whose last "s" is no plural, when WordNet cannot say: "glass", "hummus", "tennis", "news". */
const NOT_PLURAL = /(?:ss|us|is)$|^news$/;

/**
 * `word` singular when it ends in "s": as WordNet lists it, the word itself when it is a noun of its own ("news",
 * "christmas", "glasses", "chips"), else its first listed base form ("games" → "game", "dishes" → "dish", "berries" →
 * "berry"); a word WordNet does not know (or no WordNet installed) loses a final "s" when it has more than three letters
 * and is no `NOT_PLURAL` word.
 */
function singular(word: string): string {
  if (!word.endsWith('s')) return word;
  const listed = defaultWordNet().baseForms(word, 'noun')[0];
  if (listed) return listed;
  return word.length > 3 && !NOT_PLURAL.test(word) ? word.slice(0, -1) : word;
}

/**
 * The key of a thing liked or given up: `slotKey` (lower-case, an opening article, "any", a possessive and "new / old /
 * current / latest" left out, other than letters
 * and digits a space), its last word singular when the thing is at most three words ("video games" → "video game",
 * "k-pops" → "k pop"). A longer span keeps its words as said ("the last week of the school holidays", rules 42).
 */
export function thingSlotKey(text: string): string {
  // "my new bike", "our old car": the thing, not whose it is or how new (rules 49: `preference:my new job`).
  const key = slotKey(text.replace(/^\s*(?:any|my|our|your|his|her|their|its)\s+/i, '').replace(/^\s*(?:the\s+)?(?:new|old|current|latest)\s+(?=\S)/i, ''));
  const words = key.split(' ');
  return words.length > 3 ? key : words.map((w, i) => (i === words.length - 1 ? singular(w) : w)).join(' ');
}

/**
 * `slot` with a preference's thing as `thingSlotKey` keys it (`preference:Video Games` → `preference:video game`), so
 * facts of any extractor, and facts stored before rules 43, are compared by one key; any other slot as it is.
 */
export function canonicalSlot(slot: string | null): string | null {
  if (slot === null || !slot.startsWith('preference:') || slot === FOR_NOW) return slot;
  const key = thingSlotKey(slot.slice('preference:'.length));
  return key === '' ? slot : `preference:${key}`;
}
