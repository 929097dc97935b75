/**
 * A team's decision, plan or task owner replaced by a later one about the same thing, whoever says it and in whichever
 * meeting (trial10 F1, F2): "we're targeting March 14 for the launch" by "we need to move the launch to April 4", "let's
 * cut the marketing budget by 20 percent" by "we shouldn't cut marketing at all", "we'll use Postgres for analytics" by
 * "we'll use ClickHouse for analytics instead", "Ben will handle the vendor contract" by "Dana is handling the vendor
 * contract now". The topic is keyed by the nouns both name (launch, analytics, marketing, vendor contract), not by the
 * speaker or the slot; the newer statement must say it changes something, and the two must be near in meaning.
 */
import type { Fact } from '../../graph/memory-store.js';
import { stem } from '../../graph/lexical-terms.js';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { wink } from '../wink.js';
import type { ExtractedFact } from './extractor.js';
import { readPlanObject } from './plan-object.js';
import { MONTH_NAMES } from './months.js';

/**
 * Words of a statement that say it changes what was agreed: "instead", "at all", "no longer", a change of mind,
 * a task taken over, or something moved to another time ("move the launch to April 4", "push the review to Monday").
 * Not "after all" (concessive as often: "new shoes after all these games") nor "bring it back" (a return). A bare "now"
 * only in `OWNER_NOW`: "I'll call the plumber now" does it at once, it changes nothing agreed (review12 F1).
 */
const CHANGE = /\b(?:instead|any ?more|at all|no longer|changed? (?:my|our|their|his|her) minds?|change of plans?|(?:take|takes|taking|took|taken) (?:it |that |this |them )?over|over to|(?:move|moved|moving|push|pushed|pushing|postpone|postponed|reschedule|rescheduled|shift|shifted) (?:[\w'’-]+ ){0,4}(?:to|forward|back)\b|(?:bring|brought) (?:[\w'’-]+ ){0,4}forward\b)/i;

/**
 * A task owner told with "now" after the act: "Dana is handling the vendor contract now" (not "Ana is now running the
 * marathon"), and one who will take it on: "I will handle that now" / "Ben will take care of it now", its "that" the
 * task said before (object-pronouns.ts; F4). "I'll call the plumber now" takes on no task: a bare "now" changes nothing.
 */
const OWNER_NOW = /\b(?:(?:is|are|['’]s|['’]re)\s+(?:handling|doing|owning|covering|managing|leading|in charge of|taking care of|responsible for)|(?:will|['’]ll|can|(?:is|are|am|['’]s|['’]re|['’]m)\s+going\s+to)\s+(?:handle|own|cover|take\s+care\s+of|take\s+on|be\s+in\s+charge\s+of))\b[^.?!]*\bnow\b/i;

/**
 * Nouns too general to key a topic: the action words plans share ("use", "move", "cut", "handle"), time words, and the
 * people in a meeting ("team", "everyone").
 */
const GENERIC = new Set(('use using used need move moving cut cutting handle handling plan plans target targeting way thing things '
  + 'time times day days week weeks month months year years today tomorrow morning afternoon evening night weekend '
  + `monday tuesday wednesday thursday friday saturday sunday ${MONTH_NAMES.join(' ').toLowerCase()} `
  + 'team group everyone everybody people others other lot bit percent per cent mind change changes '
  + 'fine sure okay yeah go going work working take taking make making get getting start end deal part side point '
  + 'instead now all anymore longer will shall can may might must would could should gonna wanna '
  + 'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred thousand half').split(' '));

/** Kinds that hold what a team decided, planned or took on. */
const DECISION_KINDS: ReadonlySet<string> = new Set(['plan', 'commitment', 'request', 'statement']);

/**
 * A statement that tells a decision, a target or who does something, not a report of what happened nor a taste ("Tom
 * likes dairy-free options instead"): a modal of intent, "let's", a target, or an act in hand ("is handling", "is moving").
 */
