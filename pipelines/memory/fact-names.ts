/**
 * A fact names its subject once (text5, issue #16 item 2): "I can't lift heavy things, I hurt my back" was written "Ana
 * can't lift heavy things, Ana hurt their back", and "dora lost her job dora is looking for work" kept both "Dora"s.
 * The subject named again as the subject of a later clause is told with a pronoun: "she" or "he" where the fact's own
 * words say which ("her job"), else "they", its verb agreeing ("they are looking", "they love it").
 */
import type { WinkMethods } from 'wink-nlp';
import { PEOPLE } from './grammar.js';

/** Words between a subject and its verb that leave the verb as it is ("Ana also works…"). */
const ADVERBS = new Set(['also', 'still', 'just', 'really', 'now', 'always', 'never', 'often', 'already', 'even', 'usually', 'actually']);
/** Verbs whose plural form "they" takes is no rule of "-s". */
const PLURAL: Record<string, string> = {
  is: 'are', was: 'were', has: 'have', does: 'do', "doesn't": "don't", "isn't": "aren't", "wasn't": "weren't", "hasn't": "haven't",
  'doesn’t': 'don’t', 'isn’t': 'aren’t', 'wasn’t': 'weren’t', 'hasn’t': 'haven’t',
};
/** Verbs after which a name and a bare verb are an object and what it does ("saw Ana leave", "let Ana go"). */
const OBJECT_BEFORE = new Set(['saw', 'see', 'sees', 'watched', 'watch', 'heard', 'hear', 'let', 'lets', 'made', 'make', 'makes', 'helped', 'help', 'helps', 'had']);

/** The subject that opens `content`: its capitalised name ("Mia", "Ana Lopez") or an unnamed one ("An unnamed speaker"). */
function openingSubject(content: string): string | null {
  const m = /^(?:[Aa]n unnamed speaker|[Tt]he caller|[A-Z][\p{L}-]*(?:\s+[A-Z][\p{L}-]*)?)(?=\s)/u.exec(content);
  if (!m) return null;
  // A kin word or an article opens no name ("The bus…").
  const first = m[0].split(/\s+/)[0]!.toLowerCase();
  if (/^(?:the|a|an)$/.test(first) && !/^(?:an unnamed speaker|the caller)$/i.test(m[0])) return null;
  return PEOPLE.has(first) ? null : m[0];
}

/** The pronoun the fact's own words give its subject: "she" by "her", "he" by "his", else "they". */
function pronounFor(content: string): 'she' | 'he' | 'they' {
  const she = /\b(?:she|her|hers|herself)\b/i.test(content);
  const he = /\b(?:he|him|his|himself)\b/i.test(content);
  return she && !he ? 'she' : he && !she ? 'he' : 'they';
}

/** A third-person verb as "they" says it: "is" → "are", "loves" → "love", "watches" → "watch"; past tenses stay. */
function plural(verb: string): string {
  const lower = verb.toLowerCase();
  if (PLURAL[lower]) return PLURAL[lower]!;
  if (/(?:ss|us|is)$/.test(lower) || !/s$/.test(lower)) return verb;
  if (/[^aeiou]ies$/.test(lower)) return `${verb.slice(0, -3)}y`;
  if (/(?:sh|ch|x|z|o)es$/.test(lower)) return verb.slice(0, -2);
  return verb.slice(0, -1);
}

/**
 * `content` with its opening subject named once: each later clause whose subject is the same name (the name before a
 * verb, perhaps after an adverb, and not after a verb that makes it an object) says a pronoun instead.
 */
export function namedOnce(nlp: WinkMethods, content: string): string {
  const subject = openingSubject(content);
  if (!subject) return content;
  const esc = subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const again = new RegExp(`(,\\s*|\\s+)(${esc})(\\s+)((?:[\\p{L}'’]+\\s+)*?)([\\p{L}'’]+)`, 'giu');
  const pronoun = pronounFor(content);
  let out = content;
  let from = subject.length;
  for (;;) {
    again.lastIndex = from;
    const m = again.exec(out);
    if (!m) break;
    const [whole, before, , gap, between, word] = m as unknown as [string, string, string, string, string, string];
    const at = m.index;
    from = at + whole.length;
    // Only adverbs may stand between the name and its verb ("Ana also works…").
    if (between.split(/\s+/).filter(Boolean).some((w) => !ADVERBS.has(w.toLowerCase()))) continue;
    // The name after a verb that takes a clause ("Tom saw Ana leave") is its object: left as said.
    const previous = /(\S+)\s*$/.exec(out.slice(0, at))?.[1]?.toLowerCase() ?? '';
    const pos = nlp.readDoc(`${subject} ${word}`).tokens().out(nlp.its.pos).slice(-1)[0];
    const verb = pos === 'VERB' || pos === 'AUX' || PLURAL[word.toLowerCase()] !== undefined;
    if (!verb || OBJECT_BEFORE.has(previous)) continue;
    const said = `${before}${pronoun}${gap}${between}${pronoun === 'they' ? plural(word) : word}`;
    out = out.slice(0, at) + said + out.slice(at + whole.length);
    from = at + said.length;
  }
  return ownedOnce(nlp, out, esc, pronoun);
}

const POSSESSIVE = { she: 'her', he: 'his', they: 'their' } as const;

/**
 * `content` with the subject's name said again as a possessive before a thing or person ("Ana will visit Ana's sister")
 * told with the possessive pronoun ("…their sister"); "Ana's own" stays, as does "'s" for "is" ("Ana's going").
 */
function ownedOnce(nlp: WinkMethods, content: string, esc: string, pronoun: keyof typeof POSSESSIVE): string {
  const again = new RegExp(`(?<=\\S\\s+)${esc}['’]s\\s+([\\p{L}-]+)`, 'gu');
  return content.replace(again, (m: string, word: string) => {
    if (word.toLowerCase() === 'own') return m;
    const pos = nlp.readDoc(`the ${word}`).tokens().out(nlp.its.pos)[1];
    return pos === 'NOUN' || PEOPLE.has(word.toLowerCase()) ? `${POSSESSIVE[pronoun]} ${word}` : m;
  });
}
