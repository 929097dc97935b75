/**
 * What a plan, commitment, request or proposal is about, and what an outcome says was done: the
 * action's verb and the head nouns of its object, lemmatised, read from wink-nlp POS tags. An
 * outcome then closes the plan whose object it names ("the raised beds are finished" closes "Tom
 * will build the raised beds", not "Tom wants more flowers in the raised-bed garden"), and words the
 * two texts share only in passing (a modifier, a place, a date) close nothing.
 */
import type { PlanObject } from '../../graph/memory-store.js';
import type { Wink } from '../wink.js';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { BUSINESS_NOUNS, EARLIER_MEALS, eveningHead, metForEvening } from './clock-time.js';
import {
  NOT_OBJECTS, PARTICLES, SPELLINGS, TALK_NOUNS, TALK_VERBS, actionVerb, clauses, companions, inPhrase, nounish, phraseHeads,
  readTokens, type Phrase, type Tok, type WordRelations,
} from './plan-tokens.js';

export type { PlanObject } from '../../graph/memory-store.js';
export { OWN, type WordRelations } from './plan-tokens.js';

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

/** Verbs that book a table ("book / get / reserve a table"), and that see a film: the evening's outing, not a thing moved. */
const TABLE_VERBS: ReadonlySet<string> = new Set(['book', 'reserve', 'get', 'have', 'want', 'need']);
const FILM_VERBS: ReadonlySet<string> = new Set(['see', 'watch']);
const BUSINESS_OR_EARLIER: ReadonlySet<string> = new Set<string>([...BUSINESS_NOUNS, ...EARLIER_MEALS]);

/**
 * Whether the booked thing `o` reads is an outing of the evening, by clock-time.ts's one list (`eveningHead`; rules 82, 89:
 * one source for the words and the booked thing): a dinner, drinks, a concert, a party… as its object or where it goes
 * ("going to the party"), a film festival or a date night (the word before the head among its nouns, or in `said`, the
 * booking's words), a table booked, a film seen; not with a thing of business hours or an earlier meal in it ("a meeting
 * about the party", "a table for brunch", "a table tennis match"), nor a table moved ("move the tables"). A meeting only as
 * the thing had: "meeting" read before "Ana for dinner" is the act of meeting her (rules 86), only when `said` meets someone
 * for the evening's outing (clock-time.ts `metForEvening`; rules 94): "meeting Tom about the party" keeps business hours.
 */
export function eveningBooked(o: PlanObject, said = ''): boolean {
  const named = [...o.objects, ...o.complements, ...(o.which ?? []).filter((w) => w !== 'meeting' || !metForEvening(said))];
  if (named.some((w) => BUSINESS_OR_EARLIER.has(w))) return false;
  return [...o.objects, ...o.complements].some((w) => eveningHead(w, o.which ?? [], said))
    || o.objects.some((w) => (w === 'table' && TABLE_VERBS.has(o.verb ?? '')) || (w === 'film' && FILM_VERBS.has(o.verb ?? '')));
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

/**
 * Words before a verb that tell its act as not done: a modal, "to", a negation, a condition or a time still to come, an act
 * nearly done ("I almost quit"; rules 41b). Shared with `changes.ts` (a job ending told as not happened).
 */
export const HEDGES: ReadonlySet<string> = new Set(['will', 'would', 'can', 'could', 'shall', 'should', 'may', 'might', 'must', 'to', 'not', "n't", 'never', 'if', 'when', 'once', 'until', 'before', 'almost', 'nearly']);

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
