import * as chrono from 'chrono-node';
import { namedDate } from './memory-items.js';
import { defaultWordNet, type WordNet } from './wordnet.js';
import { givenNamePrevalence } from '../speaker/given-names.js';

/** What kind of answer a question expects, where the wording says so. */
export type AnswerType = 'time' | 'number' | 'place' | 'person';

const ASKS_TIME = /^\s*(?:when|how long|since when|what (?:time|date|day|month|year)|which (?:time|date|day|month|year|week))\b/i;
const ASKS_NUMBER = /^\s*(?:how (?:many|much|often|old|far))\b/i;
/**
 * "Where…", "From where…", "Which city…", "In what country…", "What state of Australia…": the answer is a place ("What
 * state of mind / affairs / play / the art…" asks none).
 */
const ASKS_PLACE = new RegExp('^\\s*(?:(?:from|to)\\s+where|where|(?:(?:in|to|from|at)\\s+)?(?:which|what)\\s+(?:city|country|town|state(?!\\s+of\\s+(?:mind|affairs|play|the\\s+art)\\b)|place|'
  + 'location|venue|village|county|region|continent|park|beach|restaurant|cafe|store|shop))\\b', 'i');
const NUMBER = /\b(?:\d+|once|twice|thrice|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|hundred|thousand|several|few|every (?:day|week|month|year))\b/i;
/** A year on its own ("since 2019"), which chrono does not read as a time. */
const YEAR = /\b(?:19|20)\d\d\b/;
/** A fixed reference for parsing turns: only whether a time is named matters, not which. */
const REFERENCE = new Date(Date.UTC(2000, 0, 1));

/** The answer type a question's wording asks for ("When…" → time, "How many…" → number, "Where…" → place, "Who…" → person), or null. */
export function expectedAnswerType(question: string): AnswerType | null {
  if (ASKS_TIME.test(question)) return 'time';
  if (ASKS_NUMBER.test(question)) return 'number';
  if (ASKS_PLACE.test(question)) return 'place';
  if (asksWho(question)) return 'person';
  return null;
}

/**
 * True when `text` holds an answer of `type`: a time expression chrono can read ("last week",
 * "on 8 May", "two years ago") or a year; a number or count word; a place (`namesPlace`) or a person (`namesPerson`),
 * judged by `wordnet`.
 */
export function holdsAnswerType(text: string, type: AnswerType, wordnet: WordNet = defaultWordNet()): boolean {
  if (type === 'number') return NUMBER.test(text);
  if (type === 'place') return namesPlace(text, wordnet);
  if (type === 'person') return namesPerson(text, wordnet);
  return YEAR.test(text) || chrono.parse(text, REFERENCE).length > 0;
}

/** Prepositions that put what follows them at a place ("at the beach", "to Paris", "from a small town"). */
const PLACE_PREPOSITIONS = new Set(['at', 'in', 'to', 'from', 'into', 'near', 'around', 'inside', 'outside', 'across', 'toward', 'towards']);
/** Words between such a preposition and its noun: articles, possessives, demonstratives. */
const DETERMINERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'this', 'that', 'these', 'those', 'some', 'one']);
/**
 * Synsets a noun sense of a place falls under, by WordNet's hypernyms: built places (a museum, a restaurant, a gym:
 * structures and establishments, facilities), the land and water (a beach, the mountains, a lake) and areas (a room).
 * WordNet files many such nouns under noun.artifact or noun.object, not noun.location.
 */
const PLACE_KINDS = new Set(['structure', 'establishment', 'facility', 'geological formation', 'body of water', 'land', 'area', 'region', 'location']);
/**
 * Words that end the phrase after a place preposition: pronouns, the conjunctions and prepositions past its noun ("in
 * love with pottery"), and "end" ("in the end"; "at the end of the road" is read by its "of").
 */
const NOT_PLACE = new Set(('it me you him her us them there here which what who whom whose end '
  + 'with for of about and or but on by like than so because when after before while during').split(' '));
/** Nouns that name a place right after the preposition, with no determiner, though WordNet does not say so ("at work", "in bed"). */
const BARE_PLACES = new Set(['home', 'work', 'bed', 'school', 'church', 'college', 'hospital']);
/**
 * Words right before "to" that make it an infinitive's ("have to work", "would love to work"), so a bare place after it
 * (`BARE_PLACES`) is a verb: modals' kin, and verbs and adjectives that take one ("go to work", "back to work" stay places).
 */
const BEFORE_INFINITIVE = new Set(('have has had having want wants wanted need needs needed love loves loved like likes liked '
  + 'hate hates hated prefer prefers preferred try tries tried trying plan plans planned hope hopes hoped ought used supposed '
  + 'able unable about decide decides decided start starts started begin begins began continue continues continued '
  + 'learn learns learned learnt agree agreed promise promised refuse refused expect expected seem seems seemed intend intends '
  + 'intended wish wishes wished manage managed afford chose choose ready willing happy glad eager keen free').split(' '));
