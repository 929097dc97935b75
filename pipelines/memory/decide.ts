import type { Fact, PlanObject } from '../../graph/memory-store.js';
import { STOPWORDS, terms } from '../../graph/lexical-terms.js';
import { eventNoun, isIntention } from './changes.js';
import { habitOrMaxim } from './plan-cues.js';
import { PLANNED_KINDS as SETTLEABLE, PROPOSAL, cancelIsPlanDone, cancelsByObject, cancelsPlanItself, settlesByObject } from './plan-match.js';
import type { ExtractedFact } from './extractor.js';
import { keyedIdentifier, ofIdentifierKind } from './identifiers.js';
import { cancelledBookings, cancelledOrders } from './cancelled-plans.js';
import { alreadyAt, reclockedText, retellsHour, retimedText, type Retold } from './retimed.js';
import { hourAfterAction } from './clock-time.js';
import { spokenDate } from './date-text.js';
import { FOR_NOW_PREFERENCE } from './temporary-slots.js';
import { canonicalSlot } from './thing-keys.js';
import { replacedDecision } from './team-decisions.js';
import { changedValue, holdsValue, namesDay, namesThing, retoldValue, tellsSelf, thingTerms, unmetThingTerms, type ValueChange } from './value-change.js';
import { MONTH_NAMES, WEEKDAY_NAME, isMonthWord } from './months.js';
import { monthAsPerson } from './not-dates.js';
import { quitDecision, restatedDecision } from './quit-or-still.js';

/** A consolidation decision for one extracted fact. */
export type Decision =
  | { op: 'ADD' }
  | { op: 'KEEP'; targetId: string }
  /**
   * `targetId` is replaced by the new fact; so is every fact of `alsoReplaces`, closed with it (rules 35: "I'm back on
   * coffee" replaces the value held for now and the stored copy of the liking it interrupted). The LLM decider sets it from the model's `also_replaces`, checked (`validAlsoReplaces`).
   */
  | {
    op: 'UPDATE'; targetId: string; alsoReplaces?: string[];
    /**
     * The new fact's text, slot and kind instead of its own: the plan moved by an alternative that names only its new time ("we're
     * going on Sunday now" moves "…going to grandma's on Saturday": `retimedText`), written again with the new day.
     */
    retold?: Retold;
  }
  /** `targetIds` are ended (closed, history kept); never empty: ending nothing is a `NOOP`. */
  | { op: 'DELETE'; targetIds: string[] }
  /**
   * Nothing is stored and nothing ended (rules 43), for the `reason` given: `value_not_held`, a withdrawal of a named value
   * no current fact holds ("I'm not a photographer anymore" from someone never stored as one, "i left tesco" while the
   * bank is held): the denied value is no memory, and no other value may be ended by it. Sent to no client (no fact
   * changed); consolidation logs it.
   */
  | { op: 'NOOP'; reason: NoopReason };

/** Why a decision stores and ends nothing (`NOOP`). */
export type NoopReason = 'value_not_held';

/** An existing current fact near the new one, with its cosine similarity to it. */
export interface Candidate {
  fact: Fact;
  score: number;
}

/** What a decider sees for one extracted fact. */
export interface DecisionInput {
  fact: ExtractedFact;
  /** Current facts of the same subject, most similar first. */
  candidates: Candidate[];
  /** Current facts that came from the utterances a "cancel that" withdraws. */
  retractedFacts: Fact[];
  /** When the new fact was said (ISO-8601): a plan dated to a later month is not done yet. Absent: not checked. */
  time?: string;
  /** Names of the people the fact and its candidates are about: a shared name is no shared topic. */
  names?: string[];
  /**
   * For a statement that changes a team's decision, plan or task owner (`changesDecision`): the deployment's current facts
   * nearest it, whoever they are about, with their cosine; only `replacedDecision` weighs them. Absent: none.
   */
  team?: Candidate[];
  /** The session the fact was said in: a new hour said alone moves only a booking of this session (rules 78). Absent: none moves. */
  sessionId?: string;
  /**
   * The words the fact was said in (the utterance's text): a bare new hour is read again with the booking it moves, and
   * "let's meet at 7 instead" moves the meeting (`timeMove`; rules 82). Absent: read from the fact's text alone.
   */
  said?: string;
  /** The fact's own end ("off work until Friday": a temporary state; `ownEnd`), worked out by the caller; absent or null: none. */
  ownEnd?: string | null;
  /**
   * The facts the rules close or keep for the other facts extracted from the same words (`Decider.ruledTargets`, each
   * read against its own candidates): a learned decision leaves them to those facts. Absent: not worked out.
   */
  siblingTargets?: string[];
}

/** Decides ADD / UPDATE / DELETE / KEEP / NOOP. Implementations: deterministic rules, LLM, rules then a learned model. */
export interface Decider {
  decide(input: DecisionInput): Promise<Decision>;
  /**
   * The facts the rules alone would close or keep for `input`, nothing written; when present, consolidation works them out
   * for every fact of a turn with more than one and hands each the others' (`DecisionInput.siblingTargets`).
   */
  ruledTargets?(input: DecisionInput): Promise<string[]>;
}

/** The facts a decision closes or keeps. */
export function decisionTargets(d: Decision): string[] {
  if (d.op === 'DELETE') return d.targetIds;
  if (d.op === 'UPDATE') return [d.targetId, ...d.alsoReplaces ?? []];
  return d.op === 'KEEP' ? [d.targetId] : [];
}

/** Thresholds of the deterministic decider. */
export interface RuleDeciderOptions {
  /** Cosine at or above which an unslotted fact of the same kind is a near-duplicate; default 0.9. */
  duplicateCosine?: number;
  /** Cosine at or above which an unslotted retraction withdraws a fact of the same kind; default 0.55. */
  retractCosine?: number;
  /** Cosine at or above which an outcome settles an open plan or commitment; default 0.4. */
  settleCosine?: number;
  /**
   * Spelling similarity of two values of a slot at or above which the newer one, when less
   * confident (ASR confidence included), is a worse transcript of the same statement; default 0.5.
   */
  sameValueSpelling?: number;
  /**
   * Cosine at or above which a statement that changes a decision, plan or task owner replaces an earlier one naming the
   * same topic, whoever said either (`replacedDecision`); default 0.5.
   */
  decisionCosine?: number;
  /**
   * Cosine at or above which a change of a value replaces a fact naming the same thing and holding its old value
   * (`valueChanged`: "I changed your order to size 56" / "Maria would like to order a road bike in size 54", 0.38); default 0.25.
   */
  valueChangeCosine?: number;
  /**
   * Cosine at or above which a cancellation that names the plan's own thing or action ("the concert was called off" /
   * "Maria is going to a concert", 0.39; `cancelsByObject`) closes it, below `settleCosine`; default 0.25.
   */
  cancelNamedCosine?: number;
}

/**
 * A problem told as holding now ("Mei is still stuck on the flaky payment tests", "the boiler stopped working"): an
 * outcome told as done about the same thing ("the payment tests are fixed") settles it, as it settles a plan.
 */
const PROBLEM = /\b(?:stuck (?:on|with)|broken|(?:is|are|was|were)n['’]t working|(?:is|are) not working|(?:does|do)n['’]t work|stopped working|(?:keeps|keep) (?:breaking|crashing|failing|leaking)|(?:a |the )?problems? with|(?:an |the )?issues? with)\b/i;

/**
 * Stems that say how or whether something happens, not what: an outcome and the plan it settles
 * must share a word beyond these ("the raised beds are finished" / "Tom will build the raised beds").
 */
