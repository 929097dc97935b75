/**
 * A fact names its subject once (text5, issue #16 item 2): "I can't lift heavy things, I hurt my back" was written "Ana
 * can't lift heavy things, Ana hurt their back", and "dora lost her job dora is looking for work" kept both "Dora"s.
 * The subject named again as the subject of a later clause is told with a pronoun: "she" or "he" where the fact's own
 * words say which ("her job"), else "they", its verb agreeing ("they are looking", "they love it").
 */
import type { WinkMethods } from 'wink-nlp';
import { PEOPLE } from './grammar.js';
import { PLURAL, plural } from './verb-agreement.js';

/** Words between a subject and its verb that leave the verb as it is ("Ana also works…"). */
const ADVERBS = new Set(['also', 'still', 'just', 'really', 'now', 'always', 'never', 'often', 'already', 'even', 'usually', 'actually']);
/** Verbs after which a name and a bare verb are an object and what it does ("saw Ana leave", "let Ana go"). */
const OBJECT_BEFORE = new Set(['saw', 'see', 'sees', 'watched', 'watch', 'heard', 'hear', 'let', 'lets', 'made', 'make', 'makes', 'helped', 'help', 'helps', 'had']);

/** A capitalised name ("Mia", "Ana Lopez"). */
const NAME = String.raw`[A-Z][\p{L}-]*(?:\s+[A-Z][\p{L}-]*)?`;
/** A joint subject ("Ana and Tom", "Ana, Tom and Ben", "Ana and others", "Ana and the group"), told again as "they" (text6). */
const JOINT = new RegExp(String.raw`^${NAME}(?:,\s+${NAME})*\s+and\s+(?:${NAME}|others|the group)(?=\s)`, 'u');

/**
 * The subject that opens `content`: a joint one ("Ana and Tom"), its capitalised name ("Mia", "Ana Lopez") or an
 * unnamed one ("An unnamed speaker").
 */
