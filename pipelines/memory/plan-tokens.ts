/**
 * The words plan-object reading works on: wink-nlp tokens with hyphenated compounds joined and people
 * marked (`readTokens`), the clauses that name an action and where its verb is (`clauses`, `actionVerb`),
 * and the heads, modifiers and people of a noun phrase (`phraseHeads`).
 */
import type { Wink } from '../wink.js';
import type { WordNet } from '../retrieval/wordnet.js';
import { PEOPLE, SERVICE_PEOPLE } from './grammar.js';
import { MONTH_NAMES } from './months.js';

/** Verbs that frame an action rather than name it: "will", "I think", "let's". */
export const FRAME_VERBS = new Set(['be', 'will', 'would', 'can', 'could', 'shall', 'should', 'may', 'might', 'must', 'think',
  'let', 'gon', 'wan', 'guess', 'suppose', 'bet', 'believe', 'reckon']);
/** Verbs that frame the verb after them ("want to build", "keep pursuing", "have to go") and are the action otherwise ("want a bike"). */
const FRAME_BEFORE_VERB = new Set(['have', 'do', 'plan', 'want', 'hope', 'intend', 'try', 'need', 'decide', 'keep', 'like',
  'love', 'wish', 'mean', 'promise', 'ask', 'start', 'begin', 'get', 'go', 'come', 'help']);
/** Verbs that have someone else do the action after them ("get someone to fix the roof"). */
const CAUSATIVE = new Set(['get', 'ask', 'have', 'pay', 'hire', 'find']);
/** Verbs that say an action is over; followed by a verb ("finished writing"), that verb is the action. */
const DONE_VERBS = new Set(['finish', 'complete', 'do', 'wrap', 'stop']);
/** Particles of phrasal verbs ("pick up the cake", "clean out the garage"). */
export const PARTICLES = new Set(['up', 'out', 'off', 'down', 'away', 'back']);
/** Nouns that date or size an action rather than say what it is about. */
export const NOT_OBJECTS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  ...MONTH_NAMES.map((m) => m.toLowerCase()), 'spring', 'summer', 'autumn', 'fall', 'winter', 'day', 'week', 'weekend', 'month', 'year', 'today',
  'tomorrow', 'yesterday', 'tonight', 'morning', 'afternoon', 'evening', 'night', 'time', 'moment', 'hour', 'minute',
  'end', 'while', "i'm", 'im', 'i', 'thing', 'stuff', 'lot', 'bit', 'way', 'one', 'something', 'everything', 'anything', 'nothing']);
/** British and American spellings of one verb, read as one ("enrolled" / "enroll"). */
export const SPELLINGS: Record<string, string> = { enrol: 'enroll', instal: 'install', fulfil: 'fulfill', distil: 'distill', instil: 'instill' };
/** What "have a word / chat / talk with" and "speak / chat to" name: talking to someone. */
export const TALK_NOUNS = new Set(['word', 'chat', 'talk']);
export const TALK_VERBS = new Set(['speak', 'chat']);
/** Nouns that name an action or an outing, not a thing: their modifiers say what it is about ("the bike repair"). */
const ACTION_NOUNS = new Set(['repair', 'trip', 'visit', 'appointment', 'booking', 'reservation', 'lesson']);
/** Endings of nouns that name an action ("renewal", "application", "payment", "delivery", "insurance"). */
const NOMINAL = /(?:al|ion|ment|ery|ance|ence)$/;

/**
 * What plan-object matching asks WordNet (`WordNet`; absent, it relates nothing): derivational
 * relatives of a noun and a verb, and the close hypernym two nouns share.
 */
export type WordRelations = Pick<WordNet, 'derivedForms' | 'derivedFrom' | 'sharedHypernym'> & Partial<Pick<WordNet, 'phrasalSense' | 'baseForms' | 'related' | 'synonymsOf'>>;

/** Who "my own …" names among a phrase's `people`: the speaker, told apart from everyone a plan names ("my son's bike"). */
export const OWN = 'own';

export interface Tok { word: string; pos: string; lemma: string; person?: boolean }

export const nounish = (t: Tok): boolean => t.pos === 'NOUN' || t.pos === 'PROPN';
export const inPhrase = (t: Tok): boolean => ['DET', 'ADJ', 'NOUN', 'PROPN', 'NUM'].includes(t.pos)
  || (t.pos === 'PRON' && /^(?:my|your|our|his|her|their|its)$/i.test(t.word)) || t.word === "'s" || t.word === '’s'
  || t.word === '-';

