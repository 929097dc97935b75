/**
 * Changes of mind told in everyday words (rules 116, issue #16 item 3): a state, habit or plan given up ("I've packed in
 * the guitar lessons", "Rhiannon's given up on keto", "not renewing the season ticket", "the puppy idea's out", "I've not
 * had a cigarette in three months", "Raj doesn't need me on Saturday anymore") ends the open fact it names; one told again
 * with "still" ("still at Tesco", "Japan's still on for April", "still no meat for me") reinforces the fact it names (KEEP)
 * instead of being stored beside it. Read by meaning: a verb of quitting is one WordNet lists in a synset with "quit" or
 * "cancel" (give up, stop, discontinue, call off, drop out…), and the fact ended or kept is the one sharing a word, or a
 * WordNet relative of one, with the thing quit or restated ("cigarette" / "smokes", "lessons" / "lesson").
 */
import type { Fact } from '../../graph/memory-store.js';
import { STOPWORDS } from '../../graph/lexical-terms.js';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { MONTH_NAMES, WEEKDAY_NAME } from './months.js';

/** What decides a quit or a restatement: the subject's nearest current facts (a `Candidate` of decide.ts). */
interface Near { fact: Fact; score: number }
type Op = { op: 'DELETE'; targetIds: string[] } | { op: 'KEEP'; targetId: string };

