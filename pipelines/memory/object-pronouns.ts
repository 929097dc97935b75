/**
 * A thing named by "it", "them", "that" or "this" as an object takes the one thing said just before (trial10 F4): Ben:
 * "Someone needs to handle the vendor contract." / Dana: "I can take it." is kept as "Dana can take the vendor contract";
 * "Dana can take it over" after "Ben is handling the vendor contract" reads "…take over the vendor contract", a task taken
 * over that team-decisions.ts can match. The antecedent is the one noun phrase (not a person, not a time) of the
 * pronoun's number ("it" one thing, "them" several) in the whole window: the clause before the pronoun's in its own
 * sentence, the sentences before it in the turn, and the turn just before. With none there, or two or more anywhere in
 * it ("I finished the report. The weather was awful." / "I will send it" names no one thing), or one told with a pronoun
 * possessive ("my report" is whose?) or without a determiner ("for analytics"), the sentence is kept as said: nothing is
 * guessed. The subject of "is / was + adjective" ("The weather was awful", "The office is closed") is said of, not acted
 * upon, and is no candidate; "The costs are too high" is a thing to act on and is one. Who "I" and "you" are is not the
 * pronoun's concern (pronouns.ts).
 */
import type { WinkMethods } from 'wink-nlp';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { PEOPLE } from './grammar.js';

/** A sentence read by the tagger: its words, tags, lemmas and the spaces before each word. */
interface Tagged {
  words: string[];
  pos: string[];
  lemmas: string[];
  spaces: string[];
}

/** A noun phrase that may be an antecedent: its words, whether it names several things, and whether it can be written in. */
interface Candidate {
  text: string;
  plural: boolean;
  /** False for a phrase told with a pronoun possessive or with no determiner: it counts, but is never written in. */
  usable: boolean;
}

/** Determiners that open a noun phrase which may be written in another sentence as said ("a" / "an" become "the"). */
const DETERMINER = /^(?:the|a|an|this|that|these|those)$/i;
const PLURAL_DETERMINER = /^(?:these|those)$/i;
/** Possessives whose owner the sentence the phrase is written into may not share ("my report" said by Ana, in Ben's turn). */
const POSSESSIVE = /^(?:my|your|his|her|its|our|their)$/i;
/** Particles of a phrasal verb that go before a whole noun phrase ("take it over" → "take over the vendor contract"). */
const PARTICLE = /^(?:over|up|back|off|out|on|down|away|in)$/i;
/**
 * Verbs whose "it" is no thing: "make it", "get it", "mean it"; "do it / that", which stands for an action ("We should
 * move the launch." / "Let's do it" is no "do the launch"); and verbs whose "it" is as often a matter as a thing ("The
 * budget is too tight." / "I'll raise it with finance" raises the matter, not the budget; "bring it up", "keep it",
 * "leave it", "let it go").
 */
const IDIOM_VERB = new Set(['make', 'get', 'mean', 'fake', 'wing', 'nail', 'call', 'do', 'raise', 'bring', 'keep', 'leave', 'let']);
/** Verbs whose "that" or "this" is what was said, not a thing in it: "I agree with that", "I know that", "I think so". */
const SAID_VERB = new Set(['know', 'think', 'say', 'tell', 'agree', 'believe', 'remember', 'understand', 'guess', 'doubt', 'hope',
  'hear', 'see', 'mean', 'like', 'love', 'hate', 'suggest', 'propose', 'second', 'support', 'approve']);
/**
 * Prepositions of place or motion: a thing after one is where something happened, rarely what a later "it" stands for
 * ("went to the store and bought it" is no "bought the store"); it counts as a candidate but is never written in.
 */
const PLACE_PREPOSITION = /^(?:to|at|in|into|from|near|inside|outside|onto|through|around|across|past|toward|towards)$/i;
/** Where a clause ends inside a sentence: what comes before may be an antecedent in the same sentence. */
const CLAUSE_BREAK = /^(?:,|;|:|and|but|so|then|because)$/i;

/**
 * Adverbs that may stand between "is / was" and an adjective without making its subject a thing acted upon: "The costs
 * are too high" asks for the costs to be cut.
 */
const EXCESS = /^(?:too)$/i;

/**
 * Whether the noun phrase whose head is token `head` of `t` is the subject of "is / was + adjective or participle" ("The
 * weather was awful", "The office is closed on Monday", "The room was really cold") or of "was out / off / down" ending
 * its clause ("The electricity was out"), not of "are too high".
 */