/**
 * True when the token at `j`, tagged a verb, ends a noun compound: a base form right after a singular noun that names
 * no person, followed by no phrase of its own, and a noun in WordNet ("the kitchen tap").
 */
function compoundNoun(toks: Tok[], j: number, words?: WordRelations): boolean {
  const t = toks[j]!;
  const before = toks[j - 1];
  const after = toks[j + 1];
  if (t.pos !== 'VERB' || !words?.baseForms || t.word.toLowerCase() !== t.lemma || before?.pos !== 'NOUN' || before.person
    || before.word.toLowerCase() !== before.lemma || (after && (inPhrase(after) || after.pos === 'PART'))) return false;
  return words.baseForms(t.lemma, 'noun').includes(t.lemma);
}

/** Heads, modifiers and people of a noun phrase (`phraseHeads`). */
export interface Phrase { heads: string[]; modifiers: string[]; people: string[]; compounds: string[]; next: number }

/**
 * Heads of the noun phrase(s) starting at `i` ("the raised beds next week" -> bed; "milk and eggs" ->
 * milk, egg): the last noun of each run, a run ending at a date or time word, at a determiner or a
 * possessive after a noun ("my cousin | a card"). An owner ("my sister's drill") is no head: it is
 * among the phrase's `people`, with every head that names a person ("my sister"); an owner named
 * ("Tom's parents") is one too. Returns the
 * heads and the index after the phrase.
 */