const DECIDED_CUE = /\b(?:will|['’]ll|going to|plans? to|planning|need to|needs to|should|shouldn['’]t|let['’]s|targeting|target|aiming|decided|is fine|are fine|go(?:ing)? with|in charge of|responsible for|owns?|takes? over|(?:is|are|['’]s|['’]re)\s+(?:now\s+)?(?:handling|doing|running|leading|owning|covering|managing|taking|moving|using|going))\b/i;

/** Tags of words never a topic noun: verbs, and the closed classes (prepositions and particles, determiners, pronouns, conjunctions). */
const CLOSED: ReadonlySet<string> = new Set(['VERB', 'AUX', 'ADP', 'PART', 'DET', 'PRON', 'CCONJ', 'SCONJ']);

/**
 * The topic nouns of `text`, as stems: lower-case words WordNet lists as nouns, or the POS tagger tags as nouns there
 * ("retro", which WordNet lists only as an adjective), other than `people`'s names, numbers, `GENERIC` words, words of
 * a closed class there ("over", `CLOSED`) and words used as verbs there ("book", "call", "run" in "I'll book the
 * flights": review12 F1). A capitalised word is a name ("Ben", "Postgres"): a person, or the value decided, never the topic.
 */
export function topicNouns(text: string, people: readonly string[] = []): Set<string> {
  return new Set(topicWords(text, people).map(stem));
}

/**
 * The words `topicNouns` stems, lower-case, each once, in the order said: what a keyword search for the facts on the
 * same topic asks for (`teamCandidates`, fact-writes.ts).
 */
export function topicWords(text: string, people: readonly string[] = []): string[] {
  const names = new Set(people.flatMap((p) => p.toLowerCase().split(/\s+/)));
  const nlp = wink();
  const tokens = nlp.readDoc(text).tokens();
  const pos = tokens.out(nlp.its.pos) as string[];
  const said = (tokens.out() as string[]).map((w) => w.toLowerCase());
  // A verb there, or a word of a closed class ("over" in "taking over the retro", a noun in WordNet as a cricket term).
  const verbs = new Set(said.filter((_, i) => CLOSED.has(pos[i] ?? '')));
  // WordNet keeps adjectives and adverbs out ("fine", "good", "quickly"); a word the tagger reads as a noun in this
  // sentence is one whether WordNet lists it as one or not ("the retro").
  const tagged = new Set(said.filter((_, i) => pos[i] === 'NOUN'));
  const out = new Set<string>();
  for (const w of text.match(/(?<![\w'’-])[a-z][a-z'’-]+/g) ?? []) {
    const word = w.replace(/['’]s$/, '');
    if (word.length < 3 || /['’]/.test(word) || GENERIC.has(word) || names.has(word) || verbs.has(word)) continue;
    // A word WordNet does not list at all ("analytics", "offsite") is a term of the trade, kept when long enough.
    const senses = defaultWordNet().senses(word);
    const unlisted = !senses.ordinary && !senses.proper && !senses.notNoun && word.length >= 5;
    if (!unlisted && !tagged.has(word) && defaultWordNet().nounKinds(word).length === 0) continue;
    out.add(word);
  }
  return [...out];
}

/**
 * True when `fact` is a decision, plan or task owner (a plan, commitment or request, or a statement told so: `DECIDED_CUE`)
 * that says it changes an earlier one (`CHANGE`), and no report of what was done.
 */
export function changesDecision(fact: Pick<ExtractedFact, 'kind' | 'content' | 'retraction' | 'settles' | 'planObject'>): boolean {
  return DECISION_KINDS.has(fact.kind) && (fact.kind !== 'statement' || DECIDED_CUE.test(fact.content)) && !fact.retraction
    && fact.settles !== 'done' && fact.planObject?.past !== true && !/\?\s*$/.test(fact.content) && (CHANGE.test(fact.content) || OWNER_NOW.test(fact.content));
}

/** True for a current fact that holds a decision, plan, commitment or task owner a later change may replace. */
function holdsDecision(f: Fact): boolean {
  if (!DECISION_KINDS.has(f.kind) || f.validTo !== null || f.planObject?.past === true) return false;
  if (f.slot !== null && !f.slot.startsWith('plan:')) return false;
  return f.kind !== 'statement' || DECIDED_CUE.test(f.content) || Boolean(f.eventTime && f.eventTime.slice(0, 10) >= f.validFrom.slice(0, 10));
}

/** The cosine another person's fact needs (bge-small scored unrelated plans 0.59–0.85, review12 F1), unless it names the same object. */
const OTHER_COSINE = 0.75;

type Said = Pick<Fact, 'content' | 'speakerId' | 'addresseeIds'> & { planObject?: Fact['planObject'] | undefined };

/**
 * A team's fact: a "we" plan ("<X> and the group", "<X> and others", "Ana and Chidi plan…", `planObject.shared`), a task
 * owner told (`OWNER_NOW`, "take over"), or said to two people or more.
 */
function teamFact(f: Said): boolean {
  return f.planObject?.shared === true || f.addresseeIds.length >= 2 || OWNER_NOW.test(f.content)
    || /\band (?:the group|others|the team)\b|\b(?:we|let['’]s)\b|^[A-Z][\w'’-]* and [A-Z]|\btak(?:e|es|ing) over\b/.test(f.content);
}

/**
 * True when a change told about one person may replace `earlier`, about another: both are team facts (`teamFact`; the
 * caller gives only facts of sessions sharing two people or more with this one), and the two are close in meaning
 * (`OTHER_COSINE`) or the earlier names what the change acts on (its object or complement: "move the launch to…").
 * "Ana will move the couch to the bedroom" never closes "Ben will sell the couch on Saturday", said between two.
 */
function othersReplaced(fact: ExtractedFact, earlier: Weighed, people: readonly string[]): boolean {
  if (!teamFact(fact) || !teamFact(earlier.fact)) return false;
  const named = topicNouns(earlier.fact.content, people);
  // A statement carries no plan object ("Dana can take over the vendor contract", trial10 F4): what it acts on is read from its text.
  const acted = fact.planObject ?? readPlanObject(wink(), fact.content);
  return earlier.score >= OTHER_COSINE || [...acted?.objects ?? [], ...acted?.complements ?? []].some((o) => named.has(stem(o)));
}

/**
 * True when the change acts on the thing the earlier plan acts on: an object or complement of the change is an object of
 * the earlier's plan ("Cy is taking over the retro now" / "Ben will run the retro"). Such a change needs no cosine: short
 * task sentences with other verbs score low (USE-lite 0.46–0.50 for these two; teamleft).
 */
function actsOnObject(fact: ExtractedFact, earlier: Fact): boolean {
  const objects = new Set((earlier.planObject?.objects ?? []).map(stem));
  return [...fact.planObject?.objects ?? [], ...fact.planObject?.complements ?? []].some((o) => objects.has(stem(o)));
}

/** What {@link replacedDecision} weighs: a current fact and its cosine similarity to the new one. */
export interface Weighed {
  fact: Fact;
  score: number;
}

/**
 * The earlier decision, plan or task a changing statement (`changesDecision`) replaces: the most similar current one
 * (cosine at least `minCosine`, or any when the change acts on its object: `actsOnObject`) said before it that names a
 * topic noun of it (`topicNouns`), people aside; one about another person only as `othersReplaced` allows. Undefined
 * when none does: an unrelated plan ("update the onboarding docs") is never closed by a change about the launch.
 */
export function replacedDecision(fact: ExtractedFact, candidates: readonly Weighed[], people: readonly string[], minCosine: number): Weighed | undefined {
  if (!changesDecision(fact)) return undefined;
  const topic = topicNouns(fact.content, people);
  if (topic.size === 0) return undefined;
  return candidates.find((c) => (c.score >= minCosine || actsOnObject(fact, c.fact)) && holdsDecision(c.fact) && c.fact.content !== fact.content
    && (c.fact.subjectId === fact.subjectId || othersReplaced(fact, c, people))
    && [...topicNouns(c.fact.content, people)].some((w) => topic.has(w)));
}
