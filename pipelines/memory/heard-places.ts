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

/**
 * Below this recogniser confidence a place must be one WordNet knows ("manchester", "leeds"): an unlisted word may be a
 * mishearing. Not tuned on data (no call-centre set here): pocketsphinx writes a per-word geometric mean of the
 * posterior (pipelines/asr/pocketsphinx-asr.ts), which the trial's misheard turns fell well under.
 */
export const LOW_ASR_CONFIDENCE = 0.5;

/** A home that is no place name: "with my parents", "a flat above the bakery", "a house share". */
const DWELLING = /^(?:with|a|an)\b|\b(?:flat|house|home|apartment|bungalow|cottage|maisonette|studio|bedsit|digs|houseshare)\b/i;
/** Words no place name holds: possessives, pronouns, conjunctions. */
const NO_PLACE_WORD = /\b(?:my|your|his|her|our|their|its|i|me|we|you|he|she|they|it|and|but|or|because|so|if|then|that)\b/i;

/**
 * Whether a home `value`, read from `utterance`, may name a place: a dwelling; a word WordNet knows only as a proper noun
 * ("manchester"); else, with no low confidence and no word no place holds, a capitalised word in typed text ("Brexton")
 * or, in lower-case speech, words that are all no ordinary English word ("brexton").
 */
export function namesAPlace(value: string, utterance: Pick<Utterance, 'text' | 'confidence'>, wordnet: WordNet = defaultWordNet()): boolean {
  if (DWELLING.test(value)) return true;
  const words = value.split(/[\s,]+/).filter((w) => /\p{L}/u.test(w));
  if (words.some((w) => wordnet.properNounForm(w) !== null)) return true;
  const low = utterance.confidence !== null && utterance.confidence < LOW_ASR_CONFIDENCE;
  if (low || NO_PLACE_WORD.test(value)) return false;
  if (!isAllLowerCase(utterance.text)) return words.some((w) => /^\p{Lu}/u.test(w));
  return words.every((w) => !/^[a-z'’-]+$/.test(w) || !isOrdinaryWord(w, wordnet));
}

/** `result` with each home its turn may have misheard (`namesAPlace`) told as a plain statement, and no profile update for it. */
export function withHeardPlaces(result: ExtractionResult, utterance: Pick<Utterance, 'text' | 'confidence'>): ExtractionResult {
  const heard = (f: ExtractedFact): boolean => f.slot === 'lives_in' && f.value !== null && !f.retraction && !namesAPlace(f.value, utterance);
  const misheard = result.facts.filter(heard);
  if (misheard.length === 0) return result;
  const values = new Set(misheard.map((f) => `${f.subjectId}\u0000${f.value}`));
  return {
    facts: result.facts.map((f) => (heard(f) ? { ...f, kind: 'statement' as const, slot: null, value: null } : f)),
    profileUpdates: result.profileUpdates.filter((p) => !(p.attribute === 'lives_in' && values.has(`${p.participantId}\u0000${p.value}`))),
  };
}
