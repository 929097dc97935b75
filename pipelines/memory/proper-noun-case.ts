import { defaultWordNet, type WordNet } from '../retrieval/wordnet.js';
import type { ExtractionResult } from './extractor.js';

/** Whether a transcript is all lower case (a recogniser that writes no capitals): letters, none upper case. */
export function isAllLowerCase(text: string): boolean {
  return /\p{Ll}/u.test(text) && !/\p{Lu}/u.test(text);
}

/** `text` with each lower-case word WordNet lists only as a capitalised noun ("lisbon") capitalised; nothing else changes. */
export function capitaliseProperNouns(text: string, wordnet: WordNet = defaultWordNet()): string {
  // Not \b: it is ASCII-only, so it would split "zürich" and try "rich" as a word.
  return text.replace(/(?<!\p{L})[a-z]{3,}(?!\p{L})/gu, (w) => wordnet.properNounForm(w) ?? w);
}

/**
 * Facts from an all-lower-case transcript ("grace moved to lisbon") with place and other proper-noun words
 * capitalised in their text, slot values and profile updates (`lives_in: "Lisbon"`); from any other transcript, unchanged.
 */
export function withProperNounCase(extraction: ExtractionResult, transcript: string, wordnet: WordNet = defaultWordNet()): ExtractionResult {
  if (!isAllLowerCase(transcript)) return extraction;
  for (const f of extraction.facts) {
    f.content = capitaliseProperNouns(f.content, wordnet);
    if (f.value !== null) f.value = capitaliseProperNouns(f.value, wordnet);
  }
  // The participant's attributes read as the facts do ("lives_in: Lisbon", not "lisbon"; rules 44).
  for (const p of extraction.profileUpdates) p.value = capitaliseProperNouns(p.value, wordnet);
  return extraction;
}
