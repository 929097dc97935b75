/**
 * An allergy corrected in one sentence (trial 9, issue #16 F6: "actually I am not allergic to nuts, it was peanuts"):
 * the allergy told is the one held now and replaces the one denied, so the stored nut allergy is superseded by the
 * peanut one (an UPDATE, linked), not deleted beside an unrelated ADD. What is told must look like an allergen
 * ("peanuts", "the dust"); "just sensitive", "it was my brother" correct nothing, and the allergy denied is only ended.
 */
import { defaultWordNet, type WordNet } from '../retrieval/wordnet.js';

/** "I'm not allergic to nuts, it was / it's / I'm allergic to peanuts". */
const DENIED_THEN_TOLD = /\bI(?:['’]m|\s+am)\s+not\s+(?:actually\s+|really\s+)?allergic\s+to\s+([a-z][a-z -]*?)\s*[,;:\u2013\u2014-]?\s+(?:it\s+(?:was|is|['’]s)|it['’]s|I(?:['’]m|\s+am)\s+allergic\s+to|just|only)\s+(?:to\s+)?([a-z][a-z -]*?)\s*[.!]?$/i;
/** "I'm allergic to peanuts, not nuts". */
const TOLD_NOT_DENIED = /\bI(?:['’]m|\s+am)\s+(?:actually\s+|really\s+)?allergic\s+to\s+([a-z][a-z -]*?)\s*,?\s+not\s+(?:to\s+)?([a-z][a-z -]*?)\s*[.!]?$/i;

/** Words before the allergen that say how sure or how much, and articles: "just the dust" is dust. */
const HEDGE = /^(?:(?:just|only|actually|really|simply|probably|mostly|mainly|definitely|more|all)\s+)*(?:(?:the|a|an|some)\s+)?/i;
/** A person or a pronoun, by the phrase's first word ("my brother", "him", "someone else"). */
const PERSON_START = /^(?:my|his|her|hers|our|their|your|its|him|me|them|us|you|he|she|they|we|someone|somebody|anyone|anybody|everyone|nobody|no\s+one|something|nothing|that|this|those|these)\b/i;
/** Words for people whose WordNet senses include a thing ("mum", a flower; "neighbour", an object). */
const PERSON_WORD = /^(?:mum|mom|mother|dad|father|brother|sister|son|daughter|wife|husband|partner|friend|kid|kids|child|children|baby|boyfriend|girlfriend|neighbou?r|roommate|flatmate|family|cousin|aunt|uncle|grandma|grandpa|nan|gran)s?$/i;
/** Noun senses an allergen has: a food, plant, animal, substance, made thing (a drug, latex), object or body matter (hair). */
const ALLERGEN_KIND = /^noun\.(?:food|plant|animal|substance|artifact|object|body)$/;
/** How an adjective ends, for a word WordNet does not list ("intolerant", "reactive"). */
const ADJECTIVE_END = /(?:ive|ant|ent|ous|ful|ible|able|ish|less|ic|al)$/i;

/** What WordNet is asked of an allergen. */
export type AllergenWords = Pick<WordNet, 'available' | 'baseForms' | 'nounKinds' | 'senses'>;

/** `told` without the hedge and article before it ("just the dust" → "dust"); null when it is no allergen. */
export function allergenSaid(told: string, words: AllergenWords = defaultWordNet()): string | null {
  const phrase = told.trim().replace(HEDGE, '').trim();
  if (!phrase || PERSON_START.test(phrase)) return null;
  const head = phrase.split(/\s+/).pop()!;
  if (PERSON_WORD.test(head)) return null;
  if (!words.available) return ADJECTIVE_END.test(head) ? null : phrase;
  const kinds = (w: string) => words.baseForms(w.toLowerCase().replace(/\s+/g, '_'), 'noun').flatMap((b) => words.nounKinds(b, true));
  const senses = [phrase, phrase.replace(/\s+/g, '-'), head].map(kinds).find((k) => k.length > 0) ?? [];
  if (senses.some((s) => ALLERGEN_KIND.test(s.lexFile))) return phrase;
  // A word WordNet lists, with no allergen sense ("sensitive", a psychic; "intolerant"), is none; one it does not list
  // (a drug's brand name) is, unless it ends as an adjective does.
  const listed = senses.length > 0 || words.senses(head).ordinary || words.senses(head).notNoun;
  return listed || ADJECTIVE_END.test(head) ? null : phrase;
}

/** The allergy told (an allergen, as said but for its hedge) and the one it replaces, or null. */
export function correctedAllergy(sentence: string): { told: string; denied: string } | null {
  const before = DENIED_THEN_TOLD.exec(sentence);
  if (before?.[1] && before[2]) {
    const told = allergenSaid(before[2]);
    return told ? { told, denied: before[1] } : null;
  }
  const after = TOLD_NOT_DENIED.exec(sentence);
  const told = after?.[1] ? allergenSaid(after[1]) : null;
  return told && after?.[2] ? { told, denied: after[2] } : null;
}

/** "I'm not allergic to nuts, it was peanuts" told as "I am allergic to peanuts, not nuts"; else `sentence` itself. */
export function withAllergyCorrected(sentence: string): string {
  const m = DENIED_THEN_TOLD.exec(sentence);
  const told = m?.[2] ? allergenSaid(m[2]) : null;
  if (!m?.[1] || !told) return sentence;
  return `${sentence.slice(0, m.index)}I am allergic to ${told}, not ${m[1]}`;
}