/** Verbs a quitting is told by: every verb WordNet lists in one synset with one of these (give up, stop, call off…). */
const QUIT_ANCHORS = ['quit', 'cancel'];
/** British phrasal verbs of quitting WordNet does not list ("I've packed in the lessons", "jacked in the job"). */
const QUIT_PHRASAL: ReadonlySet<string> = new Set(['pack_in', 'pack_up', 'jack_in']);
/** Particles a phrasal verb of quitting may take before its thing. */
const PARTICLES: ReadonlySet<string> = new Set(['in', 'up', 'off', 'out']);
/** Verbs of keeping something going: denied ("not renewing the season ticket"), they end it. */
const GOING_ON = /(?:\bnot|n['’]t|\bnever)\s+(?:be\s+)?(?:renew(?:ing|ed)?|continu(?:e|ing)|extend(?:ing)?|carry(?:ing)? on(?: with)?|keep(?:ing)? up)\s+(.+)/i;
/** Words before a verb that leave it to come, asked, wished or denied ("going to quit", "if I stop", "haven't given up"). */
const NOT_TOLD_DONE = /\b(?:will|['’]ll|going|gonna|want(?:s|ed)?|wanna|might|may|could|should|would|must|can|to|if|when|whether|thinking|planning|about|trying|never|not|no|n['’]t)\b/i;
/** Auxiliaries and adverbs between a subject and its verb ("has finally given up"). */
const BETWEEN = /^(?:has|have|had|is|was|['’]s|['’]ve|just|finally|properly|officially|now|already|actually|totally|completely|basically|also|since)$/i;
/** A thing given up told as out ("the puppy idea's out"), not "out there / of / in…". */
const IS_OUT = /^(.+?)\s*(?:['’]s|\s(?:is|was|are|were))\s+(?:now\s+|definitely\s+|officially\s+)?out$/i;
/**
 * Abstaining for a long while ("I've not had a cigarette in three months", "hasn't touched a drink since June"): weeks,
 * months or years, or since a month, a year or Christmas; not a short span ("not had a cigarette since breakfast").
 */
const ABSTAINED = new RegExp(String.raw`(?:\bnot|n['’]t|\bnever)\s+(?:had|touched|smoked|drunk|eaten)\s+(?:a|an|any|one)?\s*([\w'’-]+(?:\s+[\w'’-]+)?)\s+`
  + String.raw`(?:(?:in|for)\s+(?:over\s+|more than\s+|nearly\s+|almost\s+)?(?:[\w-]+\s+)?(?:weeks?|months?|years?|ages|a (?:long )?while)\b`
  + String.raw`|since\s+(?:last\s+(?:year|month|summer|spring|autumn|winter)|christmas|new year|\d{4}|${MONTH_NAMES.join('|')})`
  // The span as the date reader leaves it: "in three months" → "in March 2027", "in two weeks" → "on Monday 21 December 2026".
  + String.raw`|in\s+(?:${MONTH_NAMES.join('|')})\s+\d{4}|on\s+${WEEKDAY_NAME}\s+\d)`, 'i');
/**
 * Someone no longer needing the person ("Raj doesn't need me on Saturday anymore"): the arrangement with them ends. The
 * person is needed ("me", "Maria"), and "now" is no ending ("doesn't need me to bring boxes now, just the van").
 */
const NOT_NEEDED = /\b([A-Z][\p{L}-]+)\s+(?:doesn['’]t|does not|won['’]t|will not|no longer)\s+need(?:s)?\s+(\p{L}+)\b[^,.;]*\b(?:anymore|any more|after all|no longer)\b/u;
/** Words a restatement tells a thing as unchanged by ("still at Tesco", "as ever", "same as before"). */
const STILL = /\b(?:still|as ever|same as (?:before|ever|always))\b/i;
/** A restatement of nothing held: still to decide or do ("I'm still deciding", "still haven't booked it", "still not sure"). */
const STILL_UNSETTLED = /\bstill\s+(?:(?:not|no longer|n['’]t|haven['’]t|hasn['’]t|have not|has not|to|need(?:s|ing)?|got to|have to|has to|unsure|undecided|waiting|deciding|thinking|wondering)\b)/i;
/** Words no thing is named by: frames, calendar words, numbers. */
const FRAME = new Set(['still', 'ever', 'same', 'before', 'always', 'anymore', 'more', 'really', 'just', 'now', 'going', 'okay',
  'ok', 'idea', 'thing', 'things', 'time', 'year', 'years', 'month', 'months', 'week', 'weeks', 'day', 'days', 'today',
  'tonight', 'tomorrow', 'weekend', 'lot', 'bit', 'and', 'others', 'other', 'back', 'well', 'good', 'bad', 'yeah', 'yes', 'no',
  'people', 'keep', 'asking', 'said', 'says', 'say', 'told', 'got', 'get', 'doing', 'done', 'did', 'do', 'having', 'have', 'had',
  'first', 'last', 'next', 'this', 'that', 'these', 'those', 'each', 'every', 'quid', 'pounds',
  ...MONTH_NAMES.map((m) => m.toLowerCase())]);
const WEEKDAY = new RegExp(String.raw`^${WEEKDAY_NAME}s?$`);

/** Lower-case words of a text, apostrophe-s cut ("Gemma's" → "gemma"). */
function wordsOf(text: string): string[] {
  return text.toLowerCase().replace(/['’]s\b/g, '').split(/[^\p{L}\d'’-]+/u).filter((w) => w.length > 0);
}

/** The words of `text` that may name a thing: no stop word, frame, number, or one of `people`. */
function thingWords(text: string, people: ReadonlySet<string>): string[] {
  return wordsOf(text).filter((w) => w.length > 2 && !/\d/.test(w) && !STOPWORDS.has(w) && !FRAME.has(w) && !WEEKDAY.test(w) && !people.has(w));
}

/** True when two lower-case words are one word or WordNet relatives ("lessons" / "lesson", "cigarette" / "smokes"). */
function sameThing(a: string, b: string): boolean {
  if (a === b) return true;
  return defaultWordNet().related(a, b) === true;
}

/** True when the verb `lemma` (WordNet's form, "give_up") is one of quitting. */
function quitVerb(lemma: string): boolean {
  if (QUIT_PHRASAL.has(lemma)) return true;
  const wn = defaultWordNet();
  return QUIT_ANCHORS.some((a) => wn.phrasalSense(lemma, a));
}

/** The clauses of a text: split at punctuation and clause-opening conjunctions. */
function clauses(text: string): string[] {
  return text.split(/\s*[,;:.!?]\s*|\s+(?:but|so|because|cos|and then)\s+/i).filter((c) => c.trim().length > 0);
}

/**
 * The words of what a clause tells as given up by its subject (`self`: the names the person goes by, "i" and "we" told
 * too), or null: a verb of quitting told as done, not to come, asked or denied, with the subject before it the person
 * or none; a thing "is out"; a denied "renewing"; an abstention for a while.
 */
function quitClause(clause: string, self: ReadonlySet<string>): string | null {
  const going = GOING_ON.exec(clause);
  if (going) return ownSubject(clause.slice(0, going.index), self) ? going[1]! : null;
  const abstained = ABSTAINED.exec(clause);
  if (abstained) return ownSubject(clause.slice(0, abstained.index), self) ? abstained[1]! : null;
  const out = IS_OUT.exec(clause.trim());
  if (out) {
    const head = wordsOf(out[1]!).at(-1) ?? '';
    const kinds = defaultWordNet().nounKinds(head).map((k) => k.lexFile);
    if (kinds.some((k) => k === 'noun.cognition' || k === 'noun.act' || k === 'noun.event')) return out[1]!;
  }
  const ws = clause.trim().split(/\s+/);
  const wn = defaultWordNet();
  for (let i = 0; i < ws.length; i++) {
    const word = ws[i]!.toLowerCase().replace(/[^\p{L}'’-]/gu, '');
    if (word.length < 3 || /ing$/.test(word) || STOPWORDS.has(word)) continue;
    const bases = wn.baseForms(word, 'verb');
    const next = ws[i + 1]?.toLowerCase() ?? '';
    let lemma: string | undefined;
    let from = i + 1;
    for (const b of bases) {
      if (PARTICLES.has(next) && quitVerb(`${b}_${next}`)) { lemma = `${b}_${next}`; from = i + 2; break; }
      if (quitVerb(b)) lemma = b;
    }
    if (!lemma) continue;
    const before = ws.slice(0, i).map((w) => w.toLowerCase().replace(/[^\p{L}'’-]/gu, ''));
    if (before.some((w) => NOT_TOLD_DONE.test(w))) return null;
    if (!ownSubject(before.join(' '), self)) return null;
    const rest = ws.slice(from);
    if (/^(?:on|with)$/i.test(rest[0] ?? '')) rest.shift();
    // "Stopped at Tesco on the way home", "stopped by the guitar shop": a stop at a place, no quitting.
    if (/^(?:at|by|in|into|off|for|to|outside|near|round|around)$/i.test(rest[0] ?? '')) return null;
    return rest.join(' ');
  }
  return null;
}

/**
 * True when the words before a verb (`before`) are the person's as subject: "I" / "we", a name the person goes by, or none
 * ("packed in the lessons"), auxiliaries and adverbs cut; not another person ("Tom quit the gym", "Tom's not renewing").
 */
function ownSubject(before: string, self: ReadonlySet<string>): boolean {
  const subject = before.trim().split(/\s+/).map((w) => w.toLowerCase().replace(/[^\p{L}'’-]/gu, ''))
    .filter((w) => w.length > 0 && !BETWEEN.test(w)).map((w) => w.replace(/['’](?:s|ve|d|m)$/, ''));
  return subject.length === 0 || (subject.length === 1 && self.has(subject[0]!));
}

/**
 * The names the person goes by: the first person, `names`, and the names the candidates (the person's own facts) open
 * with ("Gemma and others are having a party…"); not the new fact's own opening word ("Japan's still on", "Mum's cancelled…").
 */
function selfNames(candidates: readonly Near[], names: readonly string[]): Set<string> {
  const own = names.map((n) => n.toLowerCase());
  // Not a name told together with the person's own ("Tom and Maria go to the gym": Tom quitting is Tom's).
  const joint = (content: string): boolean => own.some((n) => new RegExp(String.raw`^\S+\s+and\s+${n}\b`, 'i').test(content));
  const openings = candidates.filter((c) => !joint(c.fact.content))
    .flatMap((c) => /^([A-Z][\p{L}-]*)/u.exec(c.fact.content)?.[1]?.toLowerCase() ?? []);
  return new Set(['i', 'we', ...openings, ...own]);
}

/** The candidates a thing's words name, by a shared word or a WordNet relative of one; current, not a relation or taste. */
function naming(words: readonly string[], candidates: readonly Near[], people: ReadonlySet<string>): Near[] {
  return candidates.filter((c) => c.fact.kind !== 'relation' && c.fact.kind !== 'preference' && c.fact.validTo === null
    && c.fact.planObject?.past !== true
    && thingWords(c.fact.content, people).some((w) => words.some((q) => sameThing(q, w))));
}

/**
 * The open facts an extracted fact tells as given up (`content`: its text, the person named first), ended; null when it
 * tells no quitting of a thing a candidate names. "I gave up an hour to help" names no held thing, "I packed the bags"
 * is no quitting, "the idea's out there" is no "out", "I haven't had lunch yet" no abstention for a while.
 */
export function quitDecision(content: string, candidates: readonly Near[], names: readonly string[] = [], cancelled = false): Op | null {
  if (/\?\s*$/.test(content)) return null;
  const self = selfNames(candidates, names);
  const people = new Set(self);
  const needed = NOT_NEEDED.exec(content);
  if (needed && (needed[2]!.toLowerCase() === 'me' || self.has(needed[2]!.toLowerCase()))) {
    const who = needed[1]!.toLowerCase();
    const hit = candidates.filter((c) => c.fact.validTo === null && c.fact.kind !== 'relation'
      && wordsOf(c.fact.content).includes(who) && !wordsOf(c.fact.content).slice(0, 1).includes(who));
    if (hit.length > 0) return { op: 'DELETE', targetIds: [hit[0]!.fact.id] };
  }
  for (const clause of clauses(content)) {
    const thing = quitClause(clause, self);
    if (thing === null) continue;
    // The thing is the phrase given up, up to a preposition or a purpose ("my job at the bank", "my job to focus on the
    // guitar", "an hour to help Tom"); a cancellation the plan rules read already (`cancelled`) names its plan by the head
    // of what it calls off, not an incidental word ("I cancelled the cooking class at the restaurant").
    const phrase = thingWords(thing.split(/\s(?:at|in|on|for|with|from|to|by|of|and|that|which|who|she|he|they|we|i)\s/i)[0]!, people);
    const words = cancelled ? phrase.slice(-1) : phrase;
    if (words.length === 0) continue;
    // Jobs and homes (profile facts) are ended by the employer and home rules; a habit stopped ("stopped watching horror
    // films") ends no one plan; one occurrence called off ("Tuesday's lesson") ends no recurring fact ("every Tuesday").
    const habit = /^\p{L}+ing\b/u.test(thing.trim());
    const once = new RegExp(String.raw`\b(?:${WEEKDAY_NAME}|today|tonight|tomorrow|this week|next week)['’]s\b|^(?:this|next|that|one)\b`, 'i').test(thing.trim());
    const open = candidates.filter((c) => c.fact.kind !== 'profile' && !(habit && c.fact.planObject)
      && !(once && /\b(?:every|each|weekly|daily|monthly)\b/i.test(c.fact.content)));
    const hit = naming(words, open, people);
    if (hit.length > 0) return { op: 'DELETE', targetIds: hit.map((c) => c.fact.id) };
  }
  return null;
}

/**
 * The fact a restatement with "still" tells again (`content`: its text), kept; null when it tells none: nothing held
 * ("I'm still deciding", "still haven't booked it"), or a thing no candidate names (a "still" of another thing stays an
 * ADD). The candidate sharing a word of the thing (or a WordNet relative: "meat" / "vegetarian"), most similar first.
 */
export function restatedDecision(content: string, candidates: readonly Near[], names: readonly string[] = []): Op | null {
  if (!STILL.test(content) || STILL_UNSETTLED.test(content) || /\?\s*$/.test(content)) return null;
  const people = selfNames(candidates, names);
  // The clause told as unchanged names the thing ("my ankle is still sore" is not of the half marathon pulled out of); the
  // whole text where it names none ("…did twenty miles on Sunday, still on for April").
  // A clause opening with "it / that / they" tells of the thing of the clause before ("I tried to fix the shelf but it
  // still wobbles": an attempt, no restatement).
  const told = clauses(content).filter((c) => STILL.test(c));
  if (told.every((c) => /^\s*(?:it|that|this|they|those|these)\b/i.test(c))) return null;
  const own = told.flatMap((c) => thingWords(c, people));
  const words = own.length > 0 ? own : thingWords(content, people);
  if (words.length === 0) return null;
  const hit = naming(words, candidates, people).sort((a, b) => b.score - a.score)[0];
  if (!hit) return null;
  // Told of another person ("Maria's brother still works at Tesco", "Tom still works at Tesco"): their own fact, an ADD. The
  // opening of the clause with "still" is the person, none, or the thing itself ("Japan is still on": a word of the fact
  // kept); "People keep asking if I've caved but no, still no meat for me" is the person's.
  const opening = /^([\p{L}-]+)(['’]s\s)?/u.exec(told[0]!.trim());
  const first = opening?.[1]?.toLowerCase() ?? '';
  if (opening?.[2] && (people.has(first) || first === 'my')) return null;
  if (!people.has(first) && /^\p{Lu}/u.test(opening?.[1] ?? '') && !wordsOf(hit.fact.content).includes(first)) return null;
  return { op: 'KEEP', targetId: hit.fact.id };
}

