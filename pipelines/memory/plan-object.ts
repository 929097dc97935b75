/**
 * What a plan, commitment, request or proposal is about, and what an outcome says was done: the
 * action's verb and the head nouns of its object, lemmatised, read from wink-nlp POS tags. An
 * outcome then closes the plan whose object it names ("the raised beds are finished" closes "Tom
 * will build the raised beds", not "Tom wants more flowers in the raised-bed garden"), and words the
 * two texts share only in passing (a modifier, a place, a date) close nothing.
 */
import type { PlanObject } from '../../graph/memory-store.js';
import type { Wink } from '../wink.js';
import { defaultWordNet, type WordNet } from '../retrieval/wordnet.js';
import { HABIT } from './plan-cues.js';
import { reschedules } from './changes.js';
import { PEOPLE, SERVICE_PEOPLE } from './grammar.js';

export type { PlanObject } from '../../graph/memory-store.js';

/** Verbs that frame an action rather than name it: "will", "I think", "let's". */
const FRAME_VERBS = new Set(['be', 'will', 'would', 'can', 'could', 'shall', 'should', 'may', 'might', 'must', 'think',
  'let', 'gon', 'wan', 'guess', 'suppose', 'bet', 'believe', 'reckon']);
/** Verbs that frame the verb after them ("want to build", "keep pursuing", "have to go") and are the action otherwise ("want a bike"). */
const FRAME_BEFORE_VERB = new Set(['have', 'do', 'plan', 'want', 'hope', 'intend', 'try', 'need', 'decide', 'keep', 'like',
  'love', 'wish', 'mean', 'promise', 'ask', 'start', 'begin', 'get', 'go', 'come', 'help']);
/** Verbs that have someone else do the action after them ("get someone to fix the roof"). */
const CAUSATIVE = new Set(['get', 'ask', 'have', 'pay', 'hire', 'find']);
/** Verbs that say an action is over; followed by a verb ("finished writing"), that verb is the action. */
const DONE_VERBS = new Set(['finish', 'complete', 'do', 'wrap', 'stop']);
/** Particles of phrasal verbs ("pick up the cake", "clean out the garage"). */
const PARTICLES = new Set(['up', 'out', 'off', 'down', 'away', 'back']);
/** Nouns that date or size an action rather than say what it is about. */
const NOT_OBJECTS = new Set(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november',
  'december', 'spring', 'summer', 'autumn', 'fall', 'winter', 'day', 'week', 'weekend', 'month', 'year', 'today',
  'tomorrow', 'yesterday', 'tonight', 'morning', 'afternoon', 'evening', 'night', 'time', 'moment', 'hour', 'minute',
  'end', 'while', "i'm", 'im', 'i', 'thing', 'stuff', 'lot', 'bit', 'way', 'one', 'something', 'everything', 'anything', 'nothing']);
/** British and American spellings of one verb, read as one ("enrolled" / "enroll"). */
const SPELLINGS: Record<string, string> = { enrol: 'enroll', instal: 'install', fulfil: 'fulfill', distil: 'distill', instil: 'instill' };
/** What "have a word / chat / talk with" and "speak / chat to" name: talking to someone. */
const TALK_NOUNS = new Set(['word', 'chat', 'talk']);
const TALK_VERBS = new Set(['speak', 'chat']);
/** Nouns that name an action or an outing, not a thing: their modifiers say what it is about ("the bike repair"). */
const ACTION_NOUNS = new Set(['repair', 'trip', 'visit', 'appointment', 'booking', 'reservation', 'lesson']);
/** Endings of nouns that name an action ("renewal", "application", "payment", "delivery", "insurance"). */
const NOMINAL = /(?:al|ion|ment|ery|ance|ence)$/;

/**
 * What plan-object matching asks WordNet (`WordNet`; absent, it relates nothing): derivational
 * relatives of a noun and a verb, and the close hypernym two nouns share.
 */
export type WordRelations = Pick<WordNet, 'derivedForms' | 'derivedFrom' | 'sharedHypernym'> & Partial<Pick<WordNet, 'phrasalSense' | 'baseForms'>>;

/** Who "my own …" names among a phrase's `people`: the speaker, told apart from everyone a plan names ("my son's bike"). */
export const OWN = 'own';

