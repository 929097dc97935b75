/**
 * A home heard, not said: "i moved to leave my new and drifted 40 park lanes" from a phone line read "lives_in: leave my
 * new". A home slot is filled only with words that may name a place; otherwise the fact stays, told as said, and fills
 * no slot (a misheard place would replace the true home, and no later "I moved" could tell it was wrong).
 */
import type { Utterance } from '../../graph/types.js';
import { defaultWordNet, type WordNet } from '../retrieval/wordnet.js';
import { isOrdinaryWord } from '../speaker/name-words.js';
import type { ExtractedFact, ExtractionResult } from './extractor.js';
import { isAllLowerCase } from './proper-noun-case.js';
import { DWELLING } from './changes.js';

/** A home that is no place name: "with my parents", "a flat above the bakery", "her own place" (`DWELLING`). */
const HOME = /^(?:with|a|an)\b|\broom\b/i;
/** Words no place name holds: possessives, pronouns, conjunctions. */
const NO_PLACE_WORD = /\b(?:my|your|his|her|our|their|its|i|me|we|you|he|she|they|it|and|but|or|because|so|if|then|that)\b/i;

/**
 * Whether a home `value`, read from `utterance`, may name a place: a dwelling; a word WordNet knows only as a proper noun
 * ("manchester"); else, with no word no place holds, a capitalised word in typed text ("Brexton") or, in lower-case speech,
 * words that are all no ordinary English word ("brexton"). The recogniser's confidence is not read here: a home heard
 * with low confidence keeps its slot, so that the decider keeps the better of two hearings of it ("Barcelona" over
 * "Barcelone" at 0.35; fact-writes.ts weighs each fact by its turn's confidence).
 */
export function namesAPlace(value: string, utterance: Pick<Utterance, 'text'>, wordnet: WordNet = defaultWordNet()): boolean {
  if (HOME.test(value) || DWELLING.test(value)) return true;
  const words = value.split(/[\s,]+/).filter((w) => /\p{L}/u.test(w));
  if (words.some((w) => wordnet.properNounForm(w) !== null)) return true;
  if (NO_PLACE_WORD.test(value)) return false;
  if (!isAllLowerCase(utterance.text)) return words.some((w) => /^\p{Lu}/u.test(w));
  return words.every((w) => !/^[a-z'’-]+$/.test(w) || !isOrdinaryWord(w, wordnet));
}

/** `result` with each home its turn may have misheard (`namesAPlace`) told as a plain statement, and no profile update for it. */
export function withHeardPlaces(result: ExtractionResult, utterance: Pick<Utterance, 'text'>): ExtractionResult {
  const heard = (f: ExtractedFact): boolean => f.slot === 'lives_in' && f.value !== null && !f.retraction && !namesAPlace(f.value, utterance);
  const misheard = result.facts.filter(heard);
  if (misheard.length === 0) return result;
  const values = new Set(misheard.map((f) => `${f.subjectId}\u0000${f.value}`));
  return {
    facts: result.facts.map((f) => (heard(f) ? { ...f, kind: 'statement' as const, slot: null, value: null } : f)),
    profileUpdates: result.profileUpdates.filter((p) => !(p.attribute === 'lives_in' && values.has(`${p.participantId}\u0000${p.value}`))),
  };
}
