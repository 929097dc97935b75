/**
 * "Maya's allergic to peanuts", "Sarah's a nurse", "Tom's really tired", "my daughter's scared of dogs": a noun's "'s"
 * that is "is", not a possessive (fix9, issue #16 F6: no fact was made, or "'s" stayed glued to the subject, "Sarah's
 * is allergic…"). Written out as "is" (or "has" before "been" / "got") before the rules read the sentence, so the
 * subject is the person and the fact reads "Maya is allergic to peanuts". A possessive is "'s" before a noun, after any
 * adjectives ("Maya's new job", "Maya's big old house"), and stays.
 */
import type { WinkMethods } from 'wink-nlp';

/** Tags that may stand between "'s" and the noun a possessive names ("Maya's big old house"). */
const MODIFIERS = new Set(['ADJ', 'ADV']);
/** A verb of the clause after its subject: "'s booking got cancelled", "'s running shoes got ruined" (`readAs`). */
const FINITE = /^(?:is|are|was|were|got|gets|has|had|have|will|would|did|does|went|['’]s)$/i;
/** What follows a perfect's participle after a name's "'s" ("Gemma's called off the party", "given up on keto"). */
const PERFECT_NEXT = /^(?:up|off|out|in|down|back|over|away|my|his|her|their|our|your)$/i;
/** Tags of what a possessive names. */
const NOUNS = new Set(['NOUN', 'PROPN', 'NUM', 'PRON']);

/**
 * `text` with each "'s" after a noun or name read as "is" ("has" before "been", "got") where what follows is no noun:
 * an article ("'s a nurse"), an "-ing" verb ("'s going"), "not", or adjectives and adverbs that end the clause or lead
 * to a preposition ("'s allergic to", "'s really tired.").
 */
export function withContractedIs(nlp: WinkMethods, text: string): string {
  if (!/\w['’]s\s/.test(text)) return text;
  const doc = nlp.readDoc(text);
  const words = doc.tokens().out() as string[];
  const tags = doc.tokens().out(nlp.its.pos) as string[];
  // Where each token starts in `text`, found in order.
  const starts: number[] = [];
  let at = 0;
  for (const w of words) {
    const i = text.indexOf(w, at);
    starts.push(i);
    if (i >= 0) at = i + w.length;
  }
  const edits: Array<[start: number, length: number, by: string]> = [];
  for (let k = 1; k < words.length; k++) {
    if (!/^['’]s$/.test(words[k]!) || !['NOUN', 'PROPN'].includes(tags[k - 1]!) || starts[k]! < 0) continue;
    // Glued to the noun: "Maya's", not "Maya 's".
    if (starts[k]! !== starts[k - 1]! + words[k - 1]!.length) continue;
    const next = (words[k + 1] ?? '').toLowerCase();
    const by = readAs(words, tags, k + 1, next);
    if (by) edits.push([starts[k]!, words[k]!.length, ` ${by}`]);
  }
  let out = text;
  for (const [start, length, by] of edits.reverse()) out = `${out.slice(0, start)}${by}${out.slice(start + length)}`;
  return out;
}

/** What "'s" before token `j` stands for, or null for a possessive. */
function readAs(words: string[], tags: string[], j: number, next: string): string | null {
  if (next === 'been' || next === 'got') return 'has';
  // "Tom's booking got cancelled", "Tom's wedding was called off": an "-ing" word before the clause's own verb is the
  // noun "'s" owns (rules 109: it was read "Tom is booking got cancelled").
  // "Tom's running shoes got ruined", "Tom's driving lessons start on Monday": the "-ing" word opens a noun compound, and the
  // clause's verb follows its nouns (rules 113: it was read "Tom is running shoes got ruined").
  let v = j + 1;
  while (v < words.length && tags[v] === 'NOUN') v++;
  const gerund = tags[j] === 'VERB' && /ing$/.test(next)
    && (FINITE.test(words[v] ?? '') || (v > j + 1 && ['VERB', 'AUX'].includes(tags[v] ?? '')));
  // "Gemma's called off her party", "Rhiannon's given up on keto", "Dan's sold the car": a verb that is no "-ing" form
  // before a particle or what it acts on is a perfect (rules 116); not "My dog's called Rex", "Tom's used car".
  if (tags[j] === 'VERB' && !/ing$/.test(next) && (PERFECT_NEXT.test(words[j + 1] ?? '') || tags[j + 1] === 'DET')) return 'has';
  // "The party's off", "Tom's off on Friday": "off" with no noun after it is a state (rules 109).
  if (next === 'off' && !NOUNS.has(tags[j + 1] ?? '')) return 'is';
  if (next === 'not' || /^(?:a|an)$/.test(next) || (tags[j] === 'VERB' && /ing$/.test(next) && !gerund)) return 'is';
  let m = j;
  while (m < words.length && MODIFIERS.has(tags[m]!)) m++;
  if (m === j) return null;
  // Adjectives or adverbs, then no noun: "'s allergic to peanuts", "'s really tired."
  return m >= words.length || !NOUNS.has(tags[m]!) ? 'is' : null;
}