interface Tok { word: string; pos: string; lemma: string; person?: boolean }

const nounish = (t: Tok): boolean => t.pos === 'NOUN' || t.pos === 'PROPN';
const inPhrase = (t: Tok): boolean => ['DET', 'ADJ', 'NOUN', 'PROPN', 'NUM'].includes(t.pos)
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
interface Phrase { heads: string[]; modifiers: string[]; people: string[]; compounds: string[]; next: number }

/**
 * Heads of the noun phrase(s) starting at `i` ("the raised beds next week" -> bed; "milk and eggs" ->
 * milk, egg): the last noun of each run, a run ending at a date or time word, at a determiner or a
 * possessive after a noun ("my cousin | a card"). An owner ("my sister's drill") is no head: it is
 * among the phrase's `people`, with every head that names a person ("my sister"); an owner named
 * ("Tom's parents") is one too. Returns the
 * heads and the index after the phrase.
 */
function phraseHeads(toks: Tok[], i: number, words?: WordRelations): Phrase {
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
function readTokens(nlp: Wink, sentence: string, relations?: WordRelations): Tok[] {
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
function companions(subject: Tok[]): string[] {
  const and = subject.findIndex((t, k) => /^(?:and|&)$/i.test(t.word) && /^(?:i|me)$/i.test(subject[k + 1]?.word ?? ''));
  return and < 0 ? [] : subject.slice(0, and).filter((t) => t.person).map((t) => t.lemma);
}

/** The first clause (split at , ; : and sentence ends) that names an action, else the first one. */
function clauses(toks: Tok[]): Tok[][] {
  const out: Tok[][] = [[]];
  for (const t of toks) {
    if (t.pos === 'PUNCT' && /^(?:[,;:.!?]+|[—–]|--)$/.test(t.word)) { if (out[out.length - 1]!.length > 0) out.push([]); continue; }
    out[out.length - 1]!.push(t);
  }
  return out.filter((c) => c.length > 0);
}

/** Where the action's verb is in a clause, and whether a done-verb named it ("finished writing"). */
function actionVerb(c: Tok[]): { at: number; named: boolean } | null {
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

/**
 * What a sentence's action is about, or null when the sentence has no words to read. A passive or
 * copular outcome ("the raised beds are finished") is about its subject; a clause with no action verb
 * ("a rain barrel system would be cheaper") is about its noun phrases.
 */
export function readPlanObject(nlp: Wink, sentence: string, relations: WordRelations = defaultWordNet()): PlanObject | null {
  const toks = readTokens(nlp, sentence, relations);
  const all = clauses(toks);
  if (all.length === 0) return null;
  const found = all.map((c) => ({ c, verb: actionVerb(c) })).find((x) => x.verb !== null);
  const clause = found?.c ?? all[0]!;
  const verb = found?.verb ?? null;
  const objects: string[] = [];
  const complements: string[] = [];
  const replaces: string[] = [];
  const modifiers: string[] = [];
  const people: string[] = [];
  const qualifiers: string[] = [];
  const heads = (at: Tok[], start: number): Phrase => {
    const p = phraseHeads(at, start, relations);
    modifiers.push(...p.modifiers);
    people.push(...p.people);
    return p;
  };
  let i = 0;
  let lemma = verb ? clause[verb.at]!.lemma : null;
  let particle: string | null = null;
  if (verb) {
    const v = clause[verb.at]!;
    // "My nephew and I went…": who the speaker did it with.
    people.push(...companions(clause.slice(0, verb.at)));
    // Passive or copular ("the beds are finished", "the printer was installed"): the subject is the object.
    const before = clause.slice(0, verb.at).filter((t) => t.pos !== 'ADV');
    // "The haircut got moved": "get" as the passive's auxiliary, tagged a verb or not.
    const aux = before[before.length - 1];
    if (aux && (aux.pos === 'AUX' || (aux.pos === 'VERB' && aux.lemma === 'get')) && /^(?:be|get)$/.test(aux.lemma)) {
      const start = before.findIndex((t) => inPhrase(t) && !(t.pos === 'PRON'));
      if (start >= 0) {
        const subject = heads(before, start);
        objects.push(...subject.heads);
        // "The pottery class has been moved": the nouns before the head say which one, as an object's do.
        qualifiers.push(...subject.compounds);
        // "My application to the art school was accepted": the subject's own complements.
        for (let k = subject.next; before[k]?.pos === 'ADP'; ) {
          const p = heads(before, k + 1);
          if (p.heads.length === 0) break;
          complements.push(...p.heads);
          k = p.next;
        }
      }
    }
    i = verb.at + 1;
    const isParticle = (t: Tok | undefined): boolean => t !== undefined && PARTICLES.has(t.word.toLowerCase()) && t.pos !== 'VERB';
    if (isParticle(clause[i])) particle = clause[i++]!.word.toLowerCase();
    // "send you the list", "book you on Friday": a pronoun object names nothing; the phrase after it may.
    while (clause[i]?.pos === 'PRON' && !inPhrase(clause[i]!)) i++;
    let object = heads(clause, i);
    // "write my grandmother a letter", "sent the client the invoice": the first of two objects is who
    // receives the second, as in "a letter to my grandmother". A phrase followed by its verb starts a
    // relative clause instead ("the jigsaw | my aunt gave me").
    if (object.heads.length > 0 && clause[object.next] && inPhrase(clause[object.next]!) && clause[object.next]!.word !== '-') {
      const second = phraseHeads(clause, object.next, relations);
      if (second.heads.length > 0 && !['VERB', 'AUX'].includes(clause[second.next]?.pos ?? '')) {
        heads(clause, object.next);
        complements.push(...object.heads);
        object = second;
      }
    }
    objects.push(...object.heads);
    qualifiers.push(...object.compounds);
    i = object.next;
    // "gave the drill back", "dropped the keys off": the particle after the object.
    if (!particle && isParticle(clause[i])) particle = clause[i]!.word.toLowerCase();
    // "the tap in the kitchen", "the lock on the front door", "the membership of the club": which one, as a compound says it
    // (a known one: "spend the grant on a new tank" says what for).
    // "the evening course in Spanish", "the class in watercolour": a bare noun after "in" says which one too.
    if (object.heads.length > 0 && /^(?:in|on|of)$/i.test(clause[i]?.word ?? '') && clause[i]!.pos === 'ADP'
      && (/^(?:the|my|our|your|his|her|their)$/i.test(clause[i + 1]?.word ?? '')
        || (/^in$/i.test(clause[i]!.word) && nounish(clause[i + 1] ?? { word: '', pos: '', lemma: '' })
          && !NOT_OBJECTS.has(clause[i + 1]!.lemma) && !clause[i + 1]!.person))) {
      const which = phraseHeads(clause, i + 1, relations);
      qualifiers.push(...which.heads, ...which.compounds);
    }
    // "get the car serviced", "have the boiler checked": the participle after the object is the action.
    const done = clause[i];
    if (/^(?:get|have)$/.test(v.lemma) && objects.length > 0 && done?.pos === 'VERB' && done.word.toLowerCase() !== done.lemma
      && /(?:ed|en|t)$/i.test(done.word)) {
      lemma = done.lemma;
      i++;
    }
    if (objects.length === 0 && v.lemma === 'do') return null;
  }
  // Prepositional phrases: complements, and what "instead of" / "rather than" names.
  for (; i < clause.length; i++) {
    const t = clause[i]!;
    const w = t.word.toLowerCase();
    const insteadOf = w === 'instead' && clause[i + 1]?.word.toLowerCase() === 'of';
    const ratherThan = w === 'rather' && clause[i + 1]?.word.toLowerCase() === 'than';
    if (insteadOf || ratherThan) {
      const after = clause[i + 2];
      if (after?.pos === 'VERB') { replaces.push(after.lemma); i += 2; continue; }
      const p = heads(clause, i + 2);
      replaces.push(...p.heads);
      i = p.next - 1;
      continue;
    }
    if (t.pos === 'ADP' || (t.pos === 'SCONJ' && w === 'for') || (!verb && inPhrase(t))) {
      const p = heads(clause, verb || !inPhrase(t) ? i + 1 : i);
      (verb ? complements : objects).push(...p.heads);
      // "My yoga class is on Thursday": with no action, the nouns before a head say which one too.
      if (!verb && inPhrase(t)) qualifiers.push(...p.compounds);
      i = Math.max(i, p.next - 1);
    } else if (verb && t.pos === 'VERB') {
      break;
    }
  }
  // "enrol" and "enroll", "instal" and "install": one verb.
  lemma = lemma && SPELLINGS[lemma] ? SPELLINGS[lemma]! : lemma;
  // "have a word with the headteacher", "had a chat with my manager", "spoke to…": one action, talking to someone.
  if (lemma === 'have' && objects.length === 1 && TALK_NOUNS.has(objects[0]!)) { lemma = 'talk'; objects.length = 0; }
  if (lemma && TALK_VERBS.has(lemma)) lemma = 'talk';
  const out: PlanObject = { verb: lemma, objects: [...new Set(objects)], complements: [...new Set(complements)] };
  if (people.length > 0) out.people = [...new Set(people)];
  if (lemma && particle) out.phrasal = `${lemma}_${particle}`;
  if (verb?.named) out.actionNamed = true;
  if (verb && toldAsDone(clause, verb.at, sentence)) out.past = true;
  if (replaces.length > 0) out.replaces = [...new Set(replaces)];
  if (modifiers.length > 0) out.modifiers = [...new Set(modifiers)];
  if (qualifiers.length > 0) out.which = [...new Set(qualifiers)];
  if (out.verb === null && out.objects.length === 0 && out.complements.length === 0) return null;
  return out;
}

/**
 * What an event told for a day is about ("my dentist appointment is on Tuesday", "the book club meets on Wednesday",
 * "I've got a football match on Saturday"): the plan object, and where its verb takes no object, its subject, so a
 * reschedule or a cancellation that names the event ("book club has been moved to Friday") settles it.
 */
export function readEventObject(nlp: Wink, sentence: string, relations: WordRelations = defaultWordNet()): PlanObject | null {
  const object = readPlanObject(nlp, sentence, relations);
  if (!object?.verb || object.objects.length > 0) return object;
  const found = clauses(readTokens(nlp, sentence, relations)).map((c) => ({ c, verb: actionVerb(c) })).find((x) => x.verb !== null);
  if (!found?.verb) return object;
  const before = found.c.slice(0, found.verb.at);
  const start = before.findIndex((t) => inPhrase(t) && t.pos !== 'PRON');
  if (start < 0) return object;
  const subject = phraseHeads(before, start, relations);
  if (subject.heads.length === 0 || subject.people.length > 0) return object;
  const which = [...(object.which ?? []), ...subject.compounds];
  return { ...object, objects: subject.heads, ...(which.length > 0 ? { which: [...new Set(which)] } : {}) };
}

/**
 * True when the sentence's action is on a thing named for the first time ("bought an electric car", "planted an apple
 * tree", "got some chickens"), not on one both sides know ("fixed the boiler"): told about others, such a thing is theirs.
 */
export function actsOnNewThing(nlp: Wink, sentence: string): boolean {
  const found = clauses(readTokens(nlp, sentence)).map((c) => ({ c, verb: actionVerb(c) })).find((x) => x.verb !== null);
  if (!found?.verb) return false;
  let i = found.verb.at + 1;
  if (PARTICLES.has(found.c[i]?.word.toLowerCase() ?? '')) i++;
  return /^(?:a|an|some|another)$/i.test(found.c[i]?.word ?? '');
}

const HEDGES = new Set(['will', 'would', 'can', 'could', 'shall', 'should', 'may', 'might', 'must', 'to', 'not', "n't", 'never', 'if', 'when', 'once', 'until', 'before']);

/**
 * True when the clause tells its action as done: the verb is a past form or a participle ("picked",
 * "was installed"; "went", "built"), with no modal, "to", negation or condition before it, in no question.
 */
function toldAsDone(clause: Tok[], at: number, sentence: string): boolean {
  const v = clause[at]!;
  const word = v.word.toLowerCase();
  if (/\?\s*$/.test(sentence) || word === v.lemma || /ing$/.test(word) || word === `${v.lemma}s` || word === `${v.lemma}es`
    || (/ies$/.test(word) && v.lemma.endsWith('y'))) return false;
  // "I've got a match on Saturday", "he's got a dentist appointment": possession now, not a past act.
  if (word === 'got' && /^(?:have|has|['’]ve|['’]s)$/i.test(clause[at - 1]?.word ?? '')) return false;
  // "to" hedges as an infinitive ("to pick up"), not as a preposition ("my application to the school was accepted").
  return !clause.slice(0, at).some((t, k) => (t.word.toLowerCase() === 'to' ? clause[k + 1]?.pos === 'VERB'
    : HEDGES.has(t.word.toLowerCase()) || HEDGES.has(t.lemma)));
}

/** What an object stands for: its head nouns, or where it has none ("drive us to the airport"), its complements. */
function aboutWords(o: PlanObject): string[] {
  return o.objects.length > 0 ? o.objects : o.complements;
}

/** True when the verb's object is a pronoun ("email it", "ring her after dinner", "call them back", "have a word with them"). */
function pronounObject(text: string, verb: string): boolean {
  return new RegExp(String.raw`\b(?:${verb.replace(/[^a-z]/gi, '')}\w*|with|to)\s+(?:it|her|him|them)\b`, 'i').test(text);
}

/** A wish, not a plan: one trip to the beach does not settle "wants to go to the beach more". */
const WISH = /\b(?:wants? to|hopes? to|would (?:like|love) to|wish(?:es)? to|dreams? (?:of|about))\b/i;

/** A proposal: an option put forward, not a promise or a wish ("we could…", "maybe we should…", "…would be cheaper"). */
export const PROPOSAL = /\b(?:could|should|might|maybe|perhaps|how about|what about|why don['’]t|would be)\b/i;

/** Every noun a plan object names: object and complement heads, and the modifiers of an action noun. */
function allWords(o: PlanObject): Set<string> {
  return new Set([...o.objects, ...o.complements, ...(o.modifiers ?? [])]);
}

/**
 * True when one text names the other's action by its derivational relative and names nothing the
 * other does not: the outcome's noun for the plan's verb ("my application to the art school was
 * accepted" / "apply to the art school"; "my passport renewal is done" / "renew my passport"), or the
 * plan's noun for the outcome's verb ("I donated to the food bank" / "make a donation to the food
 * bank"). "My application to art school" does not name "apply for a loan": art school is not the loan.
 */
function namesActionByDerivation(outcome: PlanObject, plan: PlanObject, words: WordRelations): boolean {
  const planWords = allWords(plan);
  const outcomeWords = allWords(outcome);
  const within = (rest: Iterable<string>, of: Set<string>): boolean => [...rest].every((w) => of.has(w));
  // The outcome's noun names the plan's action.
  if (plan.verb && !FRAME_VERBS.has(plan.verb)) {
    for (const n of aboutWords(outcome)) {
      if (planWords.has(n) || !words.derivedFrom(n, plan.verb)) continue;
      if (within([...outcomeWords].filter((w) => w !== n), planWords)) return true;
    }
  }
  // The plan's noun names the outcome's action.
  if (outcome.verb && !FRAME_VERBS.has(outcome.verb) && outcome.verb !== plan.verb) {
    for (const n of aboutWords(plan)) {
      if (!words.derivedFrom(n, outcome.verb)) continue;
      if (within(outcomeWords, planWords)) return true;
    }
  }
  return false;
}

/**
 * True when both name the people the action is for or whose the thing is, and none is the same
 * ("return the drill to my brother" / "returned my sister's drill"; `PlanObject.people`).
 */
function otherPeople(a: PlanObject, b: PlanObject): boolean {
  if (!a.people?.length || !b.people?.length) return false;
  return !a.people.some((p) => b.people!.includes(p));
}

/** True when `text` names `word` as whom or where something goes: after "to" ("a letter to the council", "to my grandmother"). */
function sentTo(text: string, word: string): boolean {
  return new RegExp(String.raw`\bto\s+(?:(?:the|a|an|my|our|your|his|her|their)\s+)?(?:[\w'’-]+\s+){0,2}${word}`, 'i').test(text);
}

/** True when `text` names `word` as where something comes from ("a taxi back from the airport"). */
function comesFrom(text: string, word: string): boolean {
  return new RegExp(String.raw`\bfrom\s+(?:(?:the|a|an|my|our|your|his|her|their)\s+)?(?:[\w'’-]+\s+){0,2}${word}`, 'i').test(text);
}

/**
 * True when both name one place, one as where the action goes and the other as where it comes from ("a taxi back from the
 * airport" / "book a taxi to the airport"): the return is not the outbound trip.
 */
function otherWay(outcome: PlanObject, plan: PlanObject, sentence: string, planText: string): boolean {
  const planWords = allWords(plan);
  return [...allWords(outcome)].filter((w) => planWords.has(w)).some((w) => (sentTo(planText, w) && !sentTo(sentence, w) && comesFrom(sentence, w))
    || (comesFrom(planText, w) && !comesFrom(sentence, w) && sentTo(sentence, w)));
}

/**
 * True when the outcome went to a person and the plan to something else it does not name ("wrote a letter to my
 * grandmother" / "write a letter to the council"): the people rule (`otherPeople`) has no person of the plan's to compare.
 */
function otherReceiver(outcome: PlanObject, plan: PlanObject, sentence: string, planText: string): boolean {
  if (!outcome.people?.length || plan.people?.length) return false;
  const named = allWords(outcome);
  return outcome.people.some((p) => sentTo(sentence, p))
    && plan.complements.some((c) => sentTo(planText, c)) && !plan.complements.some((c) => named.has(c));
}

/**
 * True when both say which of a thing they name and none is the same ("fixed the tap in the bathroom" / "fix the
 * kitchen tap"; `PlanObject.which`); a side that does not say ("fixed the tap") may be either.
 */
function otherOne(outcome: PlanObject, plan: PlanObject): boolean {
  if (!outcome.which?.length || !plan.which?.length) return false;
  const planWords = new Set([...allWords(plan), ...plan.which]);
  const outcomeWords = new Set([...allWords(outcome), ...outcome.which]);
  return !outcome.which.some((w) => planWords.has(w)) && !plan.which.some((w) => outcomeWords.has(w));
}

/**
 * True when the outcome's action is the plan's: the same verb, or a phrasal verb that WordNet lists
 * with the other's verb ("gave the drill back" / "return the drill": `give_back` is a sense of `return`).
 */
function sameAction(outcome: PlanObject, plan: PlanObject, words: WordRelations): boolean {
  if (outcome.verb === plan.verb) return true;
  if (!words.phrasalSense || !outcome.verb || !plan.verb) return false;
  return (outcome.phrasal !== undefined && words.phrasalSense(outcome.phrasal, plan.verb))
    || (plan.phrasal !== undefined && words.phrasalSense(plan.phrasal, outcome.verb));
}

/** Verbs of taking someone along ("take my nephew to the zoo"), and of going there together ("my nephew and I went"). */
const ACCOMPANY = new Set(['take', 'bring']);
const GO = new Set(['go', 'come']);

/**
 * True when the outcome says the speaker went with the person the plan takes along, to a place the plan names ("my
 * nephew and I went to the zoo" / "take my nephew to the zoo").
 */
function wentTogether(outcome: PlanObject, plan: PlanObject): boolean {
  if (!outcome.verb || !plan.verb || !GO.has(outcome.verb) || !ACCOMPANY.has(plan.verb)) return false;
  return plan.objects.some((o) => outcome.people?.includes(o)) && outcome.complements.some((c) => plan.complements.includes(c));
}

/** Verbs whose object is what was chosen ("decided on", "settled on", "opted for", "went with", "chose", "picked"). */
const CHOICE_VERBS = new Set(['decide', 'settle', 'opt', 'go', 'choose', 'pick']);

/**
 * True when a decision names a close kin of what the proposal is about ("we decided on a dog" /
 * "maybe we should get a cat": both carnivores; "sushi" / "pizza": both dishes) and nothing else the
 * proposal does not name ("sushi for the party" / "pizza for the party"; not "the train to Paris" /
 * "the ferry to the island"). The decision's verb must be a choice's or the proposal's own ("we
 * decided to hang new curtains" does not choose them over "buy a bigger table").
 */
function choosesKin(decision: PlanObject, proposal: PlanObject, words: WordRelations): boolean {
  // "We decided to hang new curtains" acts on its own; "we decided on curtains" chooses them.
  if (!decision.verb || !(CHOICE_VERBS.has(decision.verb) || decision.verb === proposal.verb)) return false;
  const planWords = allWords(proposal);
  const chosen = [...decision.objects, ...decision.complements];
  for (const w of chosen) {
    if (planWords.has(w)) continue;
    if (!aboutWords(proposal).some((p) => words.sharedHypernym(w, p) !== null)) continue;
    if ([...allWords(decision)].every((x) => x === w || planWords.has(x))) return true;
  }
  return false;
}

/**
 * Whether an outcome, an alternative ("instead") or a decision settles a plan, by what each is about:
 * - done: the outcome names the plan's object ("the raised beds are finished" / "build the raised
 *   beds"); when it names which action was done ("finished writing the book"), that must be the
 *   plan's action too ("publish a book" is not done by writing one); an action told as done with no
 *   done-word ("Lena picked up the cake": `past` and `actionNamed`) settles a plan, commitment or
 *   request, not a wish ("wants to go to the beach more"); or it names the plan's action by a
 *   derivational relative (`namesActionByDerivation`: "my application was accepted" / "apply to the
 *   art school");
 * - instead / decided: the alternative names an action, not a habit; "instead of X" names the plan
 *   (X among its object, complements or verb); without it, the alternative shares the plan's verb or
 *   a head noun of its object or complements ("bring a salad to the potluck instead" / "make lasagne
 *   for the potluck"), or names its action by a derivational relative; a decision without "instead"
 *   settles only a proposal (`PROPOSAL`) whose object (or, with none, complement) it names, or a close
 *   kin of it (`choosesKin`: "we decided on a dog" / "maybe we should get a cat"; a choice only, never
 *   a plain outcome: "my neighbour got a dog" settles nothing);
 * - cancelled: read by `cancelsByObject`.
 * `sentence` is the outcome's text (for the habit test), `planText` the plan's; `words` relates
 * words by WordNet (default: the process's; without WordNet, no relation beyond the same word).
 */
export function settlesByObject(how: 'done' | 'instead' | 'decided', outcome: PlanObject, plan: PlanObject, sentence: string, planText: string,
  words: WordRelations = defaultWordNet()): boolean {
  const planWords = new Set([...plan.objects, ...plan.complements]);
  if (how === 'done') {
    if (outcome.actionNamed && outcome.past && WISH.test(planText)) return false;
    if (otherPeople(outcome, plan) || otherReceiver(outcome, plan, sentence, planText) || otherOne(outcome, plan)
      || otherWay(outcome, plan, sentence, planText)) return false;
    if (namesActionByDerivation(outcome, plan, words) || wentTogether(outcome, plan)) return true;
    if (outcome.actionNamed && plan.verb && !sameAction(outcome, plan, words)) return false;
    // "I'll email it to you" / "I've just emailed you the invoice", "I'll ring her" / "I rang your mum": a plan that names
    // its thing or person only by a pronoun is done by the same action told as done, whatever it then names.
    if (plan.objects.length === 0 && !plan.people?.length && outcome.past && plan.verb && !FRAME_VERBS.has(plan.verb)
      && pronounObject(planText, plan.verb) && sameAction(outcome, plan, words)) return true;
    const named = new Set(aboutWords(plan));
    return aboutWords(outcome).some((w) => named.has(w));
  }
  if (!outcome.verb || HABIT.test(sentence)) return false;
  // "The pottery class has been moved to Tuesday" moves no yoga class: a reschedule moves the same one.
  if (reschedules(sentence) && otherOne(outcome, plan)) return false;
  if (outcome.replaces && outcome.replaces.length > 0) {
    return outcome.replaces.some((w) => planWords.has(w) || w === plan.verb);
  }
  const shared = [...outcome.objects, ...outcome.complements].some((w) => planWords.has(w));
  // A decision chooses what the proposal acts on ("hold the reunion at…" / "could hold the reunion…"), not
  // only where or for what ("plant tomatoes in the garden" / "could get a fence for the garden").
  const proposed = new Set(aboutWords(plan));
  if (how === 'decided') {
    return PROPOSAL.test(planText) && ([...outcome.objects, ...outcome.complements].some((w) => proposed.has(w))
      || namesActionByDerivation(outcome, plan, words) || choosesKin(outcome, plan, words));
  }
  return shared || (outcome.verb === plan.verb && !FRAME_VERBS.has(outcome.verb) && outcome.verb !== 'go')
    || namesActionByDerivation(outcome, plan, words);
}

/** Verbs that cancel what they name ("called off the picnic", "cancelled the dentist", "can't make it to Leeds", "pulled out of the race"). */
const CANCEL_VERBS = new Set(['cancel', 'call', 'drop', 'skip', 'scrap', 'forget', 'decide', 'make', 'pull', 'back']);

/**
 * Whether a cancellation withdraws a plan, by what each is about, or null when the cancellation names
 * nothing to match ("sorry, I have to cancel"): the caller then keeps the shared-word rule.
 * - A cancelling verb ("called off the picnic", "decided against the surprise party", "can't make it
 *   to Leeds") names the plan by its object, or with none its complement: that word must be the plan's
 *   verb or among its object or complement heads ("cancelled the cooking class at the restaurant" does
 *   not cancel "book a table at the restaurant").
 * - Otherwise the cancellation names the action itself ("won't be driving us", "not going to sell the
 *   bike"): the same verb cancels the plan unless both name objects and they differ ("bake the cake" /
 *   "bake bread"); another verb cancels it only by naming its object.
 * - A name of the plan's action by its derivational relative counts as naming it ("Lena cancelled her
 *   application" / "apply for the teaching job"), when the cancellation names nothing else the plan
 *   does not (`namesActionByDerivation`).
 * - A place the cancellation comes from that the plan goes to, or the other way round (`texts`), is another trip.
 */
export function cancelsByObject(cancel: PlanObject, plan: PlanObject, relations: WordRelations = defaultWordNet(),
  texts?: { cancel: string; plan: string }): boolean | null {
  const words = aboutWords(cancel);
  // "I won't need a taxi back from the airport" withdraws no "taxi to the airport".
  if (texts && otherWay(cancel, plan, texts.cancel, texts.plan)) return false;
  // "I dropped the French course" withdraws no "evening course in Spanish": another one of the same thing. A plan that is
  // itself to cancel is done by the same act, which may name its thing more loosely ("the paper delivery" / "the newspaper delivery").
  if (otherPeople(cancel, plan) || (otherOne(cancel, plan) && cancel.verb !== plan.verb)) return false;
  const planWords = new Set([...plan.objects, ...plan.complements]);
  const namesPlan = words.some((w) => planWords.has(w) || w === plan.verb)
    || (cancel.verb !== null && CANCEL_VERBS.has(cancel.verb) && namesActionByDerivation({ ...cancel, verb: null }, plan, relations));
  if (cancel.verb === null || CANCEL_VERBS.has(cancel.verb)) return words.length === 0 ? null : namesPlan;
  if (cancel.verb === plan.verb) return words.length === 0 || aboutWords(plan).length === 0 || namesPlan;
  // "Don't send the lemons" withdraws no "call you back about the lemons": another action that names an object of its own
  // names the plan only by the plan's object ("not going to the airport" still names "leave for the airport" by its place).
  if (cancel.objects.length > 0 && plan.verb !== null) return cancel.objects.some((w) => plan.objects.includes(w));
  return words.length === 0 ? null : namesPlan;
}

/** Verbs whose plan is itself to end something ("cancel the newspaper delivery", "call off the party", "stop the subscription"). */
const ENDING_VERBS = new Set(['cancel', 'call', 'drop', 'scrap', 'stop', 'quit', 'end', 'terminate']);

/**
 * True when a cancellation is the plan done, not withdrawn: the plan is to cancel something and the cancellation tells the
 * same act as done ("I cancelled the paper delivery" / "I need to cancel the newspaper delivery"). "I won't be cancelling
 * it" (not done) and "I cancelled the table" for "book a table" withdraw the plan.
 */
export function cancelIsPlanDone(cancel: PlanObject, plan: PlanObject): boolean {
  return cancel.past === true && plan.verb !== null && ENDING_VERBS.has(plan.verb) && cancel.verb === plan.verb
    && (cancel.phrasal ?? null) === (plan.phrasal ?? null);
}