function openingSubject(content: string): string | null {
  const joint = JOINT.exec(content);
  if (joint && !PEOPLE.has(joint[0].split(/\s+/)[0]!.toLowerCase())) return joint[0];
  const m = new RegExp(String.raw`^(?:[Aa]n unnamed speaker|[Tt]he caller|${NAME})(?=\s)`, 'u').exec(content);
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

/**
 * `content` with its opening subject named once: each later clause whose subject is the same name (the name before a
 * verb, perhaps after an adverb, and not after a verb that makes it an object) says a pronoun instead.
 */
export function namedOnce(nlp: WinkMethods, content: string): string {
  const subject = openingSubject(content);
  if (!subject) return content;
  const esc = subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const again = new RegExp(`(,\\s*|\\s+)(${esc})(\\s+)((?:[\\p{L}'’]+\\s+)*?)([\\p{L}'’]+)`, 'giu');
  const pronoun = / and /.test(subject) ? 'they' : pronounFor(content);
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
  return objectOnce(nlp, ownedOnce(nlp, out, esc, pronoun), subject, esc, pronoun);
}

const REFLEXIVE = { she: 'herself', he: 'himself', they: 'themself' } as const;
const OBJECT = { she: 'her', he: 'him', they: 'them' } as const;
/** A relative pronoun and the verb it is the subject of ("moments that bring", "people who really make"). */
const RELATIVE_VERB = /\b(?:that|which|who)\s+(?:(?:all|also|just|really|always|often|still|never|can|could|will|would|always)\s+)*([\p{L}'’]+)\s/giu;
/** Words after which a name opens a clause of its own, no object of the one before ("…, and Ana will…", "that Ana…"). */
const CLAUSE_OPENS = /(?:[:;,.!?\-–—]|\b(?:and|but|or|that|whether|if|because|so|when|while|then|what|who|how|why|where|after|before|since|until|glad|maybe|guess|guesses|think|thinks|hope|hopes|considering|within|of))\s+$/i;

/**
 * `content` with its opening subject said again as an object told as a person would write it (text7, issue #16): a
 * group said again ("Sarah and others are taking the dog with Sarah and others") is "them"; one person said again in a
 * group holding them ("Sarah will drive Sarah and others to grandma's", from "I will drive us…") is told by the
 * reflexive ("themself", the project's word where no gender is known; "herself" / "himself" where the fact's words say
 * which) and the others where they are named ("Sarah will drive themself and Tom"), or by "everyone" where they are
 * not: "themself and others" reads like no one's writing, and "them" would leave out the driver. A name said again as
 * the subject of a clause of its own stays ("…glad Maria and John both understand", "after John and Tim talked"), and
 * so does one person said again alone: whether it is the object of the opening subject's own verb ("Sarah bought it for
 * Sarah") or of another's ("it made John feel better") the words alone do not tell ("myself" is read in pronouns.ts).
 */
function objectOnce(nlp: WinkMethods, content: string, subject: string, esc: string, pronoun: keyof typeof POSSESSIVE): string {
  const again = (said: string): RegExp => new RegExp(`(?<=\\S\\s+)${said}(?![\\p{L}\\p{N}'’])`, 'gu');
  // An object: not after words that open a clause, nor before a verb (perhaps after "all", "both"…: "…Nate and others all need").
  const objectAt = (m: string, at: number, whole: string): boolean => {
    if (CLAUSE_OPENS.test(whole.slice(0, at))) return false;
    const next = /^\s+(?:(?:all|both|also|just|really|still|never|always|can|could|will|would|should|might|may|must)\s+)*([\p{L}'’]+)/u.exec(whole.slice(at + m.length));
    if (!next) return true;
    if (next[0].trim().split(/\s+/).length > 1) return false;
    const pos = nlp.readDoc(`They ${next[1]}`).tokens().out(nlp.its.pos).slice(-1)[0];
    return pos !== 'VERB' && pos !== 'AUX';
  };
  if (/ and /.test(subject)) return content.replace(again(esc), (m: string, at: number, whole: string) => (objectAt(m, at, whole) ? 'them' : m));
  // "Ana cherishes moments that bring Ana and Ben happiness": inside a relative clause the object is another verb's,
  // whose subject is the thing before "that", so "them", not the reflexive (rules 50: "…that bring themself and Ben…").
  const self = (at: number, whole: string): string => (inRelativeClause(nlp, whole.slice(0, at)) ? OBJECT[pronoun] : REFLEXIVE[pronoun]);
  return content
    .replace(again(`${esc} and (?:others|the group)`), (m: string, at: number, whole: string) => (objectAt(m, at, whole) ? 'everyone' : m))
    .replace(again(`${esc}((?:,\\s+${NAME})*\\s+and\\s+${NAME})`), (m: string, rest: string, at: number, whole: string) =>
      (objectAt(m, at, whole) ? `${self(at, whole)}${rest}` : m));
}

/** True when `before` (the words before an object) ends inside a relative clause: a "that / which / who" then a verb. */
function inRelativeClause(nlp: WinkMethods, before: string): boolean {
  const last = [...before.matchAll(RELATIVE_VERB)].at(-1);
  if (!last?.[1]) return false;
  const pos = nlp.readDoc(`They ${last[1]}`).tokens().out(nlp.its.pos).slice(-1)[0];
  return pos === 'VERB' || pos === 'AUX';
}

/** Words tagged as nouns after "'s" that own nothing: "Ana's new here", "Ana's back home" ("'s" is "is"). */
const NO_THING = /^(?:here|there|now|today|tonight|again|too|home|back|away)$/i;

const POSSESSIVE = { she: 'her', he: 'his', they: 'their' } as const;

/**
 * `content` with the subject's name said again as a possessive before a thing or person ("Ana will visit Ana's sister",
 * "Ana enjoys Ana's new job", "Ana and Tom will visit Ana and Tom's parents") told with the possessive pronoun ("…their
 * sister", "…their new job"); "Ana's own" stays, as does "'s" for "is" ("Ana's going", "Ana's really happy").
 */
function ownedOnce(nlp: WinkMethods, content: string, esc: string, pronoun: keyof typeof POSSESSIVE): string {
  const again = new RegExp(`(?<=\\S\\s+)${esc}['’]s\\s+([\\p{L}-]+(?:\\s+[\\p{L}-]+){0,2})`, 'gu');
  return content.replace(again, (m: string, words: string) => {
    const said = words.split(/\s+/);
    if (said[0]!.toLowerCase() === 'own') return m;
    const pos = nlp.readDoc(`the ${words}`).tokens().out(nlp.its.pos).slice(1);
    // The thing or person owned: the first noun, after adjectives only ("new job", "really old car").
    const noun = said.findIndex((w, i) => (pos[i] === 'NOUN' && !NO_THING.test(w)) || PEOPLE.has(w.toLowerCase()));
    if (noun < 0 || pos.slice(0, noun).some((p) => p !== 'ADJ' && p !== 'ADV')) return m;
    return `${POSSESSIVE[pronoun]} ${words}`;
  });
}
