/**
 * A verb that agrees with its subject in fact text (text6, issue #16 item 2): "they likes" (a plural subject said with a
 * third-person verb) is written "they like", and a "they" told as one named person ("They love it there" → "Nora loves it
 * there") takes the singular verb.
 */
import type { WinkMethods } from 'wink-nlp';

/** Verbs whose plural form "they" takes is no rule of "-s". */
export const PLURAL: Record<string, string> = {
  is: 'are', was: 'were', has: 'have', does: 'do', "doesn't": "don't", "isn't": "aren't", "wasn't": "weren't", "hasn't": "haven't",
  'doesn’t': 'don’t', 'isn’t': 'aren’t', 'wasn’t': 'weren’t', 'hasn’t': 'haven’t',
};
const SINGULAR: Record<string, string> = Object.fromEntries([...Object.entries(PLURAL).map(([one, many]) => [many, one]), ['do', 'does'],
  ["'re", "'s"], ['’re', '’s'], ["'ve", "'s"], ['’ve', '’s']]);
/** Words between a subject and its verb that leave the verb as it is ("they also like…"). */
const ADVERBS = String.raw`(?:(?:also|still|just|really|always|never|often|already|even|usually|both|all)\s+)*`;
/** Past tenses and modals, the same for every person. */
const SAME = /^(?:can|could|will|would|shall|should|may|might|must|had|did|went|said|were|loved|liked)$|ed$|n['’]t$/i;

/** A third-person verb as "they" says it: "is" → "are", "loves" → "love", "watches" → "watch"; past tenses stay. */
export function plural(verb: string): string {
  const lower = verb.toLowerCase();
  if (PLURAL[lower]) return PLURAL[lower]!;
  if (/(?:ss|us|is)$/.test(lower) || !/s$/.test(lower)) return verb;
  if (/[^aeiou]ies$/.test(lower)) return `${verb.slice(0, -3)}y`;
  if (/(?:sh|ch|x|z|o)es$/.test(lower)) return verb.slice(0, -2);
  return verb.slice(0, -1);
}

/** A plural verb as one person says it: "are" → "is", "love" → "loves", "watch" → "watches"; past tenses and modals stay. */
export function singular(verb: string): string {
  const lower = verb.toLowerCase();
  if (SINGULAR[lower]) return SINGULAR[lower]!;
  if (SAME.test(lower) || /s$/.test(lower)) return verb;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  if (/(?:sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  return `${verb}s`;
}

/** `content` with each "they" + a third-person present verb ("they likes", "they also has") in agreement. */
export function theyAgreeing(nlp: WinkMethods, content: string): string {
  return content.replace(new RegExp(String.raw`\b(they\s+${ADVERBS})([a-z'’]+s)\b`, 'gi'), (m: string, lead: string, verb: string) => {
    const pos = nlp.readDoc(`it ${verb}`).tokens().out(nlp.its.pos)[1];
    return pos === 'VERB' || pos === 'AUX' || PLURAL[verb.toLowerCase()] ? `${lead}${plural(verb)}` : m;
  });
}

/** "Nora love it there", "Nora 're moving" (a "they" told as one named person): the verb after `subject` said for one. */
export function oneAgreeing(nlp: WinkMethods, content: string, subject: string): string {
  if (!content.startsWith(subject)) return content;
  const m = new RegExp(String.raw`^(\s*${ADVERBS})([a-z'’]+)\b`, 'i').exec(content.slice(subject.length));
  if (!m) return content;
  const [whole, lead, word] = m as unknown as [string, string, string];
  const tokens = nlp.readDoc(`they ${word}`).tokens();
  const pos = tokens.out(nlp.its.pos)[1];
  const lemma = tokens.out(nlp.its.lemma as unknown as typeof nlp.its.value)[1];
  const present = SINGULAR[word.toLowerCase()] !== undefined || ((pos === 'VERB' || pos === 'AUX') && lemma === word.toLowerCase());
  if (!present) return content;
  return `${subject}${lead}${singular(word)}${content.slice(subject.length + whole.length)}`;
}