function saidOf(t: Tagged, head: number): boolean {
  if (t.lemmas[head + 1] !== 'be' || !['AUX', 'VERB'].includes(t.pos[head + 1] ?? '')) return false;
  const ends = (n: number): boolean => t.pos[n] === undefined || t.pos[n] === 'PUNCT' || CLAUSE_BREAK.test(t.words[n] ?? '');
  if (PARTICLE.test(t.words[head + 2] ?? '') && ends(head + 3)) return true;
  let k = head + 2;
  while (t.pos[k] === 'ADV' || t.pos[k] === 'PART') {
    if (EXCESS.test(t.words[k] ?? '')) return false;
    k++;
  }
  return t.pos[k] === 'ADJ' || t.pos[k] === 'VERB';
}

function tag(nlp: WinkMethods, text: string): Tagged {
  const tokens = nlp.readDoc(text).tokens();
  return {
    words: tokens.out(),
    pos: tokens.out(nlp.its.pos),
    // wink-nlp's typings give `lemma` an add-on signature; at run time it is a token property like `value`.
    lemmas: tokens.out(nlp.its.lemma as unknown as typeof nlp.its.value),
    spaces: tokens.out(nlp.its.precedingSpaces),
  };
}

/** The lexicographer file of `word`'s most common noun sense ("noun.person", "noun.time"), or null. */
function nounKind(word: string): string | null {
  return defaultWordNet().nounKinds(word)[0]?.lexFile ?? null;
}

/**
 * A person or a time: no thing an "it" or a "them" stands for here. A person is a word every sense of which is one
 * ("intern", "vendor"); "printer" is a machine too.
 */
function personOrTime(word: string): boolean {
  const w = word.toLowerCase();
  if (PEOPLE.has(w) || PEOPLE.has(w.replace(/s$/, ''))) return true;
  const senses = defaultWordNet().nounKinds(w, true);
  return nounKind(w) === 'noun.time' || (senses.length > 0 && senses.every((k) => k.lexFile === 'noun.person'));
}