const FRAME = new Set(terms('want wants plan plans planning going go goes went will would can could should might must '
  + 'need needs make makes made get gets got try tried trying hope hopes just really also too very been being not never '
  + 'finished finish done complete completed installed built delivered sent brought fixed ready handed took care '
  + 'cancelled canceled cancel called off decided skip skipping dropped drop forget mind instead rather changed able '
  + 'new some thing things one lot time like good great much more still now yet all about after again back '
  // Dates are written into fact text ("on Sunday 17 April 2022"): a shared date is no shared topic.
  + `monday tuesday wednesday thursday friday saturday sunday ${MONTH_NAMES.join(' ').toLowerCase()} `
  + 'week weekend month year today yesterday tomorrow'));

/** True when the outcome and the open plan share a topic word; people's names (`people`, and the word opening either text) do not count. */
function sameTopic(outcome: string, open: string, people: string[] = []): boolean {
  const names = new Set([outcome, open].flatMap((t) => terms(t.match(/^[A-Z][\w-]*/)?.[0] ?? '')).concat(people.flatMap(terms)));
  const topic = (t: string): string[] => terms(t).filter((w) => w.length > 2 && !/^\d+$/.test(w) && !FRAME.has(w) && !names.has(w));
  const planned = new Set(topic(open));
  return topic(outcome).some((w) => planned.has(w));
}

/**
 * True when `outcome` is about the plan `open`. Both with a plan object (what each is about, read at
 * extraction): done / instead / decided match on it (`settlesByObject`), a cancellation too when it
 * names an object or an action (`cancelsByObject`). Otherwise (a fact stored before plan objects, an
 * extractor that leaves it empty, a cancellation that names nothing): a shared topic word, and a
 * decision settles only a proposal.
 */
function aboutPlan(outcome: ExtractedFact, open: Fact, names: string[] | undefined): boolean {
  const how = outcome.settles;
  // What the speaker's sister or neighbours did settles only what was told about them, and the other way round.
  // An act by others that may be for the speaker (`doneBy`) settles the speaker's own plan or one told about the same people.
  if (outcome.planObject && open.planObject) {
    const by = outcome.planObject.reportedBy ?? outcome.planObject.doneBy ?? null;
    const about = open.planObject.reportedBy ?? null;
    // "Tom cancelled his concert" settles "Tom is going to a concert…", told of Tom by name with no `reportedBy` (rules 106).
    if (by !== about && !(outcome.planObject.doneBy !== undefined && about === null) && !(about === null && by !== null && openingName(open.content) === by)) return false;
  }
  if (how && outcome.planObject && open.planObject) {
    if (how !== 'cancelled') return settlesByObject(how, outcome.planObject, open.planObject, outcome.content, open.content);
    const named = cancelNamesPlan(outcome, open);
    if (named !== null) return named;
  }
  return sameTopic(outcome.content, open.content, names) && (how !== 'decided' || PROPOSAL.test(open.content));
}

/** A day, a month or a week named in a cancellation ("on Saturday", "Saturday's", "next Friday", "in March", "tonight"). */
const DATE_NAMED = new RegExp(String.raw`\b(?:${WEEKDAY_NAME}|(?:${MONTH_NAMES.join('|')})(?!['’]s\s)|today|tonight|tomorrow|yesterday|weekend|week|month)\b`, 'i');
/** A day or a month named as the event's, not only when it was called off ("I cancelled the gym today"). */
const EVENT_DAY_NAMED = new RegExp(String.raw`\b(?:${WEEKDAY_NAME}|(?:${MONTH_NAMES.join('|')})(?!['’]s\s)|tomorrow|weekend|next)\b`
  // Today as the event's day: told off for it ("Dinner's off tonight") or owning it ("Tonight's dinner is off"; rules 113),
  // not the day someone called it off ("I called the concert off today"; rules 115): only its object between "call" and
  // "off", as told-off.ts `CALL_THING_OFF` reads one, never a joining word, so "I called Tom and dinner's off tonight",
  // "Tom called to say dinner's off tonight" still name tonight's dinner (rules 115 after review).
  + String.raw`|(?<!\bcall(?:s|ed|ing)?\s+(?:it|that|this|them|(?:the|my|our|your|his|her|their|this|that|[a-z-]+['’]s)\s+(?:(?!(?:and|to|but|so|or|because|said|says|say|then)\b)[a-z'’-]+\s+){0,3}?))\boff\s+(?:today|tonight)\b|\b(?:today|tonight)['’]s\s`, 'i');
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * True when the cancellation `outcome` (said in `said`) names no date, or the date it names is the plan `open`'s: its day,
 * the month or the week it names holding it ("in March 2027" is of no plan on 11 December; review-cancel2 H1-H5). A bare
 * weekday as said ("Friday's concert got cancelled", "the match on Saturday was called off", read as the day past) is the
 * plan's when the weekday is. `strict` (a plan matched only by naming its thing): a date named with none resolved, or a
 * plan with no date, is no match; otherwise they are, as a day named only as today or yesterday may be when it was called off.
 */
function onPlanDate(outcome: ExtractedFact, open: Fact, said: string, strict: boolean): boolean {
  const named = outcome.eventTime ?? null;
  if (!named) return !strict || !DATE_NAMED.test(outcome.content);
  const day = open.eventTime?.slice(0, 10);
  if (!day) return !strict;
  if (!strict && !EVENT_DAY_NAMED.test(said)) return true;
  if (named.length === 7) return day.startsWith(named);
  if (/\bweek of\b/i.test(outcome.content)) {
    const from = Date.parse(named.slice(0, 10));
    const at = Date.parse(day);
    return at >= from && at < from + 7 * 86_400_000;
  }
  if (named.slice(0, 10) === day) return true;
  const weekday = WEEKDAYS[new Date(`${day}T12:00:00Z`).getUTCDay()]!;
  return !/\d|\b(?:next|last|this)\b/i.test(said) && new RegExp(String.raw`\b${weekday}\b`, 'i').test(said)
    && WEEKDAYS[new Date(`${named.slice(0, 10)}T12:00:00Z`).getUTCDay()] === weekday;
}

/** Verbs that report what someone said or heard ("Tom said his concert got cancelled"): the cancellation is what they report. */
const REPORTING = new Set(['say', 'tell', 'mention', 'text', 'message', 'email', 'hear', 'write']);

/**
 * Whether the cancellation `outcome` names the plan `open` by what each is about (`cancelsByObject`; null: it names
 * nothing). A cancellation told in reported speech ("Tom said his concert got cancelled", "Tom told me his concert was
 * cancelled") is matched by the thing it names, not by the reporting verb (rules 109).
 */
function cancelNamesPlan(outcome: ExtractedFact, open: Fact): boolean | null {
  if (!outcome.planObject || !open.planObject) return null;
  const cancel = outcome.planObject.verb !== null && REPORTING.has(outcome.planObject.verb) ? { ...outcome.planObject, verb: null } : outcome.planObject;
  return cancelsByObject(cancel, ownObject(open.content, open.planObject), undefined, { cancel: outcome.content, plan: open.content });
}

/**
 * True when an outcome is told as done and the open statement is a habit or a resolution kept over
 * time, with no date of its own ("Lena should call Lena's mum more often", "…should always check the
 * tyres"): one call does not fulfil it. A plan, commitment or request is read as one before it is stored.
 */
function resolutionDone(outcome: ExtractedFact, open: Fact): boolean {
  return outcome.settles === 'done' && !open.eventTime && habitOrMaxim(open.content);
}

/**
 * Proper names in `text` other than the people it is about: capitalised words that do not open a sentence ("Paid Marcus
 * back", "the Carver Street flat", "my Riverside membership"), as lexical terms. "I" and `people` do not count.
 */