export function phraseHeads(toks: Tok[], i: number, words?: WordRelations): Phrase {
  const heads: string[] = [];
  const modifiers: string[] = [];
  const people: string[] = [];
  const compounds: string[] = [];
  let j = i;
  for (;;) {
    let head: Tok | null = null;
    const before: string[] = [];
    const owners = new Set<string>();
    let stopped = false;
    let determined = false;
    let named = false;
    // After a determiner or a possessive and before any noun, a verb form is a participle ("the leaking
    // tap") or a noun the tagger read as a verb ("the cake"): part of the phrase, and its head when last.
    // After a noun, a verb, a determiner or a possessive starts a phrase or clause of its own ("the cake
    // my sister likes", "send my cousin | a card"); an owner's "'s" does not ("my sister's drill").
    const member = (t: Tok): boolean => ((t.pos === 'PRON' || t.pos === 'DET') && named ? false : inPhrase(t))
      || (determined && !named && t.pos === 'VERB');
    while (j < toks.length && (member(toks[j]!) || (named && compoundNoun(toks, j, words)))) {
      const t = toks[j]!;
      if (/^['’]s$/.test(t.word)) {
        // "my sister's drill": what follows the owner is the thing, even a word tagged a verb.
        if (head) { owners.add(head.lemma); head = null; }
        determined = true;
        named = false;
        j++;
        continue;
      }
      if (t.pos === 'DET' || t.pos === 'PRON') determined = true;
      // "my own bike": the speaker's, not a son's or a sister's.
      if (t.word.toLowerCase() === 'own' && /^(?:my|our)$/i.test(toks[j - 1]?.word ?? '')) people.push(OWN);
      // "the kitchen tap", "the shower drain": a base form the tagger read as a verb, after a singular thing and with no
      // object of its own, is the compound's last noun when WordNet lists it as one ("the cake my sisters make" stays a clause).
      if (named && compoundNoun(toks, j, words)) t.pos = 'NOUN';
      const nounLike = nounish(t) || t.pos === 'VERB';
      if (nounish(t) || (t.pos === 'VERB' && !/(?:ing|ed)$/i.test(t.word))) named = true;
      // "the evening course", "the weekend class": a date word before a noun of the same run says which one, dates nothing.
      const next = toks[j + 1];
      const modifiesNext = next !== undefined && nounish(next) && !NOT_OBJECTS.has(next.lemma) && !next.person;
      if (nounLike && NOT_OBJECTS.has(t.lemma) && modifiesNext && !stopped && head === null) { j++; continue; }
      // "Tomorrow's meeting", "Friday's concert": a date word's "'s" says which one, as a determiner; no owner (rules 109).
      if (nounLike && NOT_OBJECTS.has(t.lemma) && /^['’]s$/.test(next?.word ?? '') && !stopped && head === null) { determined = true; j += 2; continue; }
      // "the French course", "the Italian class": a capitalised adjective (a language, a nation) says which one.
      if (t.pos === 'ADJ' && /^[A-Z]/.test(t.word) && j > 0 && head === null && !stopped) { before.push(t.word.toLowerCase()); j++; continue; }
      if (nounLike && NOT_OBJECTS.has(t.lemma)) stopped = true;
      else if (nounLike && !stopped) { if (head) before.push(head.lemma); head = t; }
      j++;
    }
    // The owner alone ("at the landlord's"): the head after all.
    if (!head && owners.size > 0) head = { word: '', pos: 'NOUN', lemma: [...owners].pop()!, person: true };
    if (head) heads.push(head.lemma);
    if (head?.person) people.push(head.lemma);
    // "the kitchen tap": the nouns before the head say which one.
    if (head) compounds.push(...before.filter((w) => !owners.has(w)));
    for (const o of owners) if (o !== head?.lemma) people.push(o);
    // "the bike repair", "the camping trip": an action noun is about its modifier too.
    if (head && ACTION_NOUNS.has(head.lemma)) heads.push(...before);
    // "my passport renewal": a noun derived from a verb names an action about its modifiers, kept apart
    // from the heads ("the kitchen delivery" is no plan about the kitchen); an owner ("Lena's delivery") is none.
    else if (head && words && before.length > 0 && NOMINAL.test(head.lemma) && words.derivedForms(head.lemma, 'noun').length > 0) {
      modifiers.push(...before.filter((w) => !owners.has(w)));
    }
    // "milk and eggs": another conjunct of the same phrase.
    if (j + 1 < toks.length && toks[j]!.pos === 'CCONJ' && inPhrase(toks[j + 1]!)) { j++; continue; }
    return { heads, modifiers, people, compounds, next: j };
  }
}

/**
 * Tokens as plan-object matching reads them: a hyphenated compound one word ("thank-you card",
 * "sister-in-law"), a modifier when a noun follows; a plural owner's apostrophe an owner's "'s" ("the
 * kids' bedroom"); people marked (`PEOPLE` nouns: "my sister", "Grandma"); an irregular past read as a noun a verb.
 */
export function readTokens(nlp: Wink, sentence: string, relations?: WordRelations): Tok[] {
  const tokens = nlp.readDoc(sentence).tokens();
  const words = tokens.out();
  const pos = tokens.out(nlp.its.pos);
  const lemmas = tokens.out(nlp.its.lemma as unknown as typeof nlp.its.value);
  const spaces = tokens.out(nlp.its.precedingSpaces);
  const toks: Tok[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const last = toks[toks.length - 1];
    // "thank - you", "sister - in - law" written with no spaces: one word.
    if (last && word === '-' && spaces[i] === '' && spaces[i + 1] === '' && i + 1 < words.length && /^\w/.test(words[i + 1]!)) {
      const next = words[i + 1]!;
      last.word = `${last.word}-${next}`;
      last.lemma = `${last.lemma}-${(lemmas[i + 1] ?? next).toLowerCase()}`;
      last.pos = 'NOUN';
      i++;
      continue;
    }
    if (last && /^['’]$/.test(word) && spaces[i] === '' && nounish(last) && /s$/i.test(last.word)) {
      toks.push({ word: "'s", pos: 'PART', lemma: "'s" });
      continue;
    }
    // "my aunt's" read as one word: the owner and its "'s", as when written apart.
    const owner = /^([A-Za-z]+)['’]s$/.exec(word);
    if (owner && ['NOUN', 'PROPN'].includes(pos[i] ?? '')) {
      toks.push({ word: owner[1]!, pos: 'NOUN', lemma: owner[1]!.toLowerCase() }, { word: "'s", pos: 'PART', lemma: "'s" });
      continue;
    }
    toks.push({ word, pos: pos[i] ?? '', lemma: (lemmas[i] ?? word).toLowerCase() });
  }
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    // A compound before a noun (also one the tagger read as a verb) modifies it: "a thank-you card".
    if (t.word.includes('-') && t.pos === 'NOUN' && ['NOUN', 'PROPN', 'VERB'].includes(toks[i + 1]?.pos ?? '')) t.pos = 'ADJ';
    if (nounish(t) && (PEOPLE.has(t.lemma) || SERVICE_PEOPLE.has(t.lemma))) t.person = true;
    // "We redid the bathroom", "my parents redid the patio": an irregular past (WordNet's exceptions) the tagger read as a
    // noun after a subject pronoun, or between people and the determiner of an object.
    const w = t.word.toLowerCase();
    const prev = toks[i - 1];
    const afterSubject = /^(?:i|we|you|he|she|they)$/i.test(prev?.word ?? '')
      || (prev?.person === true && /^(?:the|a|an|my|our|your|his|her|their)$/i.test(toks[i + 1]?.word ?? ''));
    // "I did my tax return": "did" before an object is the verb, not an auxiliary.
    // "I had a chat with my manager": "had" before an object too.
    if (t.pos === 'AUX' && ((t.lemma === 'do' && w !== 'do') || (t.lemma === 'have' && w === 'had'))
      && /^(?:the|a|an|my|our|your|his|her|their|some|all)$/i.test(toks[i + 1]?.word ?? '')) {
      t.pos = 'VERB';
    }
    // "We have date night on Friday", "we have quiz night": a base form the tagger read as a verb after "have", before
    // "night", "evening" or "day", names the event had, as "a date night" does (rules 106).
    if (t.pos === 'VERB' && w === t.lemma && prev?.lemma === 'have' && /^(?:night|evening|day)$/i.test(toks[i + 1]?.word ?? '')) t.pos = 'NOUN';
    // "I'll forward it", "let's do the team lunch": a base form after a modal, "to" or "let's", before an object, is the
    // verb the tagger read as an adverb, a noun or an auxiliary.
    const afterModal = prev !== undefined && (prev.pos === 'AUX' && /^(?:will|would|shall|should|must|can|could|may|might)$/.test(prev.lemma)
      || (prev.pos === 'PART' && prev.word.toLowerCase() === 'to') || /^['’]s$/.test(prev.word) && /^let$/i.test(toks[i - 2]?.word ?? ''));
    if (afterModal && ['ADV', 'NOUN', 'ADJ', 'AUX'].includes(t.pos) && w === t.lemma && relations?.baseForms
      && /^(?:the|a|an|my|our|your|his|her|their|some|it|them|him)$/i.test(toks[i + 1]?.word ?? '')
      && relations.baseForms(w, 'verb').includes(w)) {
      t.pos = 'VERB';
    }
    if (t.pos === 'NOUN' && afterSubject && !/(?:s|ed|ing)$/.test(w) && relations?.baseForms) {
      const base = relations.baseForms(w, 'verb').find((b) => b !== w);
      if (base) { t.pos = 'VERB'; t.lemma = base; }
    }
  }
  return toks;
}

/** People named with the speaker as the subject ("my nephew and I", "Mum and I"), lower-case. */
export function companions(subject: Tok[]): string[] {
  const and = subject.findIndex((t, k) => /^(?:and|&)$/i.test(t.word) && /^(?:i|me)$/i.test(subject[k + 1]?.word ?? ''));
  return and < 0 ? [] : subject.slice(0, and).filter((t) => t.person).map((t) => t.lemma);
}

/** The first clause (split at , ; : and sentence ends) that names an action, else the first one. */
export function clauses(toks: Tok[]): Tok[][] {
  const out: Tok[][] = [[]];
  for (const t of toks) {
    if (t.pos === 'PUNCT' && /^(?:[,;:.!?]+|[—–]|--)$/.test(t.word)) { if (out[out.length - 1]!.length > 0) out.push([]); continue; }
    out[out.length - 1]!.push(t);
  }
  return out.filter((c) => c.length > 0);
}

/** Where the action's verb is in a clause, and whether a done-verb named it ("finished writing"). */
export function actionVerb(c: Tok[]): { at: number; named: boolean } | null {
  for (let i = 0; i < c.length; i++) {
    const t = c[i]!;
    if (t.pos !== 'VERB') continue;
    const after = c[i + 1];
    if (FRAME_VERBS.has(t.lemma)) continue;
    // "going to clean", "want to build", "keep pursuing": the next verb is the action; "went with green" is one.
    // "decided not to lend": past the negation too.
    const k = /^(?:not|never)$/i.test(after?.word ?? '') ? i + 2 : i + 1;
    const next = c[k]?.word.toLowerCase() === 'to' ? c[k + 1] : c[k]?.pos === 'ADV' ? c[k + 1] : c[k];
    if (FRAME_BEFORE_VERB.has(t.lemma) && next?.pos === 'VERB' && !DONE_VERBS.has(t.lemma)) continue;
    // "get someone to fix the roof", "ask somebody to look at it": the action is the one someone is got to do.
    if (CAUSATIVE.has(t.lemma) && /^(?:someone|somebody|anyone|anybody)$/i.test(after?.word ?? '')
      && c[i + 2]?.word.toLowerCase() === 'to' && c[i + 3]?.pos === 'VERB') return { at: i + 3, named: false };
    if (DONE_VERBS.has(t.lemma) && after?.pos === 'VERB') return { at: i + 1, named: true };
    return { at: i, named: false };
  }
  return null;
}