/** Words right before a name that make it a person's, not a place's ("meeting Sydney"). */
const MEETS = /^(?:meet|meets|meeting|met)$/i;
/** Words right before a name that make a common given name a person's ("with Jordan", "Jordan and Georgia"). */
const BEFORE_PERSON = /^(?:with|and)$/i;
/**
 * How common a first name must be (percent of people, `givenNamePrevalence`) for a place of that name to read as a person
 * where both could be meant: 1 in 5,000 ("Virginia", "Georgia", "Jordan" are; "Paris", "Houston", "Dallas" are not).
 */
const COMMON_GIVEN_NAME = 0.02;
/** Per WordNet, whether a word's senses are places (`placeNoun`), cached: the same words recur in every ranking. */
const placeCache = new WeakMap<WordNet, Map<string, boolean>>();

/**
 * True when WordNet reads `word` as a place: one of its noun senses (`seen`: not a rare one, as "meeting" where two
 * rivers meet) is filed under noun.location or falls under a `PLACE_KINDS` synset ("beach" → geological formation, "museum" → structure, "Sweden" → noun.location). `proper`:
 * the word was written capitalised, so only a capitalised WordNet noun counts (a name, not a common word that
 * opens a sentence), and it must be a location by its lexicographer file.
 */
function placeNoun(word: string, wordnet: WordNet, proper: boolean): boolean {
  let cache = placeCache.get(wordnet);
  if (!cache) placeCache.set(wordnet, (cache = new Map()));
  const key = `${proper ? 'P' : 'c'}:${word.toLowerCase()}`;
  let hit = cache.get(key);
  if (hit === undefined) {
    if (proper) hit = wordnet.senses(word).proper && wordnet.nounKinds(word).some((k) => k.lexFile === 'noun.location');
    else hit = wordnet.nounKinds(word, 'seen').some((k) => k.lexFile === 'noun.location' || k.ancestors.some((a) => PLACE_KINDS.has(a)));
    cache.set(key, hit);
  }
  return hit;
}

/**
 * True when `text` names a place: a capitalised name WordNet files as a location ("Sweden", "Paris", "Boston"; a
 * person's name is none) after a place preposition ("to Sydney"), or elsewhere unless it follows meet ("meeting
 * Sydney") or is a common first name (`COMMON_GIVEN_NAME`) that opens a sentence, follows with/and or names a person in
 * WordNet too: many places are given names ("Jordan is coming over", "Georgia loves her dog"), a rare one is the place
 * ("Paris was amazing", "Houston and Dallas"); or a place preposition followed, past a determiner and up to two more
 * words, by a noun WordNet reads as a place ("at the beach", "in the mountains", "to a little restaurant"), or right
 * after it by one of `BARE_PLACES` ("at home", "at work", "in bed"; not after an infinitive's "to": "have to work"). A
 * noun right before "of" is not the place ("in the middle of it"). Without WordNet, nothing is judged a place.
 */