/** The noun phrases of tokens `[from, to)` of `t`: a run of adjectives and nouns ending in a common noun, with what opens it. */
function nounPhrases(t: Tagged, from: number, to: number): Candidate[] {
  const out: Candidate[] = [];
  let i = from;
  while (i < to) {
    const opener = t.words[i] ?? '';
    const possessive = POSSESSIVE.test(opener) && ['PRON', 'DET'].includes(t.pos[i] ?? '') && t.pos[i + 1] !== 'PUNCT';
    const determiner = DETERMINER.test(opener) && t.pos[i] === 'DET';
    const named = t.pos[i] === 'PROPN' && /^['’]s$/.test(t.words[i + 1] ?? '');
    let j = determiner || possessive ? i + 1 : named ? i + 2 : i;
    let head = -1;
    while (j < to && ['ADJ', 'NOUN', 'NUM', 'PROPN'].includes(t.pos[j] ?? '') && !(head >= 0 && personOrTime(t.words[j]!))) {
      if (t.pos[j] === 'NOUN') head = j;
      j++;
    }
    if (head < 0 || personOrTime(t.words[head]!) || saidOf(t, head)) {
      i = Math.max(j, i + 1);
      continue;
    }
    const word = t.words[head]!.toLowerCase();
    const plural = PLURAL_DETERMINER.test(opener) || (t.lemmas[head] !== word && /s$/.test(word));
    const words = t.words.slice(i, head + 1).map((w, k) => `${k === 0 ? '' : t.spaces[i + k] ?? ' '}${w}`).join('');
    const text = determiner ? words.replace(/^(?:a|an)\b/i, 'the').replace(/^\S+/, (d) => d.toLowerCase()) : words;
    const place = i > from && t.pos[i - 1] === 'ADP' && PLACE_PREPOSITION.test(t.words[i - 1] ?? '');
    out.push({ text, plural, usable: (determiner || named) && !place });
    i = head + 1;
  }
  return out;
}

/** The index of the object pronoun in `t` a noun phrase may replace, or -1: after a verb or a preposition, no subject. */
function objectPronoun(t: Tagged): number {
  return t.words.findIndex((w, i) => {
    const word = w.toLowerCase();
    if (!/^(?:it|them|that|this)$/.test(word)) return false;
    const before = t.pos[i - 1];
    const lemma = t.lemmas[i - 1] ?? '';
    const verb = before === 'VERB' || (before === 'AUX' && lemma === 'have');
    const demonstrative = word === 'that' || word === 'this';
    // "about that", "with this": what was said; "work on it": a thing.
    if (!verb && (before !== 'ADP' || demonstrative)) return false;
    if (verb && (IDIOM_VERB.has(lemma) || (demonstrative && SAID_VERB.has(lemma)))) return false;
    const next = t.pos[i + 1];
    const nextWord = (t.words[i + 1] ?? '').toLowerCase();
    // "that he…", "this report", "it is": a clause or a noun follows, the word is no object standing alone.
    // "order it today" is told with a time after it.
    const time = next === 'NOUN' && nounKind(nextWord) === 'noun.time';
    if (next !== undefined && !['PUNCT', 'ADV', 'ADP', 'PART', 'CCONJ'].includes(next) && !time) return false;
    // "find it hard to…", "love it when…", "I'd like it to work": no thing.
    if (/^(?:when|if|that|to)$/.test(nextWord) && !(nextWord === 'to' && t.pos[i + 2] !== 'VERB' && t.pos[i + 2] !== 'AUX')) return false;
    return !demonstrative || next === undefined || time || ['PUNCT', 'ADV', 'ADP'].includes(next);
  });
}

/**
 * `sentence` with its object pronoun ("it", "them", "that", "this" after a verb or a preposition) written as the one noun
 * phrase of its number the whole window names: the clause before it in `sentence` and `before` (the sentences said before
 * it, oldest first: its own turn's, and the turn just before, of the same session only). As said when there is none,
 * when the window names two or more, or when the one it names may not be written in another's words (`Candidate.usable`).
 */
export function withObjectNamed(nlp: WinkMethods, sentence: string, before: readonly string[]): string {
  return objectNamer(nlp)(sentence, () => before);
}

/**
 * `withObjectNamed` bound to a tagger, for the sentences of one extraction; `before` is called only for a sentence with an
 * object pronoun.
 */
export type ObjectNamer = (sentence: string, before: () => readonly string[]) => string;

/**
 * A `withObjectNamed` for one extraction: each sentence is tagged, and its noun phrases read, once, however many later
 * sentences of the turn look back at it (the tagger is the cost, and the same text always reads the same).
 */
export function objectNamer(nlp: WinkMethods): ObjectNamer {
  const tagged = new Map<string, Tagged>();
  const phrases = new Map<string, Candidate[]>();
  const read = (text: string): Tagged => {
    let t = tagged.get(text);
    if (!t) tagged.set(text, (t = tag(nlp, text)));
    return t;
  };
  const said = (text: string): Candidate[] => {
    let cs = phrases.get(text);
    if (!cs) {
      const t = read(text);
      phrases.set(text, (cs = nounPhrases(t, 0, t.words.length)));
    }
    return cs;
  };
  return (sentence, before) => named(read(sentence), sentence, () => before().flatMap(said));
}

/**
 * `sentence`, tagged as `t`, with its object pronoun written as the one thing of its number in the clause before it or
 * in `said()`, the noun phrases of the sentences before it.
 */
function named(t: Tagged, sentence: string, said: () => readonly Candidate[]): string {
  const at = objectPronoun(t);
  if (at < 0) return sentence;
  const plural = t.words[at]!.toLowerCase() === 'them';
  const fits = (cs: readonly Candidate[]): Candidate[] => cs.filter((c) => c.plural === plural);
  // The clause before the pronoun's, in its own sentence ("The printer broke, can you fix it?").
  const clauseEnd = t.words.slice(0, at).findLastIndex((w) => CLAUSE_BREAK.test(w));
  const found = [...(clauseEnd > 0 ? fits(nounPhrases(t, 0, clauseEnd)) : []), ...fits(said())];
  // The same phrase said twice ("the vendor contract" in both turns) is one thing.
  const things = [...new Map(found.map((c) => [`${c.text.toLowerCase()}|${c.usable}`, c])).values()];
  if (things.length !== 1 || !things[0]!.usable) return sentence;
  const phrase = things[0]!.text;
  const head = t.words.slice(0, at).map((w, k) => `${k === 0 ? '' : t.spaces[k] ?? ' '}${w}`).join('');
  // "take it over" → "take over the vendor contract", when the particle ends the verb phrase ("put it on the table" does not).
  const particle = PARTICLE.test(t.words[at + 1] ?? '') && t.pos[at - 1] === 'VERB' && ['PUNCT', 'ADV', undefined].includes(t.pos[at + 2]);
  const rest = (from: number): string => t.words.slice(from).map((w, k) => `${t.spaces[from + k] ?? ' '}${w}`).join('');
  return particle ? `${head} ${t.words[at + 1]} ${phrase}${rest(at + 2)}` : `${head} ${phrase}${rest(at + 1)}`;
}
