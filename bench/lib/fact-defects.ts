/**
 * Fact text a person would not write (issue #16 item 2, text5), scored for bench/fact-text.ts. Kept apart from the
 * bench so what counts as a defect reads in one place:
 * - `name`: a name said twice in one fact ("Ana can't lift heavy things, Ana hurt their back");
 * - `tag`: a discourse tag at a clause's edge ("by the way", "anyway", "you know", "I mean", "actually", "so yeah",
 *   "to be honest", "honestly");
 * - `pronoun`: a fact that opens with a bare pronoun ("She did, but…", "It was great");
 * - `target`: a liking or persona target that is no person or thing: a greeting or farewell ("bye ben"), the name a
 *   greeting addresses, or a generic noun ("things", "stuff", "it", "that").
 */
import type { ExtractedFact } from '../../pipelines/memory/extractor.js';

export type Defect = 'name' | 'tag' | 'pronoun' | 'target';

const TAG = '(?:by the way|anyway|you know|i mean|actually|so yeah|to be honest|honestly)';
/** A tag opening the text or a clause (after a stop, comma or joining word), or closing one. */
const TAG_AT_EDGE = new RegExp(`(?:^|[,;:.!?]\\s*|\\b(?:and|but)\\s+)${TAG}\\b|\\b${TAG}\\s*(?:[,;:.!?]|$)`, 'i');
const OPENING_PRONOUN = /^(?:he|she|it|they|him|her|them|his|its|their|this|that|these|those)\b/i;
const GENERIC = /^(?:things?|stuff|it|that|this|everything|something|anything|lots?)$/i;
const GREETING = /\b(?:bye|goodbye|hi|hello|hey|morning|night|thanks|cheers)\b/i;
/** The word a greeting or farewell addresses ("bye ben", "hello maria"). */
const GREETED = /\b(?:bye|goodbye|hi|hello|hey|morning|night|thanks|cheers)\s+([a-z]+)\b/gi;

/** Names (capitalised words but "I") said more than once in `text`, a possessive counted as its name. */
function repeatedName(text: string): boolean {
  const seen = new Set<string>();
  for (const m of text.matchAll(/\b([A-Z][a-z]+)(?:'s)?\b/g)) {
    if (seen.has(m[1]!)) return true;
    seen.add(m[1]!);
  }
  return false;
}

/** Whether `target` (a persona target or a liking's thing) is no target at all, given the turn's words `said`. */
export function badTarget(target: string, said: string): boolean {
  const t = target.trim().toLowerCase();
  if (GENERIC.test(t) || GREETING.test(t)) return true;
  return [...said.matchAll(GREETED)].some((m) => m[1]!.toLowerCase() === t);
}

/** The defects of one fact's text, and of its liking's thing when it fills a preference slot. */
export function factDefects(f: ExtractedFact, said: string): Defect[] {
  const out: Defect[] = [];
  if (repeatedName(f.content)) out.push('name');
  if (TAG_AT_EDGE.test(f.content)) out.push('tag');
  if (OPENING_PRONOUN.test(f.content.trim())) out.push('pronoun');
  const liked = /^(?:preference|favourite):(.+)$/.exec(f.slot ?? '');
  if (liked && badTarget(liked[1]!.replace(/_/g, ' '), said)) out.push('target');
  return out;
}