export function namesPlace(text: string, wordnet: WordNet = defaultWordNet()): boolean {
  if (!wordnet.available) return false;
  const words = text.split(/([^\p{L}'-]+)/u);
  // words[even]: a word; words[odd]: what separates it from the next (spaces, punctuation).
  for (let i = 0; i < words.length; i += 2) {
    const w = words[i] ?? '';
    if (/^\p{Lu}\p{Ll}{2,}$/u.test(w) && placeNoun(w, wordnet, true)) {
      const before = words[i - 2] ?? '';
      const after = PLACE_PREPOSITIONS.has(before.toLowerCase()) && /^\s+$/.test(words[i - 1] ?? '');
      const opens = i === 0 || /[.!?]/.test(words[i - 1] ?? '');
      const person = MEETS.test(before) || (givenNamePrevalence(w) >= COMMON_GIVEN_NAME
        && (opens || BEFORE_PERSON.test(before) || wordnet.nounKinds(w, true).some((k) => k.lexFile === 'noun.person')));
      if (after || !person) return true;
    }
    if (!PLACE_PREPOSITIONS.has(w.toLowerCase())) continue;
    const infinitive = w.toLowerCase() === 'to' && BEFORE_INFINITIVE.has((words[i - 2] ?? '').toLowerCase()) && /^\s+$/.test(words[i - 1] ?? '');
    if (!infinitive && BARE_PLACES.has((words[i + 2] ?? '').toLowerCase()) && /^\s+$/.test(words[i + 1] ?? '')) return true;
    let j = i + 2;
    const determined = DETERMINERS.has((words[j] ?? '').toLowerCase());
    if (determined) j += 2;
    for (let n = 0; n < 3 && j < words.length; n++, j += 2) {
      const cand = words[j] ?? '';
      const lower = cand.toLowerCase();
      if (lower.length < 3 || NOT_PLACE.has(lower) || PLACE_PREPOSITIONS.has(lower) || DETERMINERS.has(lower)) break;
      const next = (words[j + 2] ?? '').toLowerCase();
      const ofFollows = next === 'of' && /^\s+$/.test(words[j + 1] ?? '');
      if (!ofFollows && placeNoun(cand, wordnet, false) && (determined || !wordnet.senses(cand).notNoun)) return true;
      // The phrase ends at punctuation: "in the park, then home" reads "park" only.
      if (!/^\s+$/.test(words[j + 1] ?? '')) break;
    }
  }
  return false;
}

/** Words before a name that address its bearer ("Hey Mel", "Thanks Jo"): the name is the one spoken to, not an answer. */
const GREETINGS = /^(?:hey|hi|hello|thanks|thank|dear|bye|congrats|congratulations|wow|oh|yes|yeah|no|ok|okay|sorry|morning|evening|night)$/i;

/**
 * True when `text` names a person: a noun WordNet reads first as a person after a determiner or possessive ("my sister",
 * "a friend", "the kids"), past up to two words WordNet counts in use as adjectives only ("a great teacher"; "a great
 * book", "a natural at it" name none), or a name inside a sentence: a capitalised word WordNet lists as no common word and, if at
 * all, as a person ("with Jolene"), not opening a sentence and not addressed ("Hey Mel", "Thanks, Jo!", "…, Caroline.").
 * Without WordNet, nothing is judged a person.
 */
export function namesPerson(text: string, wordnet: WordNet = defaultWordNet()): boolean {
  if (!wordnet.available) return false;
  const words = text.split(/([^\p{L}'-]+)/u);
  for (let i = 0; i < words.length; i += 2) {
    const w = words[i] ?? '';
    const before = words[i - 1] ?? '';
    if (/^\p{Lu}\p{Ll}{2,}$/u.test(w)) {
      const opens = i === 0 || /[.!?]/.test(before);
      const addressed = before.includes(',') || GREETINGS.test(words[i - 2] ?? '');
      const kinds = opens || addressed || wordnet.senses(w).ordinary ? null : wordnet.nounKinds(w);
      if (kinds && (kinds.length === 0 || kinds.some((k) => k.lexFile === 'noun.person'))) return true;
    } else if (w.length >= 3 && DETERMINERS.has((words[i - 2] ?? '').toLowerCase()) && /^\s+$/.test(before)) {
      let j = i;
      for (let n = 0; n < 2 && wordnet.adjectiveOnlyInUse(words[j] ?? '') && /^\s+$/.test(words[j + 1] ?? ''); n++) j += 2;
      const head = words[j] ?? '';
      if (head.length >= 3 && !wordnet.adjectiveOnlyInUse(head) && wordnet.nounKinds(head).some((k) => k.lexFile === 'noun.person')) return true;
    }
  }
  return false;
}

/**
 * How an item is judged to hold a time for a "When…?" question (`AgenticOptions.timeAnswers`):
 * - `words`: its text names a time chrono reads against a fixed day, or a year (`holdsAnswerType`);
 * - `dated`: its words date what it tells of against when it was said (`namedDate`: "last Tues", "on the 15th", an
 *   act told as just done, "I just got accepted", dated by the day it was said), or name a year: the same dating
 *   the item's `event_time` gets, so the turn that can answer "when" is the one the memory can date;
 * - `dated-facts`: as `dated`, and a fact whose `eventTime` is set holds one too (its date is a field, not in its text).
 */
export type TimeAnswerMode = 'words' | 'dated' | 'dated-facts';

/** The modes `timeAnswers` accepts. */
export const TIME_ANSWER_MODES: readonly TimeAnswerMode[] = ['words', 'dated', 'dated-facts'];

/**
 * True when an item (its text, when it was said, and for a fact its `eventTime`) holds a time as `mode` judges it.
 */
export function holdsTimeAnswer(m: { text: string; time: string; eventTime?: string | null }, mode: TimeAnswerMode): boolean {
  if (mode === 'words') return holdsAnswerType(m.text, 'time');
  if (mode === 'dated-facts' && m.eventTime) return true;
  return YEAR.test(m.text) || namedDate(m.text, m.time) !== null;
}

/**
 * True when the question asks for a person ("Who told Ben…?", "Whom did Ana invite?", "Whose idea
 * was…?", "To whom…", "Which of them…", "Which person…"): its evidence is the turn that says or does
 * the thing (its speaker is the answer), not the reply to it.
 */
export function asksWho(question: string): boolean {
  return /^\s*(?:(?:to|by|from|with|for)\s+)?(?:who|whom|whose)\b/i.test(question) ||
    /^\s*which\s+(?:of\s+(?:them|you|us|the\s+\w+)|(?:\w+\s+)?(?:person|people|one|member|participant|speaker))\b/i.test(question);
}

