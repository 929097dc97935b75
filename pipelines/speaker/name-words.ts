import { defaultWordNet, type WordNet } from '../retrieval/wordnet.js';
import { isCalendarWord } from './calendar-words.js';
import { givenNamePrevalence } from './given-names.js';
import { NOT_NAMES } from './name-tokens.js';

/**
 * Closed-class English words: prepositions, determiners, pronouns, conjunctions, auxiliaries and
 * particles. "my name is on the list" names no one; an alias "On" would match every "on" spoken.
 * Modals that are also common first names ("will", "may", "can") are left out: the case rule of
 * `mentionsAsName` keeps them from matching as ordinary words in typed text.
 */
const CLOSED_CLASS = new Set(
  ('a an the this that these those some any no every each either neither both all such what which whose ' +
    'i me my mine we us our ours you your yours he him his she her hers it its they them their theirs ' +
    'myself yourself himself herself itself ourselves themselves who whom someone somebody anyone anybody ' +
    'everyone everybody nobody none nothing something anything everything one ' +
    'on in at to of by for from with into onto upon off out over under up down about above across after ' +
    'against along among around before behind below beneath beside between beyond during near past since ' +
    'through till toward towards until via within without per than as ' +
    'and or but nor so yet if because though although unless whether while when where why how then ' +
    'am is are was were be been being do does did done has have had having could would should must shall ' +
    'not too very also just only even still already again here there now yes yeah ok okay oh ah um uh').split(' '),
);

/** Whether `word` (any case) is a closed-class word ("on", "in", "the"): never a name, never matched as one. */
export function isFunctionWord(word: string): boolean {
  return CLOSED_CLASS.has(word.toLowerCase());
}

const sensesCache = new Map<string, { ordinary: boolean; proper: boolean; notNoun: boolean }>();

/** WordNet's senses of a lower-case word, remembered: address matching asks for the same aliases on every turn. */
function sensesOf(lower: string, wordnet: WordNet): { ordinary: boolean; proper: boolean; notNoun: boolean } {
  const hit = wordnet === defaultWordNet() ? sensesCache.get(lower) : undefined;
  if (hit) return hit;
  const senses = wordnet.senses(lower);
  if (wordnet === defaultWordNet()) {
    if (sensesCache.size > 10000) sensesCache.clear();
    sensesCache.set(lower, senses);
  }
  return senses;
}

/**
 * Whether `word` is an ordinary English word that is no name: WordNet lists it with a common sense and no
 * capitalised one ("done", "great", "list"), and it is no listed first name ("frank", "grace" are names).
 */
export function isOrdinaryWord(word: string, wordnet: WordNet = defaultWordNet()): boolean {
  const lower = word.toLowerCase();
  const senses = sensesOf(lower, wordnet);
  return senses.ordinary && !senses.proper && givenNamePrevalence(lower) === 0;
}

/**
 * Whether `name` may be taken as a person's name or alias (from an introduction, address evidence or an
 * extracted profile): its first word is no function word and no word of `NOT_NAMES` ("fine", "here"). Weak
 * evidence (the default: a vocative, a word in all-lower-case text) must also be no ordinary word (see
 * `isOrdinaryWord`): "On", "In", "Done" from "my name is on the list" fail; "Ana", "Frank", "Ahmed" pass.
 * `strong` evidence, a name written capitalised in mixed-case text ("My name is River") or given by an
 * extractor, needs no more: many real names ("River", "Sky", "Lotus") are ordinary words absent from the name list.
 * Without WordNet (`/usr/share/wordnet` absent) only the word lists apply: "Done" would pass.
 */
export function couldBeName(name: string, wordnet: WordNet = defaultWordNet(), strong = false): boolean {
  const written = name.trim().split(/\s+/)[0] ?? '';
  const first = written.toLowerCase();
  if (first.length === 0 || isFunctionWord(first) || NOT_NAMES.has(first)) return false;
  return (strong && /^\p{Lu}/u.test(written)) || !isOrdinaryWord(first, wordnet);
}

/**
 * Whether `word` is also a verb, adjective or adverb ("will", "frank", "mark"): such a name only counts
 * written capitalised in typed text ("Frank", not "frank"). Noun homographs ("ana", "eve") are left alone:
 * typed in lower case they are the name far more often than the noun.
 */
export function isAlsoCommonWord(word: string, wordnet: WordNet = defaultWordNet()): boolean {
  return sensesOf(word.toLowerCase(), wordnet).notNoun;
}

/**
 * Whether a one-word label is also an ordinary word ("On", "May", "Will", "Friday", "River"): in a memory's text it
 * is far more often the word than the person, so a rename rewrites it only where it is clearly the person.
 */
export function labelIsAlsoWord(label: string): boolean {
  if (/\s/.test(label.trim())) return false;
  const lower = label.toLowerCase();
  return isFunctionWord(lower) || isCalendarWord(lower) || isOrdinaryWord(lower) || isAlsoCommonWord(lower);
}
