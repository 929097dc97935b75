/**
 * Whether an outcome settles a plan, a decision a proposal, or a cancelling a plan or an order, by the objects
 * `readPlanObject` read from each: the same action on the same thing (or its derivational relative in
 * WordNet), never one that names another person, receiver, direction or thing. The one place a cancellation is matched
 * to what it closes: decide.ts asks it for plans, cancelled-plans.ts (`cancelledOrders`) for orders.
 */
import type { PlanObject } from '../../graph/memory-store.js';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { HABIT } from './plan-cues.js';
import { reschedules } from './changes.js';
import { FRAME_VERBS, type WordRelations } from './plan-tokens.js';

/** Kinds an outcome settles and a cancellation closes, and whose stays a cancellation takes with them. */
export const PLANNED_KINDS: ReadonlySet<string> = new Set(['plan', 'commitment', 'request']);

/** True when `some` names a head noun of `of` ("the sofa" / "ordered a blue sofa"). */
function sharesObject(some: readonly string[], of: readonly string[]): boolean {
  return some.some((w) => of.includes(w));
}

/**
 * True when the thing `cancel` calls off is what `plan` is of (`aboutWords`: its head nouns, else where it goes): "cancel
 * the Lisbon trip" / "planning a trip to Lisbon", "the concert got cancelled" / "going to the concert"; not a plan of a
 * thing of its own that only mentions it ("renew my passport before the Lisbon trip"; rules 98).
 */