function namedThings(text: string, people: string[]): Set<string> {
  const skip = new Set(people.flatMap(terms));
  const out = new Set<string>();
  for (const m of text.matchAll(/[A-Z][\p{L}'’-]*/gu)) {
    const before = text.slice(0, m.index).trimEnd();
    if (m[0] === 'I' || before === '' || /[.!?:]$/.test(before) || !/^[A-Z][a-z]/.test(m[0])) continue;
    // Days and months are dates, not things ("on Saturday 31 October").
    for (const t of terms(m[0])) if (t.length > 2 && !skip.has(t) && !FRAME.has(t)) out.add(t);
  }
  return out;
}

/** Noun-forming suffixes: "membership" is of "member", "ownership" of "owner". */
const NOUN_SUFFIX = /^(?:ship|hood|ment|ness|ism)$/;

/** True when two content terms are one word or one is the other with a noun-forming suffix ("member" / "membership"). */
function kinTerms(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.startsWith(short) && NOUN_SUFFIX.test(long.slice(short.length));
}

/**
 * True when an outcome told in other words than the plan is about the same thing: both name the same thing by a proper
 * name other than the people they are about ("Marcus", "Carver Street", "Riverside") and share a content word besides it
 * or its kin ("tickets", "flat", "member" / "membership"). "Paid Marcus back for the tickets" is about "I owe Marcus forty
 * quid for the concert tickets"; "I went camping in Snowdonia" is not about "camping in the Lakes" (another name), nor is
 * "I got the tyres on the Corsa replaced" about "I drive a silver Corsa" (the name alone).
 */
export function sameNamedThing(outcome: string, open: string, people: string[] = []): boolean {
  // The name opening either text is the person it is about ("Lena paid…", "Lena is going to fix Lena's son's bike").
  const opening = (t: string): string[] => t.match(/^[A-Z][\w-]*/)?.[0] ? [t.match(/^[A-Z][\w-]*/)![0]] : [];
  const them = [...people, ...opening(outcome), ...opening(open)];
  const named = namedThings(outcome, them);
  const theirs = namedThings(open, them);
  if (![...named].some((t) => theirs.has(t))) return false;
  const skip = new Set([...named, ...theirs, ...them.flatMap(terms)]);
  const content = (t: string): string[] => terms(t).filter((w) => w.length > 2 && !/^\d+$/.test(w) && !FRAME.has(w) && !skip.has(w));
  const planned = content(open);
  return content(outcome).some((w) => planned.some((p) => kinTerms(w, p)));
}

/**
 * True when a dated plan's month is still to come at `time`: it cannot be done yet. Months, not days:
 * a job planned for "next week" may be finished early, an event of next month has not happened.
 */
function notYetDue(plan: Fact, time: string | undefined): boolean {
  if (!time || !plan.eventTime) return false;
  return plan.eventTime.slice(0, 7) > time.slice(0, 7);
}

/**
 * Verbs that name no action of their own in "let's do / say / make it Saturday instead", nor with no thing or place in
 * "we're going on Sunday now", "we moved it to Sunday", "it's Sunday, not Saturday" (fix9).
 */
const TIME_ONLY_VERBS = new Set(['do', 'say', 'make', 'go', 'be', 'move', 'push', 'put', 'change', 'switch', 'shift', 'bump', 'reschedule', 'postpone']);

/**
 * True for an alternative that names only a new time ("let's do Saturday at seven instead", "let's say eight instead"), not
 * one that names what it replaces ("text my mobile rather than the landline") or an action of its own.
 */
function retimes(fact: ExtractedFact): boolean {
  const o = fact.planObject;
  return fact.settles === 'instead' && Boolean(fact.eventTime) && !/\b(?:instead of|rather than)\b/i.test(fact.content)
    && (!o || (o.objects.length === 0 && o.complements.length === 0 && (o.verb === null || TIME_ONLY_VERBS.has(o.verb))));
}

/**
 * The plan, commitment, request or statement ("I can deliver them on Friday") for a day still to come said most recently
 * on the day of `time` (ISO-8601), which an alternative naming only a time moves, however unlike in words.
 */
/** A booking told as it stands ("Maria Lopez is booked with Dr. Patel on Tuesday…"): its participle a state, no act done (rules 87). */
const STANDING_BOOKING = /\b(?:is|are|am)\s+(?:now\s+|all\s+|also\s+)?(?:booked|scheduled|confirmed|registered|reserved)\b/i;

/** True for a fact telling an act done ("I booked the room"), not a booking as it stands ({@link STANDING_BOOKING}). */
function pastAct(f: Fact): boolean {
  return f.planObject?.past === true && !STANDING_BOOKING.test(f.content);
}

function latestDatedPlan(candidates: Candidate[], time: string | undefined): Candidate | undefined {
  if (!time) return undefined;
  // "Friday is no good", "Friday doesn't work": a time turned down is no arrangement to move.
  // A trip's slot (`plan:<what>:<day>`) is no profile value: the trip moves like any plan (fix9).
  const dated = candidates.filter((c) => (SETTLEABLE.has(c.fact.kind) || c.fact.kind === 'statement') && (c.fact.slot === null || c.fact.slot.startsWith('plan:'))
    && !/\b(?:not|no|never|cannot)\b|n['’]t\b/i.test(c.fact.content)
    && c.fact.eventTime && c.fact.eventTime.slice(0, 10) >= c.fact.validFrom.slice(0, 10) && !pastAct(c.fact)
    && c.fact.validFrom.slice(0, 10) === time.slice(0, 10));
  return dated.sort((a, b) => b.fact.validFrom.localeCompare(a.fact.validFrom))[0];
}

/**
 * True for a booking of `said`'s speaker, or one shared with a listener of theirs, said in `sessionId`: what "can we do 7
 * instead?" may move (rules 78).
 */
function ownBooking(plan: Fact, said: ExtractedFact, sessionId: string | undefined): boolean {
  return sessionId !== undefined && plan.sessionId === sessionId && (plan.subjectId === said.speakerId
    || (said.addresseeIds.includes(plan.subjectId) && plan.planObject?.shared === true));
}

/** How an alternative that names only a new time moves a plan ({@link timeMove}). */
interface TimeMove {
  /** True for a plan of the day it is said that the alternative may move, where no open plan is about the same thing. */
  may(plan: Fact): boolean;
  /** The plan written again at the new time, or null where its text cannot say it. */
  retell(plan: Fact): Retold | null;
  /** True when a plan that cannot be written again still moves (a new day: the alternative's own text stands for it). */
  bare: boolean;
}

/**
 * The move an alternative naming only a new time makes, or null for any other fact. A new day ("let's do Saturday at
 * seven instead"; fix9) moves any plan, written again with the new day where its text says its day (`retimedText`); a
 * new hour alone ("can we do 7 instead?", "how about 7 instead?"; rules 76, 79) only the speaker's booking or a shared one
 * of the same session (rules 78), and only to an hour it can be at (`reclockedText`), its day kept; so does the booking's
 * own action at a new hour ("let's meet at 7 instead"; rules 82). `said`: the words of the fact (`DecisionInput.said`).
 */
function timeMove(fact: ExtractedFact, sessionId: string | undefined, said: string | undefined): TimeMove | null {
  if (fact.settles !== 'instead') return null;
  if (!fact.eventTime && retellsHour(fact.content)) {
    return { may: (plan) => ownBooking(plan, fact, sessionId), retell: (plan) => reclockedText(plan, fact.content), bare: false };
  }
  // "Let's meet at 7 instead" after "let's meet at 6 on Friday": the booking's own action (or one that names only a time:
  // "let's go at 7 instead"), with nothing of its own, at a new hour said with no day moves the booking, its day kept
  // (rules 82); chrono's today for the hour is no day said. Another action ("I'll pick the kids up at 6 instead") is its
  // own plan (rules 81).
  const hour = said === undefined ? null : hourAfterAction(said, fact.content);
  const o = fact.planObject;
  if (hour) {
    if (!o?.verb || o.objects.length > 0) return null;
    const may = (plan: Fact): boolean => ownBooking(plan, fact, sessionId) && (plan.planObject?.verb === o.verb || TIME_ONLY_VERBS.has(o.verb!)
      || (!plan.planObject?.verb && verbSaid(plan.content, o.verb!)));
    return { may, retell: (plan) => (may(plan) ? reclockedText(plan, hour) : null), bare: false };
  }
  return retimes(fact) ? { may: () => true, retell: (plan) => retimedText(plan, fact, said), bare: true } : null;
}

/**
 * True when `content` says the verb `lemma` ("meet": "is meeting Ana for dinner"), where plan-object.ts read it as no verb
 * of the plan (a gerund read as a noun): "we could meet at 7 instead" moves that dinner (rules 89).
 */
function verbSaid(content: string, lemma: string): boolean {
  const stem = lemma.replace(/e$/, '');
  return new RegExp(String.raw`\b(?:${lemma}s?|${stem}ing)\b`, 'i').test(content);
}

function norm(v: string | null): string {
  return (v ?? '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();
}

/** Dice coefficient of character bigrams in [0, 1]: "Berkeley" / "Berkley" ≈ 0.92, "Porto" / "Lisbon" 0. */
export function spellingSimilarity(a: string, b: string): number {
  const grams = (s: string): string[] => Array.from({ length: Math.max(0, s.length - 1) }, (_, i) => s.slice(i, i + 2));
  const x = grams(norm(a));
  const y = grams(norm(b));
  if (x.length === 0 || y.length === 0) return norm(a) === norm(b) ? 1 : 0;
  const pool = new Map<string, number>();
  for (const g of y) pool.set(g, (pool.get(g) ?? 0) + 1);
  let shared = 0;
  for (const g of x) {
    const n = pool.get(g) ?? 0;
    if (n > 0) { shared++; pool.set(g, n - 1); }
  }
  return (2 * shared) / (x.length + y.length);
}

/** A job as a phrase, its last word singular ("part-time photographers" → "part time photographer"). */
function jobPhrase(value: string | null): string {
  return norm(value).replace(/(?<=[^s])s$/, '');
}

/** A name as said, case and an opening article aside ("tesco" / "Tesco", "the bank" / "bank"). */
function sameName(a: string | null, b: string | null): boolean {
  const bare = (v: string | null): string => norm(v).replace(/^(?:the|a|an)\s+/, '');
  return bare(a) !== '' && bare(a) === bare(b);
}

/**
 * One slot, a liked thing compared by its key (`canonicalSlot`, rules 43): "preference:video games", stored before rules
 * 43, is the slot of "preference:video game".
 */
function sameSlot(a: string | null, b: string | null): boolean {
  return a === b || (a !== null && b !== null && canonicalSlot(a) === canonicalSlot(b));
}

/** Slots keyed by the thing they hold ("preference:coffee", "sport:tennis"): their value says how, not which. */
const KEYED_SLOT = /^(?:preference|sport|favourite|allergy|plan):/;

/**
 * The held values a withdrawal of one named value ends (rules 41, 41b, 42): one slot-withdrawal mechanism. A withdrawal
 * that names a value ("i left tesco", "I'm not in london now", "I don't work at the weekend anymore": slot works_at,
 * value "the weekend") ends the held facts of its slot with that value, case and an opening article aside, and no other
 * (rules 42: only the "now" and lower-case "left" forms were read so, as `namedOnly`; "anymore" ended any employer). A job
 * ("I'm not a photographer anymore": slot `occupation`, value "photographer") names the held `occupation` /
 * `occupation:<job>` facts with the same job, the whole phrase ("a swimming teacher" is not "a teacher"); when none is
 * the same, those the phrase ends ("a part-time photographer"). When none matches, a `NOOP` (rules 43; before, an empty
 * `DELETE`): nothing is ended and nothing stored (a job denied that was never held is no job; "the weekend" withdrawn
 * while the bank is held). Null for a slot other than a job that holds no value at all, so the slot rules store the
 * withdrawal; null too when the fact names no value, or its slot is keyed by its thing (`KEYED_SLOT`: "I don't like
 * running anymore" ends "preference:running" whatever its value), so the slot rules apply.
 */
function namedValue(fact: ExtractedFact, candidates: Candidate[]): Decision | null {
  const held = namedHolders(fact, candidates);
  if (held === null) return null;
  return held.length > 0 ? { op: 'DELETE', targetIds: held.map((c) => c.fact.id) } : { op: 'NOOP', reason: 'value_not_held' };
}

/** The current facts holding the value a withdrawal names (`namedValue`), or null where the slot rules decide. */
function namedHolders(fact: ExtractedFact, candidates: Candidate[]): Candidate[] | null {
  if (!fact.retraction || !fact.value || !fact.slot || KEYED_SLOT.test(fact.slot)) return null;
  if (!/^occupation(?::|$)/.test(fact.slot)) {
    const same = candidates.filter((c) => c.fact.slot === fact.slot && sameName(c.fact.value, fact.value));
    // The slot holds no value at all ("I don't live in Lisbon any more" from someone with no home stored): no other
    // value to keep safe, so the slot rules store the withdrawal as what it tells, as before rules 42.
    if (same.length === 0 && !candidates.some((c) => c.fact.slot === fact.slot && c.fact.value !== null)) return null;
    return same;
  }
  const said = jobPhrase(fact.value);
  const jobs = candidates.filter((c) => c.fact.value !== null && /^occupation(?::|$)/.test(c.fact.slot ?? '') && !c.fact.slot!.startsWith('occupation:teaches'));
  const same = jobs.filter((c) => jobPhrase(c.fact.value) === said);
  return same.length > 0 ? same : jobs.filter((c) => jobPhrase(c.fact.value).endsWith(` ${said}`));
}

/**
 * The identifiers a number said to replace them ends (rules 49: "my new order number is 88812", slot `order_number:88812`,
 * `endsSlot` "order_number"): every other number of its kind held, each in a slot of its own (`order_number:45721`) or,
 * stored before rules 49, in the kind's slot. None when the number is not said to replace, or is itself held already.
 */
function replacedIdentifiers(fact: ExtractedFact, candidates: Candidate[]): Candidate[] {
  const kind = fact.endsSlot;
  if (!kind || !fact.slot?.startsWith(`${kind}:`) || candidates.some((c) => c.fact.slot === fact.slot && norm(c.fact.value) === norm(fact.value))) return [];
  return candidates.filter((c) => c.fact.slot !== fact.slot && c.fact.value !== null && ofIdentifierKind(c.fact.slot, kind));
}

/**
 * What a number of a kind one may have several of does ("order_number:45721", rules 49), decided alike by either decider
 * (llmpath): said to replace the numbers of its kind, it replaces them (`replacedIdentifiers`); already held, it is kept;
 * else it is added beside the others, never put in their place. Null for any other fact.
 */
export function identifierDecision(fact: ExtractedFact, candidates: Candidate[]): Decision | null {
  if (fact.retraction || !fact.slot?.includes(':') || keyedIdentifier(fact.slot, fact.value, '') === null) return null;
  const renewed = replacedIdentifiers(fact, candidates);
  if (renewed.length > 0) {
    const [first, ...rest] = renewed.map((c) => c.fact.id);
    return rest.length > 0 ? { op: 'UPDATE', targetId: first!, alsoReplaces: rest } : { op: 'UPDATE', targetId: first! };
  }
  const held = candidates.find((c) => c.fact.slot === fact.slot && norm(c.fact.value) === norm(fact.value));
  return held ? { op: 'KEEP', targetId: held.fact.id } : { op: 'ADD' };
}

/**
 * What a change of a value does (trial11 F1, F2; `changedValue`): the current unslotted facts of the owner that name the
 * changed thing and hold its old value (or, none said, a value of the new one's form) are replaced by it, the nearest
 * written again with the new value (`retold`: "Maria would like to order a road bike in size 56", about its own subject and
 * with its own kind and plan object), so a request to change it or an agent's confirmation is no fact beside the order. A
 * fact already holding the new value is kept. Null when the fact tells no change, or no such fact is held.
 */
function valueChanged(fact: ExtractedFact, candidates: Candidate[], names: string[], floor: number): Decision | null {
  const change = changedValue(fact.content);
  if (change?.move && !change.from) return movedFor(fact, change, candidates, names);
  if (!change) return null;
  // "Maria is now with Cigna instead of Aetna": the person's own present fact of the old or new value ("Maria is with Aetna";
  // `ValueChange.self`), no past or planned one that holds its words; and no person is a value ("…with Jo instead of Ana").
  if (change.self && [change.from, change.to].some((v) => v !== null && namesPerson(v, names))) return null;
  const about = candidates.filter((c) => c.fact.validTo === null && c.fact.slot === null && c.score >= floor
    && c.fact.kind !== 'preference' && c.fact.kind !== 'relation'
    && (change.self ? c.fact.subjectId === fact.subjectId && [change.from!, change.to].some((v) => tellsSelf(c.fact.content, change, v))
      : namesThing(c.fact.content, change, names)));
  // Told again, by the agent or the owner: the value is held already.
  const kept = about.find((c) => holdsValue(c.fact.content, change.to) && (!change.from || !holdsValue(c.fact.content, change.from)));
  if (kept) return { op: 'KEEP', targetId: kept.fact.id };
  const held = about.filter((c) => (change.from ? holdsValue(c.fact.content, change.from) : retoldValue(c.fact.content, change) !== null));
  // Only the best match is replaced; a generic word alone ("my order") names one only when one is held (reviewB HIGH 2).
  const first = held[0];
  if (!first || (held.length > 1 && thingTerms(change, names).length === 0)) return null;
  const content = retoldValue(first.fact.content, change);
  const retold: Retold | undefined = content === null ? undefined
    : {
      content, slot: first.fact.slot, kind: first.fact.kind, subjectId: first.fact.subjectId, planObject: first.fact.planObject ?? null,
      // A day moved to is when it happens now (the fact's own date); another value leaves the day it had.
      ...(namesDay(change.to) ? {} : { eventTime: first.fact.eventTime }),
    };
  return {
    op: 'UPDATE', targetId: first.fact.id,
    ...(retold ? { retold } : {}),
  };
}

/** True when a value said in a frame ("with Jo") is a known person's name (`names`), its frame word aside. */
function namesPerson(value: string, names: string[]): boolean {
  const said = terms(value.replace(/^\S+\s+/, ''));
  const people = new Set(names.flatMap(terms));
  return said.length > 0 && said.every((t) => people.has(t));
}

/** Words that tell a booking ("booked", "an appointment", "can put Leo in", "scheduled", "reserved"). */
const BOOKED = /\b(?:book(?:s|ed|ing)?|appointments?|put\s+[A-Z][\p{L}-]*\s+in|schedul(?:e|ed|ing)|reserv(?:e|ed|ation))\b/u;

/** A calendar date as the rules write it into a fact ("Tuesday 1 December 2026"; date-text.ts `spokenDate`). */
const SPOKEN_DATE = /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\s+\d{1,2}\s+[A-Z][a-z]+\s+\d{4}\b/g;

/**
 * A time offered and taken, the time its subject ("Tuesday 8 December 2026 at 10am works for Maria", "… at 3pm suits her",
 * "… is fine for me"): the booking it makes (rules 89). Not "Ben works for Maria".
 */
const ACCEPTED = /(?:\b\d{4}|\d(?:am|pm)|\bnoon)\s+(?:works?\s+(?:for|with)|suits?|(?:is|sounds)\s+(?:fine|good|great|perfect)\s+(?:for|with))\b/i;

/**
 * A move to a new day that says no old one ("move Leo's checkup to Monday 7 December 2026 at 4pm"; trial12 F6): the one
 * current booking for a day still to come that names the thing moved, else the one that names the person it is for (the
 * possessive's name) and tells a booking ("Receptionist Jo can put Leo in on Friday 4 December 2026 at 9am", the
 * receptionist's, said to the mover) or a slot they took ("Tuesday … at 10am works for Maria Lopez", closed; rules 89),
 * whoever said it, is written again with the new day and time. Null when none or
 * more than one is held, or the move names no day: the time rules read it as before.
 */
function movedFor(fact: ExtractedFact, change: ValueChange, candidates: Candidate[], names: string[]): Decision | null {
  const to = fact.eventTime?.slice(0, 10);
  if (!to || !namesDay(change.to)) return null;
  const booking = candidates.filter((c) => c.fact.validTo === null && c.fact.kind !== 'preference' && c.fact.kind !== 'relation'
    && (c.fact.slot === null || c.fact.slot.startsWith('plan:')) && !pastAct(c.fact)
    && c.fact.eventTime?.length === 10 && c.fact.eventTime >= c.fact.validFrom.slice(0, 10));
  const owner = change.owner;
  const ownerSaid = (text: string): boolean => !owner || new RegExp(String.raw`\b${owner.replace(/[.]/g, '\\.')}\b`).test(text);
  // A thing moved with no person named is a booking's ("move my cleaning…"), not a team's plan ("move the launch…",
  // team-decisions.ts).
  const ofThing = (c: Candidate): boolean => namesThing(c.fact.content, change, names) && ownerSaid(c.fact.content)
    && (owner !== undefined || BOOKED.test(c.fact.content));
  // A slot taken ("Tuesday … at 10am works for Maria Lopez") names nothing of its own: it is the slot the call was about,
  // unless it names another thing ("… works for Maria Lopez for the plumber"; rules 94).
  const slotOf = (c: Candidate): boolean => {
    if (BOOKED.test(c.fact.content)) return false;
    const taken = ACCEPTED.exec(c.fact.content);
    if (!taken || owner === undefined) return false;
    const rest = c.fact.content.slice(taken.index + taken[0].length).replace(new RegExp(String.raw`^\s*${owner}\b`), '').replace(/[.!]+$/, '').trim();
    return rest === '' || namesThing(c.fact.content, change, names);
  };
  // Any booking of the person only where the thing names nothing of its own ("your appointment"): one naming someone
  // ("your appointment with Dr. Kim") is moved only where a booking names them too (rules 93), or a slot taken (rules 89).
  // A doctor's trade ("your dentist appointment") is met by a booking with a doctor by title ("…with Dr. Patel…"; rules 98).
  const ofOwner = (c: Candidate): boolean => owner !== undefined && ownerSaid(c.fact.content)
    && ((unmetThingTerms(c.fact.content, change, names).length === 0 && BOOKED.test(c.fact.content)) || slotOf(c));
  // Told again ("your cleaning is now on Thursday…" after the move): the booking of that day is kept.
  // A slot taken at the new time is no booking told again: the move of the booking it stands for is still to be read
  // (rules 94: "Thursday at 3pm works for me", then "I moved your appointment with Dr. Patel to Thursday at 3pm").
  const kept = booking.find((c) => c.fact.eventTime === to && !slotOf(c) && (ofThing(c) || ofOwner(c)));
  if (kept) return { op: 'KEEP', targetId: kept.fact.id };
  const dated = booking.filter((c) => c.fact.eventTime !== to);
  const named = dated.filter(ofThing);
  const found = named.length > 0 ? named : dated.filter(ofOwner);
  const first = found[0];
  // A fact holding two bookings ("…with Dr. Patel on Tuesday … and with Dr. Kim on Wednesday …"): which day the move is of
  // is not read, so none is written again (rules 93: the first one's was).
  if (!first || found.length > 1 || (first.fact.content.match(SPOKEN_DATE)?.length ?? 0) > 1) return null;
  // A slot accepted ("Tuesday at 10am works for me") is closed by the move, the move's own words standing for the booking.
  if (slotOf(first)) return { op: 'UPDATE', targetId: first.fact.id };
  const content = retoldValue(first.fact.content, { ...change, from: spokenDate(first.fact.eventTime!) });
  const slot = first.fact.slot?.endsWith(`:${first.fact.eventTime}`) ? `${first.fact.slot.slice(0, -first.fact.eventTime!.length)}${to}` : first.fact.slot;
  return content === null ? { op: 'UPDATE', targetId: first.fact.id }
    : { op: 'UPDATE', targetId: first.fact.id, retold: { content, slot, kind: first.fact.kind, subjectId: first.fact.subjectId, planObject: first.fact.planObject ?? null } };
}

/**
 * A reason told with a cancellation ("…because Ana broke her leg", "…since the venue closed", "…as the venue closed", "…due
 * to the strike"). Not "as well", "as planned", "as you suggested" (rules 96).
 */
const REASON = /\b(?:because|since|due to|owing to)\s+\S+|\bas\s+(?!(?:well|planned|agreed|discussed|promised|usual|expected|such|soon|a|an)\b)(?!\w+\s+(?:suggested|said|asked|knew|know|mentioned|requested|wanted|agreed|discussed|planned|promised|proposed|advised)\b)\S+/i;

/**
 * The plans `targetIds` called off by the cancellation `fact`: ended, and (rules 90) replaced by the cancellation when it
 * tells why ("We had to cancel the Lisbon trip because Ana broke her leg"), so the reason is kept.
 */
function calledOff(fact: ExtractedFact, targetIds: string[]): Decision {
  const [first, ...rest] = targetIds;
  if (!first || !REASON.test(fact.content)) return { op: 'DELETE', targetIds };
  return rest.length > 0 ? { op: 'UPDATE', targetId: first, alsoReplaces: rest } : { op: 'UPDATE', targetId: first };
}

/** True when two facts are of the same person: the same subject, told about the same other person or none (`reportedBy`). */
function sameOwner(a: Fact, b: Fact): boolean {
  return a.subjectId === b.subjectId && a.planObject?.reportedBy === b.planObject?.reportedBy;
}

/**
 * True when `f` is told of `person` (lower-case, singular; `reportedBy`, among the people its plan names, or the name its
 * text opens with: "Tom is going to a concert…", the speaker's own "Maria is going…").
 */
function ofPerson(f: Fact, person: string): boolean {
  return f.planObject?.reportedBy === person || (f.planObject?.people ?? []).some((p) => p.toLowerCase() === person)
    || openingName(f.content) === person;
}

/** True when `f` is a thing had with `person` (lower-case): "Maria is having dinner with Tom" (plan object: have, with "tom"). */
function hadWithPerson(f: Fact, person: string): boolean {
  return f.planObject?.verb === 'have' && f.planObject.complements.includes(person);
}

/** Words of the calendar, no one's name: "Tomorrow's meeting", "Friday's concert", "next week's trip" (rules 109). */
const CALENDAR = new Set(['today', 'tonight', 'tomorrow', 'yesterday', 'week', 'weekend', 'month', 'year', 'morning', 'afternoon', 'evening',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', ...MONTH_NAMES.map((m) => m.toLowerCase())]);

/**
 * The name a fact's text opens with, lower-case, possessive or not ("Tom is going…", "Tom's concert…": "tom"); none for a
 * word of the calendar ("Tomorrow's meeting…") or a thing that happens on a day ("Dinner's off tonight"; rules 113). A
 * month owning a thing is a name, a participant or not ("April's party got cancelled", "June's party…": not.dates.ts
 * `monthsThing`; rules 113, review H1), or one doing something ("April is having a party"; rules 115, `monthAsPerson`), a
 * part of the month is not ("March's last day").
 */
function openingName(text: string): string | null {
  const opening = /^([A-Z][\p{L}-]*)(?:['’]s)?\s/u.exec(text)?.[1];
  if (!opening) return null;
  const name = opening.toLowerCase();
  if (eventNoun(name)) return null;
  return !CALENDAR.has(name) || (isMonthWord(name) && monthAsPerson(text.slice(opening.length))) ? name : null;
}

/**
 * Whose thing a cancellation names by a possessive it opens with ("Tom's concert got cancelled", Jo's "Your concert…" told
 * as "Maria's concert…"), or by one ASR wrote without its apostrophe that the plan object reads as the name ("toms concert
 * got cancelled": `which` "tom").
 */
function possessor(text: string, o: PlanObject | null | undefined, candidates: readonly Candidate[]): string | null {
  if (/^[A-Z][\p{L}-]*['’]s\s/u.test(text)) {
    const name = openingName(text);
    return name && !placeNamed(name, candidates) ? name : null;
  }
  const bare = /^([A-Z][\p{L}-]*)s\s/u.exec(text)?.[1]?.toLowerCase();
  return bare && o?.which?.includes(bare) ? bare : null;
}

/**
 * True when `name` (lower-case) is a place or a thing the candidates name by a possessive inside their text ("Maria is
 * having dinner at Luigi's…") and no candidate is told of it ("Luigi's dinner got cancelled" names no owner; rules 109).
 */
function placeNamed(name: string, candidates: readonly Candidate[]): boolean {
  const inside = new RegExp(String.raw`\s${name}['’]s\b`, 'iu');
  return candidates.some((c) => inside.test(c.fact.content)) && !candidates.some((c) => ofPerson(c.fact, name));
}

/** Where the thing a cancelling verb calls off ends: a clause's end or a word opening another clause ("…because my knee hurts"). */
const CANCELLED_THING_END = /[,.;:!?]|\s(?:because|since|as|so|but|and|when|while|after|before|though|although|cos|cause|due)\b/i;

/**
 * True when a cancellation by someone else names the thing it calls off as the speaker's or the listener's ("my sister
 * cancelled my dentist appointment", "our landlord cancelled the viewing for us"): the words after the cancelling verb, up
 * to the end of what it calls off, hold "my / our / your / me / us" ("my sister cancelled the gym because my knee hurts"
 * names no thing of the speaker's; rules 113).
 */
function forSpeaker(said: string): boolean {
  const verb = /\b(?:cancel\w*|call(?:s|ed|ing)? off)/i.exec(said);
  if (!verb) return false;
  const after = said.slice(verb.index + verb[0].length);
  const end = after.search(CANCELLED_THING_END);
  return /\b(?:my|our|your|me|us)\b/i.test(end >= 0 ? after.slice(0, end) : after);
}

/**
 * The plan object of `f` without the name its text opens with: "Tom is going to a concert" reads "tom" among its objects,
 * and is about the concert as "Maria is going to a concert" is (rules 106).
 */
function ownObject(content: string, o: PlanObject): PlanObject {
  const name = openingName(content);
  return name && o.objects.includes(name) ? { ...o, objects: o.objects.filter((w) => w !== name) } : o;
}

/**
 * Deterministic consolidation (embedded mode): an outcome settles the most similar open plan or
 * commitment about the same thing (`aboutPlan`: by plan object, else a shared topic word) and, when
 * done, is due (done / instead / decided -> UPDATE, cancelled -> DELETE); retraction -> DELETE of the matching current facts (same slot, or same kind,
 * similar and on the same topic), KEEP of a slot already ended;
 * same slot with the same value, a near-duplicate, or a less confident transcript of a similarly
 * spelled value -> KEEP; same slot with another value -> UPDATE;
 * anything else -> ADD. A retraction that matches nothing is added, so nothing is lost; one of a named value held by
 * none ("I'm not a photographer anymore", "i left tesco": `namedValue`) ends nothing and stores nothing (`NOOP`).
 */
export class RuleDecider implements Decider {
  readonly #dup: number;
  readonly #retract: number;
  readonly #settle: number;
  readonly #spelling: number;
  readonly #decision: number;
  readonly #valueChange: number;
  readonly #cancelNamed: number;

  constructor(options: RuleDeciderOptions = {}) {
    this.#dup = options.duplicateCosine ?? 0.9;
    this.#retract = options.retractCosine ?? 0.55;
    this.#settle = options.settleCosine ?? 0.4;
    this.#spelling = options.sameValueSpelling ?? 0.5;
    this.#decision = options.decisionCosine ?? 0.5;
    this.#valueChange = options.valueChangeCosine ?? 0.25;
    this.#cancelNamed = options.cancelNamedCosine ?? 0.25;
  }

  async decide({ fact, candidates, retractedFacts, time, names, team, sessionId, said }: DecisionInput): Promise<Decision> {
    // "Change my order to size 56 instead of 54", "my order is now size 56, not 54", "move my repair from Tuesday to
    // Thursday", the agent's "I changed your order to size 56": the fact holding the old value is replaced (trial11).
    const changed = fact.retraction ? null : valueChanged(fact, candidates, names ?? [], this.#valueChange);
    if (changed) return changed;
    // "Still at Tesco", "Japan's still on for April": a restatement keeps the fact it names, no outcome (rules 116,
    // quit-or-still.ts `restatedDecision`).
    const restated = fact.retractsUtteranceIds ? null : restatedDecision(fact.content, candidates, names);
    if (restated) return restated;
    if (fact.settles && !fact.retractsUtteranceIds) {
      // An outcome settles a plan about the same thing, and a dated plan is not done before its day.
      // A cancellation naming the plan's own thing ("the concert was called off" / "going to a concert") may be told in
      // words further from it (rules 109).
      // Only on the plan's own date where it names one ("the concert on Saturday is off" is not of Friday's concert;
      // review-cancel2 H1-H5).
      const near = (c: Candidate): boolean => c.score >= this.#settle
        || (fact.settles === 'cancelled' && c.score >= this.#cancelNamed && onPlanDate(fact, c.fact, said ?? fact.content, true) && cancelNamesPlan(fact, c.fact) === true);
      const onDate = (c: Candidate): boolean => fact.settles !== 'cancelled' || onPlanDate(fact, c.fact, said ?? fact.content, false);
      const fits = (c: Candidate): boolean => near(c) && onDate(c)
        && aboutPlan(fact, c.fact, names) && !(fact.settles === 'done' && notYetDue(c.fact, time));
      // A plan first; an event told for a day ("the match is on Saturday") only when no plan is about the same thing, and
      // only by a reschedule or a cancellation.
      const plans = candidates.filter((c) => (SETTLEABLE.has(c.fact.kind) || (isIntention(c.fact.content) && !resolutionDone(fact, c.fact))
          || (fact.settles === 'done' && PROBLEM.test(c.fact.content))) && fits(c));
      // A cancellation closes the plan of the thing it calls off before one that only mentions it ("renew my passport
      // before the Lisbon trip"; rules 98), only among the plans of whose it is: one told of someone ("Sarah cancelled the
      // concert", "my sister cancelled the gym") among that person's, else among those of whose the first one is; never the
      // speaker's own plan of the same concert (rules 105). One of someone's thing ("Tom's concert got cancelled", Jo's "your
      // concert got cancelled") among that person's (rules 106).
      const first = plans[0];
      // Not who did it ("Maria's sister cancelled the gym": the sister, `doneBy`).
      // A name the cancellation opens with that opens one of the plans too, where ASR's lower case left it unread ("tom
      // cancelled his concert" after "Tom is going to a concert…"; review-cancel H3).
      const opener = openingName(fact.content);
      // "My sister cancelled the gym": someone else's cancelling of a thing not told as the speaker's is of their own (rules 109).
      // "Dinner is off tonight": a thing that happens on a day, read as who did it, is no one (rules 113).
      const doneBy = fact.planObject?.doneBy && !eventNoun(fact.planObject.doneBy) ? fact.planObject.doneBy : undefined;
      const doer = fact.settles === 'cancelled' && doneBy && !forSpeaker(said ?? fact.content) ? doneBy : undefined;
      const owner = fact.planObject?.reportedBy ?? doer ?? (doneBy ? undefined : possessor(fact.content, fact.planObject, candidates)
        ?? (opener && !STOPWORDS.has(opener) && plans.some((c) => openingName(c.fact.content) === opener) ? opener : undefined));
      const by = owner ?? doneBy;
      const whose = (c: Candidate): boolean => (by ? ofPerson(c.fact, by) : sameOwner(c.fact, first!.fact));
      // A plan's owner's name is no object of it only where the cancellation names an owner: "The concert got cancelled",
      // naming none, closes as before rules 106 (review-cancel H3: not Tom's "concert" over the speaker's own).
      const itself = fact.settles === 'cancelled' && fact.planObject && first
        ? plans.find((c) => c.fact.planObject && whose(c) && cancelsPlanItself(fact.planObject!, by ? ownObject(c.fact.content, c.fact.planObject) : c.fact.planObject)) : undefined;
      // A cancellation of someone's thing closes none of another's, the speaker's own either ("Tom's concert got cancelled"
      // with no plan of Tom's; rules 109).
      // Someone else's cancelling may still be of the speaker's arrangement with them or of an event told for a day ("Tom
      // cancelled lunch" / "…having lunch with Tom", "my landlord cancelled the viewing" / "Maria has a flat viewing…").
      const involved = (c: Candidate): boolean => doer !== undefined && owner === doer
        && (c.fact.planObject?.event === true || new RegExp(String.raw`\b${doer.replace(/[^\p{L}-]/gu, '')}\b`, 'iu').test(c.fact.content));
      // "Tom's dinner is off": the dinner had with Tom is his as well (rules 115), not a dinner of the speaker's alone; only
      // the speaker's own, and none with someone else the cancellation names ("Tom's dinner with Ana"; rules 115 after review).
      const withWhom = /\bwith\s+(\p{Lu}[\p{L}-]*)/u.exec(fact.content)?.[1]?.toLowerCase();
      const hadWith = (c: Candidate): boolean => owner !== undefined && owner !== doer && hadWithPerson(c.fact, owner)
        && c.fact.subjectId === fact.subjectId && !c.fact.planObject?.reportedBy
        && (withWhom === undefined || withWhom === owner || c.fact.planObject!.complements.includes(withWhom));
      const theirs = (c: Candidate): boolean => fact.settles !== 'cancelled' || !owner || ofPerson(c.fact, owner) || involved(c) || hadWith(c);
      const open = itself ?? plans.find(theirs)
        ?? candidates.find((c) => (fact.settles === 'instead' || fact.settles === 'cancelled') && c.fact.planObject?.event === true && fits(c) && theirs(c));
      // "Let's do Saturday at seven instead", "can we do 7 instead?": an alternative naming only a new time moves the latest
      // plan dated that day it may move (`timeMove`).
      const move = timeMove(fact, sessionId, said);
      const dated = !open && move ? latestDatedPlan(candidates.filter((c) => move.may(c.fact)), time) : undefined;
      const moved = open ?? (dated && move && (move.bare || move.retell(dated.fact)) ? dated : undefined);
      // A plan to cancel something is done by cancelling it ("I cancelled the paper delivery"): closed, not withdrawn.
      const withdrawn = fact.settles === 'cancelled'
        && !(fact.planObject && open?.fact.planObject && cancelIsPlanDone(fact.planObject, open.fact.planObject));
      // "I want to cancel order 5520", "I have cancelled order 5520": the order it names is closed by it, with the plan it does.
      const orders = cancelledOrders(fact, candidates).filter((c) => c !== moved);
      if (orders.length > 0) {
        const [first, ...rest] = [...(moved ? [moved] : []), ...orders].map((c) => c.fact.id);
        return rest.length > 0 ? { op: 'UPDATE', targetId: first!, alsoReplaces: rest } : { op: 'UPDATE', targetId: first! };
      }
      // "Cancel the repair" after "can you move my repair…": the booking of the repair (an event told for a day, or a
      // statement of it) ends with the request about it, not only the latest plan-like fact (trial11 F2).
      // Someone's thing cancelled takes no booking of another's with it (rules 106: "Tom is going to a concert on Saturday").
      // Not beside a plan matched only by naming its thing under `settleCosine` (review-cancel2 H3: "the concert was called
      // off" closes the speaker's concert, not Tom's as well), nor one on another day than the cancellation names.
      const booked = withdrawn && moved?.fact.planObject?.event !== true && !(moved && moved.score < this.#settle)
        ? cancelledBookings(fact, candidates, this.#settle).filter((c) => c !== moved && onDate(c) && (!owner || ofPerson(c.fact, owner))) : [];
      if (moved && withdrawn) return calledOff(fact, [moved.fact.id, ...booked.map((c) => c.fact.id)]);
      if (booked.length > 0) return { op: 'DELETE', targetIds: booked.map((c) => c.fact.id) };
      // Told again at the time it is at already ("Done, moved to Thursday at 3pm" after "can we move it to Thursday at 3pm
      // instead?" moved it): kept (rules 87).
      if (moved && move?.bare && alreadyAt(moved.fact, fact)) return { op: 'KEEP', targetId: moved.fact.id };
      // A plan moved by its new time alone is written again with that time, so it still says what it is (fix9).
      const retold = moved && move ? move.retell(moved.fact) : null;
      if (moved) return retold ? { op: 'UPDATE', targetId: moved.fact.id, retold } : { op: 'UPDATE', targetId: moved.fact.id };
      // Told in other words than the plan ("Paid Marcus back for the tickets" / "I owe Marcus forty quid for the concert
      // tickets"): the same named thing and a shared content word settle an open plan, commitment, obligation or state of
      // the same person. Not someone else's act (`reportedBy`, `doneBy`), not an outcome still to happen, and not a taste or
      // who someone is ("Priya is Lena's wife").
      const own = !fact.planObject || (fact.planObject.reportedBy === undefined && fact.planObject.doneBy === undefined);
      // An act told as done "again" repeats a habit ("My wife Priya and I went hiking again"), it completes nothing.
      const named = own && (fact.settles === 'done' || fact.settles === 'cancelled') && !isIntention(fact.content) && !/\bagain\b/i.test(fact.content)
        ? candidates.find((c) => c.score >= this.#settle && theirs(c) && c.fact.kind !== 'preference' && c.fact.kind !== 'relation' && c.fact.planObject?.past !== true && !(fact.settles === 'done' && notYetDue(c.fact, time))
          && sameNamedThing(fact.content, c.fact.content, names))
        : undefined;
      if (named) return fact.settles === 'cancelled' ? calledOff(fact, [named.fact.id]) : { op: 'UPDATE', targetId: named.fact.id };
    }
    // "I've packed in the guitar lessons", "not renewing the season ticket": a state or plan given up ends the open fact it
    // names (rules 116, quit-or-still.ts `quitDecision`).
    const quit = fact.retractsUtteranceIds ? null : quitDecision(fact.content, candidates, names, fact.settles === 'cancelled');
    if (quit) return quit;
    // "We need to move the launch to April 4", "Dana is handling the vendor contract now": a team's decision, plan or task
    // owner changed by anyone, in any meeting, replaces the one it names the topic of (trial10 F1).
    const weighed = [...candidates, ...(team ?? [])].sort((a, b) => b.score - a.score);
    const replaced = fact.slot === null || fact.slot.startsWith('plan:') ? replacedDecision(fact, weighed, names ?? [], this.#decision) : undefined;
    if (replaced) return { op: 'UPDATE', targetId: replaced.fact.id };
    if (fact.retraction) {
      if (fact.retractsUtteranceIds) {
        return retractedFacts.length > 0 ? { op: 'DELETE', targetIds: retractedFacts.map((f) => f.id) } : { op: 'ADD' };
      }
      // "I'm not a photographer anymore": the job it names, the main one or one held beside it (`occupation:<job>`), and
      // no other (rules 41: it withdrew the main job, "nurse", and left the photographer held). None held: nothing to end,
      // and the denied job is not stored as one (rules 41b: it was stored as held), a `NOOP`.
      const named = namedValue(fact, candidates);
      if (named) return named;
      // "I handed in my notice" ends the employer and the role with it (`endsSlot`).
      const bySlot = fact.slot ? candidates.filter((c) => sameSlot(c.fact.slot, fact.slot) || (fact.endsSlot !== undefined && c.fact.slot === fact.endsSlot)) : [];
      // A slot already ended ("lost my job", stored with no value) is ended again by a restatement, not withdrawn.
      const held = bySlot.filter((c) => c.fact.value !== null);
      if (held.length > 0) return { op: 'DELETE', targetIds: held.map((c) => c.fact.id) };
      const ended = bySlot.find((c) => c.fact.value === null);
      if (ended) return { op: 'KEEP', targetId: ended.fact.id };
      const near = candidates.find((c) => c.fact.kind === fact.kind && c.score >= this.#retract && sameTopic(fact.content, c.fact.content, names));
      return near ? { op: 'DELETE', targetIds: [near.fact.id] } : { op: 'ADD' };
    }
    if (fact.slot) {
      const identified = identifierDecision(fact, candidates);
      if (identified) return identified;
      // "I left Hillcrest, I'm tutoring full time now" after "I work at Hillcrest": the new role supersedes the employer left.
      const ending = fact.endsSlot ? candidates.find((c) => c.fact.slot === fact.endsSlot && c.fact.value !== null) : undefined;
      const own = candidates.find((c) => sameSlot(c.fact.slot, fact.slot));
      // "I'm back on coffee" after "I love coffee" and "for now I'm drinking decaf": the liking said again is kept, and
      // ends the value held for now (rules 34).
      const same = own && ending && norm(own.fact.value) === norm(fact.value) ? ending : own ?? ending;
      // …and the stored copies of the liking, whatever verb said it ("I love coffee"), are replaced with it (rules 35).
      if (ending && ending.fact.slot === FOR_NOW_PREFERENCE) {
        const copies = candidates.filter((c) => sameSlot(c.fact.slot, fact.slot) && c.fact.validTo === null).map((c) => c.fact.id);
        return copies.length > 0 ? { op: 'UPDATE', targetId: ending.fact.id, alsoReplaces: copies } : { op: 'UPDATE', targetId: ending.fact.id };
      }
      if (same) {
        if (!sameSlot(same.fact.slot, fact.slot)) return { op: 'UPDATE', targetId: same.fact.id };
        if (norm(same.fact.value) === norm(fact.value)) return { op: 'KEEP', targetId: same.fact.id };
        // "Berkley" heard less surely than "Berkeley": a worse transcript, not a change; keep the better text.
        // A taste's value is a polarity ("like" / "dislike"), no transcript: spelt alike, it is still a change.
        const worse = fact.confidence < same.fact.confidence && !/^preference:/.test(fact.slot)
          && spellingSimilarity(same.fact.value ?? '', fact.value ?? '') >= this.#spelling;
        return worse ? { op: 'KEEP', targetId: same.fact.id } : { op: 'UPDATE', targetId: same.fact.id };
      }
    }
    const dup = candidates.find((c) => c.score >= this.#dup && c.fact.kind === fact.kind
      && (c.fact.slot === null || fact.slot === null || c.fact.slot === fact.slot));
    return dup ? { op: 'KEEP', targetId: dup.fact.id } : { op: 'ADD' };
  }
}
