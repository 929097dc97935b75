/**
 * Sentences told with their "I" left out ("Paid Marcus back…") and pleasantries that name nothing ("Glad to hear it"),
 * read before the embedded rules run.
 */
import type { Wink } from '../wink.js';

/** Words that tell when an act happened without a noun ("Started when I was young", "Felt sick yesterday"). */
const WHEN_WORD = /^(?:when|while|since|after|before|until|till|ago|yesterday|today|tonight|recently|earlier|lately|once)$/i;
/** A subject pronoun: after one, the opening word is no verb of an "I" left out ("Blessed we both have this mindset"). */
const SUBJECT_PRONOUN = /^(?:i|we|he|she|they)$/i;

/** Verbs that take a clause ("Thought I'd…", "Heard they're…", "Figured we'd…"): the pronoun after one is the clause's subject. */
const CLAUSE_VERB = /^(?:think|figure|hear|guess|reckon|realise|realize|decide|notice|learn|suppose|find|read|bet|hope|wish|know|discover)$/;

/**
 * True when the words after the opening word, up to the first punctuation or dash, tell of something: they name a
 * thing, a place or a person (a noun, a name or a number: "Paid Marcus back", "Spoke to Gran", "Heard of that series")
 * or a time ("Started when I was young", "Felt sick yesterday"). A reaction names none: "Agreed!", "Got it, Nate",
 * "Got it covered", "Got your back" (the listener's own thing), "Felt so refreshing", "Missed you", "Glad to hear it".
 * The listener's name (`listeners`) names nothing, nor, after a verb, what follows "your". `whole`: read on past the
 * first punctuation, to the end of the sentence (a pleasantry's adjective, where "your son" names a person).
 */
function namesSomething(words: readonly string[], pos: readonly string[], listeners: readonly string[], whole = false): boolean {
  const names = new Set(listeners.map((n) => n.toLowerCase()));
  for (let i = 1; i < words.length && (whole || pos[i] !== 'PUNCT'); i++) {
    const word = words[i]!.toLowerCase();
    if (WHEN_WORD.test(word)) return true;
    if (!['NOUN', 'PROPN', 'NUM'].includes(pos[i] ?? '')) continue;
    // "Got your back": a set phrase; "Glad your son is okay" tells of the listener's son.
    if (names.has(word) || (!whole && /^(?:your|yours|ur)$/i.test(words[i - 1] ?? ''))) continue;
    return true;
  }
  return false;
}

/**
 * A pleasantry said with its "I" left out and opened by a word of feeling ("Glad to hear it", "Happy to help, Nate",
 * "Great to hear it", "Glad everyone could make it", "Same here"): an adjective, and nothing named in the whole sentence
 * (`namesSomething`). No memory. "Glad Melanie's son is okay" and "Awesome, Galway looks amazing" name something and stay.
 */
export function pleasantry(nlp: Wink, sentence: string, listeners: readonly string[] = []): boolean {
  if (!/^[A-Z][a-z]+\b/.test(sentence)) return false;
  // wink tags a capitalised word that opens a sentence as a name: read it lowercase.
  const doc = nlp.readDoc(sentence.charAt(0).toLowerCase() + sentence.slice(1));
  const pos = doc.tokens().out(nlp.its.pos);
  const words = doc.tokens().out();
  // "Blue's my fave": an adjective before a verb is the subject, no feeling of the speaker's.
  if (pos[1] === 'AUX' || pos[1] === 'VERB' || /^['’]s$/.test(words[1] ?? '')) return false;
  return pos[0] === 'ADJ' && !namesSomething(words, pos, listeners, true);
}

/**
 * A sentence told with its "I" left out, diary style, opened by a past form of a verb ("Paid Marcus back for the tickets",
 * "Spoke to Gran this morning", "Ran the Manchester half on Sunday"): read with the "I". Not a base form, which may be an
 * imperative or a present ("Put it there", "Turns out…"), nor a participle before "in / at / by / from" ("Based in Leeds"),
 * nor a set phrase or a reaction whose verb names nothing (`namesSomething`: "Agreed, …", "Got it covered", "Got your
 * back"), which stays as said (and gives no fact). A verb that takes a clause, then the clause's subject ("Thought I'd
 * refresh those skills", "Heard they're super chill", "Figured I'd give it a go"), is read with the "I" whatever the
 * clause names. `listeners`: the names of the people it is said to.
 */
export function withElidedI(nlp: Wink, sentence: string, listeners: readonly string[] = []): string {
  const doc = nlp.readDoc(sentence);
  const words = doc.tokens().out();
  const pos = doc.tokens().out(nlp.its.pos);
  const lemmas = doc.tokens().out(nlp.its.lemma as unknown as typeof nlp.its.value);
  const first = words[0] ?? '';
  const lemma = (lemmas[0] ?? '').toLowerCase();
  const word = first.toLowerCase();
  if (pos[0] !== 'VERB' || !/^[A-Z][a-z]+$/.test(first) || word === lemma || /(?:ing|s)$/.test(word)) return sentence;
  if (/^(?:in|at|by|from|with|for)$/i.test(words[1] ?? '') || /\?\s*$/.test(sentence)) return sentence;
  // "Thought I'd refresh those skills", "Heard they're super chill": a verb that takes a clause, the clause's subject after it.
  const clause = CLAUSE_VERB.test(lemma) && SUBJECT_PRONOUN.test(words[1] ?? '');
  // "Agreed, …", "Got it covered", "Blessed we both have…": a reaction, or no verb of the speaker's.
  if (!clause && (SUBJECT_PRONOUN.test(words[1] ?? '') || !namesSomething(words, pos, listeners))) return sentence;
  return `I ${word}${sentence.slice(first.length)}`;
}