export function cancelsPlanItself(cancel: PlanObject, plan: PlanObject): boolean {
  return sharesObject(aboutWords(cancel), aboutWords(plan));
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
 * bank"). "My application to art school" does not name "apply for a loan": art school is not the loan. `byMeaning`: the
 * outcome's noun may also be one WordNet relates to the plan's verb by meaning (`related`: "flight" / "fly"), as a
 * cancellation names the plan (rules 109).
 */
function namesActionByDerivation(outcome: PlanObject, plan: PlanObject, words: WordRelations, byMeaning = false): boolean {
  const planWords = allWords(plan);
  const outcomeWords = allWords(outcome);
  const within = (rest: Iterable<string>, of: Set<string>): boolean => [...rest].every((w) => of.has(w));
  // The outcome's noun names the plan's action; by meaning too where asked ("flight" / "fly", which WordNet derives from "flee").
  const names = (n: string, verb: string): boolean => words.derivedFrom(n, verb) || (byMeaning && words.related?.(n, verb) === true);
  if (plan.verb && !FRAME_VERBS.has(plan.verb)) {
    for (const n of aboutWords(outcome)) {
      if (planWords.has(n) || !names(n, plan.verb)) continue;
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
    // …and the other way round: "I'll send Ben the QA checklist" / "Ana sent it" (trial10 F1: the promise stayed open).
    if (outcome.objects.length === 0 && !outcome.people?.length && outcome.past && outcome.verb && !FRAME_VERBS.has(outcome.verb)
      && /\b(?:it|them)\b/i.test(sentence) && sameAction(outcome, plan, words)) return true;
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

/** Each word's first-sense synonyms by the relations read ({@link sameSense}; review of rules 113 L2: read once a word). */
const SENSES = new WeakMap<WordRelations, Map<string, Set<string>>>();

/**
 * True when the noun `word` and one of `planWords` share a word of their most frequent senses in WordNet ("movie" / "cinema",
 * both "film"; "class" / "course"): a thing called off in other words than the plan's (rules 113). Not WordNet's looser
 * `related`, which ties "party" to "dinner" and "holiday" to "work".
 */
function sameSense(word: string, planWords: ReadonlySet<string>, relations: WordRelations): boolean {
  if (!relations.synonymsOf) return false;
  const known = SENSES.get(relations) ?? new Map<string, Set<string>>();
  SENSES.set(relations, known);
  const senses = (w: string): Set<string> => {
    const had = known.get(w);
    if (had) return had;
    const got = new Set([w, ...relations.synonymsOf!(w, { senses: 1, perWord: 50 })]);
    known.set(w, got);
    return got;
  };
  const own = senses(word);
  return [...planWords].some((p) => p.length > 2 && [...senses(p)].some((w) => own.has(w)));
}

/** Heads that name a time spent at or on a thing, not the thing: "the gym session", "my yoga class", "the pool visit". */
const SPELL_HEADS = new Set(['session', 'workout', 'class', 'lesson', 'visit', 'outing']);

/**
 * What a spell of time names its thing by: "the gym session is cancelled" names "gym", so it calls off "going to the gym"
 * (rules 115); other heads add nothing ("the Lisbon trip" is named by "trip").
 */
function sessionOf(o: PlanObject): string[] {
  return o.objects.length > 0 && o.objects.every((w) => SPELL_HEADS.has(w)) ? o.which ?? [] : [];
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
  const words = [...aboutWords(cancel), ...sessionOf(cancel)];
  // "I won't need a taxi back from the airport" withdraws no "taxi to the airport".
  if (texts && otherWay(cancel, plan, texts.cancel, texts.plan)) return false;
  // "I dropped the French course" withdraws no "evening course in Spanish": another one of the same thing. A plan that is
  // itself to cancel is done by the same act, which may name its thing more loosely ("the paper delivery" / "the newspaper delivery").
  if (otherPeople(cancel, plan) || (otherOne(cancel, plan) && cancel.verb !== plan.verb)) return false;
  const planWords = new Set([...plan.objects, ...plan.complements]);
  const namesPlan = words.some((w) => planWords.has(w) || w === plan.verb)
    // "The flight to Berlin was cancelled" names "flying to Berlin" by meaning (rules 109).
    || (cancel.verb !== null && CANCEL_VERBS.has(cancel.verb) && namesActionByDerivation({ ...cancel, verb: null }, plan, relations, true))
    // "The movie got cancelled" names "going to the cinema" by a sense they share (rules 113).
    || ((cancel.verb === null || CANCEL_VERBS.has(cancel.verb)) && words.some((w) => sameSense(w, planWords, relations)));
  if (cancel.verb === null || CANCEL_VERBS.has(cancel.verb)) return words.length === 0 ? null : namesPlan;
  if (cancel.verb === plan.verb) return words.length === 0 || aboutWords(plan).length === 0 || namesPlan;
  // "Don't send the lemons" withdraws no "call you back about the lemons": another action that names an object of its own
  // names the plan only by the plan's object ("not going to the airport" still names "leave for the airport" by its place).
  if (cancel.objects.length > 0 && plan.verb !== null) return sharesObject(cancel.objects, plan.objects);
  return words.length === 0 ? null : namesPlan;
}

/** Verbs that tell a thing ordered, booked or bought: what a cancellation may close as an order. */
const ORDERED = new Set(['order', 'buy', 'book', 'purchase', 'reserve']);
/** Words that name the order itself, not the thing ordered. */
const ORDER_WORDS = new Set(['order', 'booking', 'reservation', 'purchase', 'subscription']);
/** A number an order goes by: "order 5520", "order number 7781", "booking ref 4410", "order #5520". */
const ORDER_NUMBER = /\b(?:order|booking|reservation|ref(?:erence)?|purchase)(?:\s+(?:number|no\.?|ref(?:erence)?))?\s*#?\s*(\d{3,})\b/gi;

function orderNumbers(text: string): Set<string> {
  return new Set([...text.matchAll(ORDER_NUMBER)].map((m) => m[1]!));
}

/**
 * Whether a cancellation closes an order (trial 8): `order` tells a thing ordered, booked or bought (`past`), and the
 * cancellation names it by the number it goes by ("I want to cancel order 5520", `texts`) or by the thing ordered ("please
 * cancel the garden chairs"; "the order" names no thing). `cancel` is the cancellation's object, when it has one.
 */
export function cancelsOrder(cancel: PlanObject | undefined, order: PlanObject, texts: { cancel: string; plan: string }): boolean {
  if (!order.past || !ORDERED.has(order.verb ?? '')) return false;
  const numbers = orderNumbers(texts.cancel);
  if ([...orderNumbers(texts.plan)].some((n) => numbers.has(n))) return true;
  return sharesObject((cancel?.objects ?? []).filter((o) => !ORDER_WORDS.has(o)), order.objects);
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
