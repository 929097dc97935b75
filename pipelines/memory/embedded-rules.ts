/**
 * Hand-written English rules for the embedded extractor. Each rule reads one sentence (dates already
 * annotated) and returns candidate facts with names resolved.
 */
import { clauseCapped } from './clause-cap.js';
import type { FactKind } from '../../graph/memory-store.js';
import { IDIOM_NOUN, cutPlaceAt, employerAndTitle, namesNoPlace, relationSlot, settles } from './changes.js';
import { holdsAJob } from './kinds.js';
import { slotKey, thingSlotKey } from './thing-keys.js';
import { joinNames, resolvePronouns, thirdPerson, type Perspective } from './pronouns.js';
import { readJointPlan } from './joint-plan.js';
import { readObligation } from './obligation.js';
import { namedClauseShape, withoutEventLead } from './grammar.js';
import { withoutLeadingWords } from './discourse-tags.js';
import { reportedStayFacts, stayFacts } from './stays.js';
import { withoutTurnedDown } from './rejected-alternative.js';
import { isMixedCase, NOT_NAMES as SPEAKER_NOT_NAMES } from '../speaker/name-tokens.js';
import { couldBeName, isAlsoCommonWord } from '../speaker/name-words.js';
import { NOT_SURNAME } from './opening-introduction.js';
import { DELIVERY_SLOT, deliveryTo } from './delivery-address.js';
import { homeAddress } from './home-address.js';
import { isCalendarWord } from '../speaker/calendar-words.js';
import { RELATION_ROLES, isApposedName, isDaySaid } from './relation-apposition.js';
import { MONTH_NAME, WEEKDAY_DASH, WEEKDAY_NAME } from './months.js';
import { COUNT as SPAN_COUNT } from './spans.js';

/** One sentence and who is speaking to whom. */
export interface RuleContext {
  sentence: string;
  who: Perspective;
  speakerId: string;
  addresseeIds: string[];
  /** True when the head word of a phrase is a noun (from wink-nlp POS tags). */
  isNounPhrase: (phrase: string) => boolean;
  /** True when the sentence reports an event with its own subject ("Eleven kids came…"): POS tags. */
  reportsEvent: (text: string) => boolean;
  /** "I think…" -> "I thinks…", so the name that replaces "I" agrees with its verb. */
  conjugate: (text: string) => string;
  /** Universal POS tags of a text's tokens (wink-nlp). */
  tags: (text: string) => string[];
  /** When the sentence was said (ISO-8601): a stay at the weekend to come is ahead (`stayFacts`). */
  time?: string;
  /** Where the speaker is, as told before in the talk (lives in, or stays at): "I love this city" likes it (rules 40). */
  here?: string;
}

/** A rule's output, before ids and bookkeeping are attached. */
export interface RuleFact {
  content: string;
  kind: FactKind;
  /** `speaker`, `addressee`, or an entity key. */
  subject: 'speaker' | 'addressee' | string;
  slot: string | null;
  value: string | null;
  confidence: number;
  /** Profile attribute to update on the subject, if any. */
  profile?: { attribute: string; value: string };
  /** A plan said with "we" or "let's": the addressees share it (`PlanObject.shared`). */
  shared?: boolean;
  /** A state said ahead ("next month I'm in Tokyo for two weeks"): it holds from its start, which the extractor reads (rules 30). */
  ahead?: boolean;
}
const I = "\\b[Ii]";
const STOP_VALUE = /\s+(?:last|next|this|on|over|during|since|because|with|and|but|for|when|where|yesterday|today|tomorrow|now|after|before|every|which|who|although|though|so|until|till|til|through|thru)\b.*$|[,.;!?].*$/i;

/** Trim a captured value at the first clause boundary. */
function cutValue(v: string): string {
  // "I like dinosaurs too": the thing is "dinosaurs", not "dinosaurs too" (fix9).
  return v.replace(STOP_VALUE, '').trim().replace(/\s+(?:too|as well|also)$/i, '');
}

/**
 * A span of time named by what it comes before or after: "the week before Christmas", "the days after new year", "the
 * last hour before the party" (not "the week before I left": a clause follows).
 */
const SPAN_AROUND = /^((?:the|a)\s+(?:[a-z-]+\s+){0,2}?(?:days?|weeks?|weekends?|months?|nights?|mornings?|evenings?|hours?|run-up|bit)\s+(?:before|after)\s+)(?!(?:I|you|we|he|she|they|it|i['’]\w+|we['’]\w+)\b)(\S.*)$/i;

/**
 * A span of something else: "the last week of the school holidays", "the first day of term" (the cut at "last" kept
 * "the" alone).
 */
const SPAN_OF = /^((?:the|a)\s+(?:last|first|final|next|opening|closing|second)\s+(?:days?|weeks?|weekends?|months?|nights?|hours?|minutes?)\s+of\s+)(\S.*)$/i;

/**
 * The thing a liking names, cut at its clause boundary: "the week before Christmas" whole, as one thing (rules 42: the
 * cut at "before" kept "the week").
 */
function likedThing(v: string): string {
  const span = SPAN_AROUND.exec(v) ?? SPAN_OF.exec(v);
  if (!span?.[1] || !span[2]) return cutValue(v);
  const after = cutValue(span[2]);
  return after ? `${span[1]}${after}`.trim() : cutValue(v);
}

const NOT_NAMES = new Set(['sorry', 'fine', 'good', 'okay', 'ok', 'here', 'back', 'home', 'not', 'so', 'just',
  'american', 'british', 'english', 'portuguese', 'spanish', 'french', 'german', 'italian', 'chinese', 'japanese',
  'korean', 'indian', 'brazilian', 'mexican', 'irish', 'scottish', 'dutch', 'polish', 'russian', 'canadian',
  'australian', 'vegan', 'vegetarian', 'catholic', 'jewish', 'muslim', 'christian', 'buddhist', 'single', 'married']);

/**
 * Words after a first name that are not a surname ("I'm Hana and…", "Hi it is Grace calling…", "…sunny here", "…nice out"):
 * those an opening introduction stops at (opening-introduction.ts `NOT_SURNAME`), and a few more (findingsD M6).
 */
const NOT_SURNAMES = new RegExp(String.raw`^(?:${NOT_SURNAME}|too|now|out|there|today|tonight|outside|again)$`, 'i');
const INTRO = [
  /\b(?:[Mm]y name is|[Mm]y name's|[Cc]all me)\s+([A-Za-z][\w'-]+)(?:\s+([A-Z][\w'-]+))?/,
  /\bI(?:['’]m| am)\s+([A-Z][a-z'-]+)(?:\s+([A-Z][a-z'-]+))?\b/,
  // On the phone: "this is Priya speaking", "Hi Daniel, Priya here". Not "this is X calling": a place or a firm
  // ("this is Boston calling") takes that slot as often (docs/BENCHMARKS.md, unlisted names from Moonshine's capitals).
  /\b[Tt]his is\s+([A-Z][a-z'-]+)(?:\s+([A-Z][a-z'-]+))?(\s+(?:speaking|here))\b/,
  /(?:^|,\s*)([A-Z][a-z'-]+)(?:\s+([A-Z][a-z'-]+))?(\s+here)(?=\s*(?:[,.;!]|$))/,
  // After a greeting only: "Hi, it's Sofia Marin from flat 3", "Hi it is Tom Becker" as a recogniser writes it (trial12
  // F17; not "it's Monday", nor "it's Tom's car" without one).
  /^(?:hi|hello|hey)(?:\s+there)?,?\s+it(?:['’]s|\s+is)\s+([A-Z][a-z'-]+)(?:\s+([A-Z][a-z'-]+))?(?![\w'’])/i,
  // A greeting and "this is X" said alone: "Hello, this is Nina Cole.", "hi this is maria lopez" (cut off the rest of its
  // turn by opening-introduction.ts; calls2). Not "this is X" alone: "This is Boston." names a place.
  /^(?:hi|hello|hey|good\s+(?:morning|afternoon|evening))(?:\s+there)?,?\s+this\s+is\s+([a-z][a-z'-]+)(?:\s+([a-z][a-z'-]+))?[.!]*$/i,
];
/** Words that stand before "here" without being a name ("Come here", "Everyone here", "Sign here"). */
const NOT_HERE_NAMES = /^(?:come|sign|stay|wait|look|over|right|up|down|out|in|everyone|everybody|anyone|anybody|someone|somebody|nobody|none|all|click|start|stop|put|leave|get|go|bring|sit|stand|just|still|not|only|from|and|but|so|yes|no|okay|hi|hello|hey)$/i;

/** "My name is Ana", "call me Ana", "I'm Ana Silva"; `clause` is the matched words. */
export function introductionOf(sentence: string): { name: string; clause: string } | null {
  for (const re of INTRO) {
    const m = sentence.match(re);
    const first = m?.[1];
    if (!m || !first) continue;
    if (NOT_NAMES.has(first.toLowerCase()) || /^(I|Im)$/.test(first) || !couldBeName(first, undefined, isMixedCase(sentence))) return null;
    if (/^(?:hi|hello|hey|good)\b/i.test(m[0]) && ((isMixedCase(sentence) && !/^[A-Z]/.test(first)) || SPEAKER_NOT_NAMES.has(first.toLowerCase()) || NOT_HERE_NAMES.test(first)
      || isCalendarWord(first))) continue;
    const tail = m[3];
    const notName = (w: string): boolean => NOT_HERE_NAMES.test(w) || SPEAKER_NOT_NAMES.has(w.toLowerCase());
    if (tail && (notName(first) || (m[2] && notName(m[2])))) continue;
    // "hey it is sunny here", "hi it is nice out" (no capital to tell a name): a word that is also an adjective, verb or
    // adverb is no name after "it is" / "it's" (findingsD M6), as `couldBeName` takes such a name only written capitalised.
    if (/^(?:hi|hello|hey)\b.*\bit(?:['’]s|\s+is)\s/i.test(m[0]) && !isMixedCase(sentence) && isAlsoCommonWord(first)) continue;
    const last = m[2] && !NOT_SURNAMES.test(m[2]) ? m[2] : undefined;
    const name = [first, last].filter((w): w is string => !!w).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
    const named = last ? m[0] : m[0].slice(0, m[0].indexOf(first) + first.length);
    return { name, clause: tail ? `${named.replace(/^,\s*/, '')}${tail}` : named };
  }
  return null;
}

/**
 * The sentence without its self-introduction and the greeting before it ("Hi Daniel, Priya here, I'm calling
 * you back" -> "I'm calling you back"); the sentence itself when it introduces nobody.
 */
export function withoutIntroduction(sentence: string): string {
  const intro = introductionOf(sentence);
  if (!intro) return sentence;
  return sentence.replace(intro.clause, '').replace(/^(?:\s*(?:hi|hello|hey)\b(?:\s+[A-Z][a-z'-]+)?)?[\s,.;!-]*/i, '');
}

function introduction(c: RuleContext): RuleFact[] {
  const intro = introductionOf(c.sentence);
  if (!intro) return [];
  return [{
    content: `The speaker's name is ${intro.name}`, kind: 'profile', subject: 'speaker',
    slot: 'name', value: intro.name, confidence: 0.9, profile: { attribute: 'name', value: intro.name },
  }];
}

const PREF_VERBS: Record<string, [string, string]> = {
  love: ['love', 'loves'], adore: ['love', 'adores'], like: ['like', 'likes'], enjoy: ['like', 'enjoys'],
  prefer: ['prefer', 'prefers'], hate: ['dislike', 'hates'], dislike: ['dislike', 'dislikes'],
  "can't stand": ['dislike', "can't stand"], "don't like": ['dislike', "doesn't like"],
  'do not like': ['dislike', 'does not like'], detest: ['dislike', 'detests'],
};

/** A place pointed at as the one the speaker is in: "this city", "this town" (said whole; "this place" is as often a restaurant). */
const PLACE_HERE = /^this\s+(?:city|town|village|country|neighbou?rhood|island)$/i;

/** "I like things like that", "I love stuff": no thing is named, so no liking is kept (text5). */
const GENERIC_THING = /^(?:things?|stuff|everything|something|anything|lots?)(?:\s+like\s+(?:that|this|it))?$/i;

/**
 * The speaker's own job, work or home ("my new job", "our flat", "my commute"): a liking of it is a feeling about their
 * work or home, told as said, not a taste with a `preference:<thing>` slot (rules 49: "I love my new job" was
 * `preference:my new job`); the job and the home have slots of their own (`works_at`, `lives_in`).
 */
const OWN_LIFE_THING = /^(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:job|work|role|position|career|boss|manager|colleagues|co-?workers|team|office|workplace|commute|home|house|flat|apartment|neighbou?rhood)(?:\s+(?:at|in|on|with|near)\s+.+)?$/i;

/**
 * The person said with the speaker as one subject, before "and I" at a sentence's or clause's start ("Ben and I like
 * hiking", "My sister and I love sushi", "Tom and I both love jazz"): a name or two, or "my / our" and a person; no
 * discourse word ("Yes and I…").
 */
const JOINT_BEFORE = /(?:^|[,;:]\s*)((?:[Mm]y|[Oo]ur)\s+[a-z-]+(?:\s+[A-Z][\w'’-]*)?|[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)\s+and\s+$/;
const NOT_PARTNER = /^(?:yes|yeah|no|oh|well|so|and|but|okay|ok|right|also|actually|then|now|and|sure|honestly|anyway|plus|because)$/i;

/** The person liking a thing with the speaker ("Ben" of "Ben and I like hiking"), or null. */
function jointPartner(before: string): string | null {
  const partner = JOINT_BEFORE.exec(before)?.[1];
  return partner && !NOT_PARTNER.test(partner) && !isCalendarWord(partner) ? partner : null;
}

/** "I love sushi", "I don't like jazz", "I'm a big fan of X", "my favourite food is X". */
function preference(c: RuleContext): RuleFact[] {
  const verbs = Object.keys(PREF_VERBS).sort((a, b) => b.length - a.length).join('|');
  const m = c.sentence.match(new RegExp(`${I}\\s+((?:really\\s+|absolutely\\s+|just\\s+|totally\\s+|both\\s+|also\\s+)?)(${verbs})\\s+(.+)`, 'i'));
  if (m?.[2] && m[3]) {
    const [said, rest] = [m[2], m[3]];
    const [value, verb3] = PREF_VERBS[said.toLowerCase()] ?? ['like', 'likes'];
    const object = likedThing(rest);
    // "I prefer tea to coffee": said whole, but the alternative turned down is no part of the liked thing's slot (life5).
    const turned = said.toLowerCase() === 'prefer' ? withoutTurnedDown(`prefer ${rest}`) : null;
    const liked = turned ? likedThing(turned.kept.replace(/^prefer\s+/, '')) : object;
    if (!object || /^(to\s+)?(it|that|this)$/i.test(object) || GENERIC_THING.test(object)) return [];
    // "Ben and I like hiking": both like it, one fact naming both with the verb as said, the speaker's slot (rules 49:
    // Ben was dropped); said with the listener ("Tom and I both love jazz"), the listener's liking too.
    const partner = jointPartner(c.sentence.slice(0, m.index));
    const content = partner ? resolvePronouns(`${partner} and I ${m[1]}${said} ${object}`, c.who).replace(/\s+/g, ' ')
      : `${c.who.speaker} ${verb3} ${resolvePronouns(object, c.who)}`;
    const subjects = partner && c.who.addressees.length === 1 && partner === c.who.addressees[0] ? ['speaker', 'addressee'] : ['speaker'];
    // "I live in Porto and I love this city": the place the speaker is in, when the talk has told it (rules 40).
    if (c.here && PLACE_HERE.test(object) && !partner) {
      return [{ content: `${c.who.speaker} ${verb3} ${c.here}`, kind: 'preference', subject: 'speaker', slot: `preference:${thingSlotKey(c.here)}`, value, confidence: 0.7 }];
    }
    // "I like that idea", "I love this plan": a thing pointed at in the talk, an opinion of the moment (rules 38); "I love
    // this city" with no place told before is one too.
    if (/^(?:that|this|these|those)\s/i.test(object) || OWN_LIFE_THING.test(object)) {
      return [{ content, kind: 'statement', subject: 'speaker', slot: null, value: null, confidence: 0.6 }];
    }
    return subjects.map((subject) => ({ content, kind: 'preference' as const, subject, slot: `preference:${thingSlotKey(liked)}`, value, confidence: 0.8 }));
  }
  const fan = c.sentence.match(new RegExp(`${I}(?:['’]m| am)\\s+(?:a\\s+)?(?:big\\s+|huge\\s+)?fan of\\s+(.+)`, 'i'));
  if (fan?.[1]) {
    const object = cutValue(fan[1]);
    return [{ content: `${c.who.speaker} is a fan of ${object}`, kind: 'preference', subject: 'speaker',
      slot: `preference:${thingSlotKey(object)}`, value: 'like', confidence: 0.8 }];
  }
  const fav = c.sentence.match(/\bmy\s+(?:favou?rite)\s+([\w\s]+?)\s+is\s+(.+)/i);
  if (fav?.[1] && fav[2]) {
    const value = cutValue(fav[2]);
    return [{ content: `${c.who.speaker}'s favourite ${fav[1]} is ${value}`, kind: 'preference',
      subject: 'speaker', slot: `favourite:${slotKey(fav[1])}`, value, confidence: 0.85 }];
  }
  return [];
}

/** "I work at Acme", "I live in Porto", "I moved to Lisbon", "I'm from X", "I'm a nurse". */
function background(c: RuleContext): RuleFact[] {
  const s = c.sentence;
  const out: RuleFact[] = [];
  const add = (attribute: string, verb: string, raw: string | undefined, confidence = 0.85): void => {
    // "A flat above the bakery on Carver Street": a street is part of the place.
    const value = raw ? (attribute === 'lives_in' ? cutPlaceAt(raw, STOP_VALUE).trim() : cutValue(raw)) : '';
    // "I live in hope": no place (rules 42).
    if (!value || (attribute === 'lives_in' && namesNoPlace(value))) return;
    out.push({ content: `${c.who.speaker} ${verb} ${value}`, kind: 'profile', subject: 'speaker',
      slot: attribute, value, confidence, profile: { attribute, value } });
  };
  // "I work at Initech as an engineer": the employer, and the title its own occupation (rules 44).
  const [employer, title] = employerAndTitle(cutValue(s.match(new RegExp(`${I}(?:\\s+now|\\s+currently)?\\s+(?:work|am working|['’]m working)\\s+(?:at|for)\\s+(.+)`, 'i'))?.[1] ?? ''));
  add('works_at', 'works at', employer);
  const titled = title ? jobHeld(title, c) : null;
  if (titled) add('occupation', `works as ${/^[aeiou]/i.test(titled) ? 'an' : 'a'}`, titled, 0.75);
  add('lives_in', 'lives in', s.match(new RegExp(`${I}(?:\\s+now|\\s+currently)?\\s+(?:live|am living|['’]m living)\\s+in\\s+(.+)`, 'i'))?.[1]);
  // "I live at twelve Baker Street in Manchester": the town is the home, the address kept in the fact (fix7b).
  const home = homeAddress(s, (said) => cutPlaceAt(said, STOP_VALUE));
  if (home) add('lives_in', home.town ? `lives at ${home.address} in` : 'lives at', home.town ?? home.address);
  add('lives_in', 'moved to', s.match(new RegExp(`${I}(?:\\s+just|\\s+recently)?\\s+(?:moved|have moved|['’]ve moved|['’]ve just moved)\\s+to\\s+(.+)`, 'i'))?.[1]);
  add('from', 'is from', s.match(new RegExp(`${I}(?:['’]m| am)\\s+(?:originally\\s+)?from\\s+(.+)`, 'i'))?.[1]);
  add('age', 'is', s.match(new RegExp(`${I}(?:['’]m| am)\\s+(\\d{1,3})(?:\\s+years old)?\\b`, 'i'))?.[1]);
  const job = s.match(new RegExp(`${I}(?:['’]m| am)\\s+(?:a|an)\\s+([a-z][a-z\\s-]*)`, 'i'));
  if (job?.[1]) {
    // "I'm a nurse and a part-time photographer": each job its own fact, the first the occupation and the others held
    // beside it (`occupation:<job>`), so the second neither replaces the first nor is lost (rules 40). The first job is
    // the first phrase that holds one: "I'm a terrible cook and a nurse" is a nurse (rules 42: the judged skill first
    // left no job at all).
    const rest = s.slice((job.index ?? 0) + job[0].length - job[1].length);
    const said = [job[1], ...[...rest.matchAll(/(?:,|\s+and|\s+but|\s+as\s+well\s+as)\s+(?:also\s+|then\s+|i['’]m\s+|I\s+am\s+)?(?:a|an)\s+([a-z][a-z\s-]*)/gi)].map((m) => m[1] ?? '')];
    const jobs = [...new Set(said.map((p) => (p ? jobHeld(p, c) : null)).filter((v): v is string => v !== null))];
    const [value, ...others] = jobs;
    if (value) {
      out.push({ content: `${c.who.speaker} is ${/^[aeiou]/i.test(value) ? 'an' : 'a'} ${value}`, kind: 'profile', subject: 'speaker',
        slot: 'occupation', value, confidence: 0.75, profile: { attribute: 'occupation', value } });
    }
    for (const other of others) {
      out.push({ content: `${c.who.speaker} is also ${/^[aeiou]/i.test(other) ? 'an' : 'a'} ${other}`, kind: 'profile', subject: 'speaker',
        slot: `occupation:${slotKey(other)}`, value: other, confidence: 0.7 });
    }
  }
  return out;
}

/**
 * The job a phrase said after "I'm a" names, or null: "I'm a sucker for sad films", "a fan of jazz" are idioms, not jobs;
 * "a mess this week" holds none (`holdsAJob`, rules 35).
 */
function jobHeld(job: string, c: RuleContext): string | null {
  if (IDIOM_NOUN.test(job) && !/^[a-z]+(?:\s+[a-z]+)?\s+for\s+(?!(?:my|your|his|her|our|their)\b)(?!.*\b(?:and|but|so)\b)/i.test(job)) return null; // not "a bridesmaid for my cousin"
  const value = cutValue(job.replace(/\s+(?:at|in|for|with)\s+.*$/i, '')); // "a model for a clothing brand": a model (rules 37)
  return value && value.split(' ').length <= 3 && holdsAJob(value, c.isNounPhrase, undefined, true) ? value : null;
}

/** Roles a person has only one of at a time: a new name supersedes the old one. */
const SINGLE_ROLES = new Set(['mother', 'mom', 'mum', 'father', 'dad', 'wife', 'husband', 'partner', 'boyfriend',
  'girlfriend', 'manager', 'boss', 'fiance', 'fiancée', 'therapist']);

/**
 * "my sister Maria", "Ben is my manager", "my boss is Carla"; in a recogniser's lower-case text, "my wife maria" with a
 * listed given name (`isApposedName`; trial11 F6).
 */
export function relation(c: RuleContext): RuleFact[] {
  const roles = RELATION_ROLES.join('|');
  const m = c.sentence.match(new RegExp(`\\bmy\\s+(?:new\\s+)?(${roles})(?:,)?\\s+(?:is\\s+)?([A-Z][a-z'-]+)`, 'i'))
    ?? null;
  const rev = c.sentence.match(new RegExp(`\\b([A-Z][a-z'-]+)\\s+is\\s+my\\s+(?:new\\s+)?(${roles})\\b`, 'i'));
  let role: string | undefined;
  let name: string | undefined;
  // "my mother Tuesday", "my mother December 3": a day or date, not her name (rules 87).
  if (m?.[1] && m[2] && (/^[A-Z]/.test(m[2]) || (!isMixedCase(c.sentence) && isApposedName(m[2], c.sentence)))
    && !isDaySaid(m[2], c.sentence.slice((m.index ?? 0) + m[0].length))) {
    [role, name] = [m[1].toLowerCase(), m[2].charAt(0).toUpperCase() + m[2].slice(1)];
  }
  else if (rev?.[1] && rev[2] && /^[A-Z]/.test(rev[1]) && rev[1] !== 'I') [name, role] = [rev[1], rev[2].toLowerCase()];
  if (!role || !name) return [];
  const slot = relationSlot(role, SINGLE_ROLES.has(role), name);
  return [{ content: `${name} is ${c.who.speaker}'s ${role}`, kind: 'relation', subject: 'speaker', slot,
    value: name, confidence: 0.85 }];
}

/** A request's task with the possessives of the one asked told from their side: "your notes" → "their notes". */
function asked(task: string): string {
  return task.replace(/\byours\b/gi, 'theirs').replace(/\byour\b/gi, 'their').replace(/\byourselves\b/gi, 'themselves').replace(/\byourself\b/gi, 'themself');
}

/** A booking, a move or a cancellation asked as a bare imperative, after "and / also / so…" or not: "book Leo a cleaning". */
const BOOKING_ASKED = /^(?:(?:[Aa]nd|[Aa]lso|[Ss]o|[Tt]hen|[Oo]h|[Oo]kay|[Oo]k)\b,?\s+)?((?:[Bb]ook|[Ss]chedule|[Rr]eschedule|[Cc]ancel|[Rr]ebook)\s+(?:me|him|her|us|them|it|my|our|his|their|the|a|an|[A-Z][a-z]+)\b.+?)[.!]?$/;

/** "I'll send you the draft Friday" (commitment), "can you book the room?" (request). */
function commitmentOrRequest(c: RuleContext): RuleFact[] {
  const s = c.sentence;
  const req = s.match(/^(?:\w+,\s*)?(?:can|could|would|will)\s+you\s+(?:please\s+)?(.+?)\??$/i)
    ?? s.match(/^(?:\w+,\s*)?(?:(?:and|also|so|then|oh)\b,?\s+)?please\s+(.+?)[.!]?$/i)
    // "And book Leo a fluoride treatment on Tuesday at 3 pm": a booking asked bare, without "please" (trial12 F9).
    ?? (c.addresseeIds.length > 0 ? s.match(BOOKING_ASKED) : null)
    ?? s.match(new RegExp(`${I}\\s+(?:need|want)\\s+you\\s+to\\s+(.+?)[.!]?$`, 'i'));
  if (req?.[1]) {
    // "Chidi, please hand her your notes": the one asked is the subject of "to …", so "your" is "their" ("asked Chidi to
    // hand her their notes"), not "hand her Chidi's notes", which reads as the asker's "her" (trial10 F5).
    const task = resolvePronouns(asked(req[1].replace(/^(?:Book|Schedule|Reschedule|Cancel|Rebook)\b/, (v) => v.toLowerCase())), c.who);
    // The one asking wants it (trial 8: "please deliver it to 12 Park Road", told to one agent and changed with another):
    // the request is theirs, and an address it sends things to fills their delivery slot.
    const address = deliveryTo(req[1]);
    return [{ content: `${c.who.speaker} asked ${joinNames(c.who.addressees)} to ${task}`, kind: 'request',
      subject: 'speaker', slot: address ? DELIVERY_SLOT : null, value: address, confidence: 0.75 }];
  }
  const will = s.match(new RegExp(`${I}(?:['’]ll|\\s+will|\\s+shall|\\s+promise to|['’]m going to|\\s+am going to)\\s+(.+?)[.!]?$`, 'i'));
  // "I'll probably never finish that book", "I will not…": a doubt or a refusal, nothing undertaken (rules 38).
  if (will?.[1] && /^(?:(?:probably|maybe|possibly|likely)\s+)?(?:never|not)\b/i.test(will[1])) {
    return [{ content: `${c.who.speaker} will ${resolvePronouns(will[1], c.who)}`, kind: 'statement', subject: 'speaker', slot: null, value: null, confidence: 0.5 }];
  }
  if (will?.[1] && (c.addresseeIds.length > 0 || /\byou\b/i.test(will[1]))) {
    const verb = /going to/i.test(will[0]) ? 'is going to' : 'will';
    return [{ content: `${c.who.speaker} ${verb} ${resolvePronouns(will[1], c.who)}`, kind: 'commitment',
      subject: 'speaker', slot: null, value: null, confidence: 0.75 }];
  }
  return [];
}

const PLAN_VERBS = 'going|flying|travell?ing|driving|heading|moving|visiting|starting|taking|leaving|meeting|seeing|attending|getting|having|running|joining|hosting|celebrating|throwing|planning|organi[sz]ing|arranging';

/** "I'm flying to Lisbon next Friday", "I plan to visit Rome", "I'll run a marathon". */
function plan(c: RuleContext, dates: string[]): RuleFact[] {
  const s = c.sentence;
  const prog = s.match(new RegExp(`${I}(?:['’]m| am)\\s+((?:${PLAN_VERBS})\\b.+?)[.!]?$`, 'i'));
  const intent = s.match(new RegExp(`${I}(?:['’]m| am)?\\s*(plan to|planning to|want to|hope to|intend to|will|['’]ll|am going to|['’]m going to)\\s+(.+?)[.!]?$`, 'i'));
  let content: string | undefined;
  let verb: string | undefined;
  if (prog?.[1] && !/^(?:going|planning) to\b/i.test(prog[1])) {
    content = `${c.who.speaker} is ${resolvePronouns(prog[1], c.who)}`;
    verb = prog[1].split(/\s+/)[0]?.toLowerCase();
  } else if (intent?.[1] && intent[2]) {
    const mode = intent[1].toLowerCase().replace(/^['’]/, '');
    const phrase = mode === 'll' || mode === 'will' ? 'will' : mode.includes('going') ? 'is going to'
      : `${thirdPerson(mode.split(' ')[0] ?? 'plan')} ${mode.endsWith('to') ? 'to' : ''}`.replace(/plannings/, 'is planning').trim();
    content = `${c.who.speaker} ${phrase} ${resolvePronouns(intent[2], c.who)}`;
    verb = intent[2].split(/\s+/)[0]?.toLowerCase();
  }
  if (!content || !verb) return [];
  // A plan fills a slot only when dated: a new destination for the same verb and date replaces it.
  const slot = datedPlanSlot(verb, dates, s);
  return [{ content, kind: 'plan', subject: 'speaker', slot, value: slot ? content : null, confidence: 0.7 }];
}

/**
 * The slot of a plan of `verb` dated `dates` (`plan:<verb>:<day>`), none when undated or when `sentence` cancels: "I need
 * to cancel my cleaning on Thursday" settles the booking it names, which a slot would keep it from (trial12 F11).
 */
function datedPlanSlot(verb: string, dates: string[], sentence: string): string | null {
  return dates.length > 0 && settles(sentence) !== 'cancelled' ? `plan:${verb}:${dates[0]}` : null;
}

/** "I need to renew my passport", "I have to return the books by Friday": an obligation with a time or a thing of its own. */
function obligation(c: RuleContext, dates: string[]): RuleFact[] {
  const o = readObligation(c.sentence, c.who, dates.length > 0);
  if (!o) return [];
  const slot = datedPlanSlot(o.verb, dates, c.sentence);
  return [{ content: o.content, kind: 'plan', subject: 'speaker', slot, value: slot ? o.content : null, confidence: 0.7 }];
}

/** "We'll have a picnic on Saturday", "let's meet up next week": a plan of the speaker's and the addressees' together. */
function jointPlan(c: RuleContext, dates: string[]): RuleFact[] {
  const joint = readJointPlan(c.sentence, c.who, dates.length > 0);
  if (!joint) return [];
  // A decision ("we decided to take the kids to the beach on Saturday") settles a proposal first: no slot, which would keep it from settling.
  const slot = dates.length > 0 && !settles(c.sentence) ? `plan:${joint.verb}:${dates[0]}` : null;
  return [{ content: joint.content, kind: 'plan', subject: 'speaker', slot, value: slot ? joint.content : null, confidence: 0.7, shared: joint.shared }];
}

const ARRANGEMENT_LEAD = /^(?:(?:then|so|okay|ok|alright|and|but|good news|great),?\s+)*/i;
/** Someone named by a noun phrase, then what they will or can do: "the plumber will come…", "a nurse can see you…". */
const ARRANGEMENT = new RegExp(String.raw`${ARRANGEMENT_LEAD.source.slice(1)}(?:the|a|an|our|your|my|his|her|their)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:will|['’]ll|can|could|is going to|are going to|is scheduled to|are scheduled to)\s+(?!not\b|never\b|be\b)[a-z]+`, 'i');

/**
 * A person named, or a group naming one ("Priya", "Priya and Ben", "Priya and others", "Priya, Ben and the team"), then
 * what they plan: "Priya and others plan to start the stand-up at 9" is their plan as "we plan to…" is ours (rules 99).
 * Only a verb of planning says an arrangement: a name's "will" or "is going to" is as often news, a forecast or a state
 * ("Google will release the new phone on Tuesday", "Liam will turn 30 on Friday", "Prices will rise next year") and
 * stays a statement (rules 103). Case-sensitive: each name capitalised (`namedArrangement`).
 */
const NAMED_ARRANGEMENT = /^((?:[A-Z][\p{L}'’-]+)(?:(?:\s*,\s*|,?\s+and\s+)(?:[A-Z][\p{L}'’-]+|others|some others|the others|the rest(?:\s+of\s+(?:them|the\s+team))?|the team|everyone else))*)\s+(?:plans?\s+to|(?:is|are)\s+planning\s+to|intends?\s+to|(?:is|are)\s+scheduled\s+to)\s+(?!not\b|never\b|be\b)[a-z]+/u;

/** True when `sentence` opens with {@link NAMED_ARRANGEMENT} whose every capitalised word could be a name, no day nor month. */
function namedArrangement(sentence: string): boolean {
  const m = NAMED_ARRANGEMENT.exec(sentence.replace(ARRANGEMENT_LEAD, ''));
  const names = m?.[1]?.match(/[A-Z][\p{L}'’-]+/gu) ?? [];
  return names.length > 0 && names.every((n) => n !== 'I' && !NOT_NAMES.has(n.toLowerCase()) && !isCalendarWord(n) && couldBeName(n, undefined, isMixedCase(sentence)));
}
/** The listener's booking told them: "you are booked with Dr. Patel…", "you're booked in for…", "you're now confirmed…". */
const LISTENER_BOOKED = new RegExp(String.raw`${ARRANGEMENT_LEAD.source.slice(1)}you(?:['’]re|\s+are)\s+(?:now\s+|all\s+)?(?:booked|scheduled|confirmed|registered)\b`, 'i');

/**
 * A time said before the subject: "Tomorrow morning I'm at the hospital", "On Friday, we…", "A couple of days ago I…"
 * (counted as every span is, spans.ts `COUNT`; rules 114, M6: "a couple of days" was read as a subject of its own).
 */
const TIME_LEAD = String.raw`(?:(?:tomorrow|today|tonight|yesterday|(?:on|this|next|last)\s+\w+|${SPAN_COUNT}\s+(?:days?|weeks?|months?|years?)\s+ago)`
  + String.raw`(?:\s+(?:morning|afternoon|evening|night))?,?\s+)?`;
/** A range of weekdays with a dash ("Mon-Wed", "Monday–Wednesday"; months.ts `WEEKDAY_DASH`). */
const DASHED_WEEKDAYS = new RegExp(WEEKDAY_DASH, 'gi');
const LEAD = String.raw`^(?:(?:oh|ah|well|okay|ok|sure|yes|yeah|right|thanks|thank you)[,!.]?\s+)*`;
/**
 * Said to keep the talk going, about nothing of its own: sympathy or gladness about what was just said ("I'm
 * really sorry about that"), taking note ("I'll remember that", "I'll keep it in mind"), going to bed.
 */
/** Gladness at what was just said ("glad to hear it", "good to know", "nice to hear that"). */
const GLAD = String.raw`(?:(?:so|really|very)\s+)?(?:glad|good|great|nice|happy|lovely)\s+to\s+(?:hear|know)(?:\s+(?:it|that|this))?`;
const MONTH_WORD = `(?:${MONTH_NAME})`;
const SMALL_TALK = [
  new RegExp(String.raw`${LEAD}I(?:['’]m| am)\s+(?:(?:really|so|very|truly|terribly|awfully)\s+)?(?:sorry|glad|happy|sad|pleased|relieved|thrilled)\s+(?:about|to hear|for)\s+(?:that|this|it|you)\s*(?:[,.;!]|$)`, 'i'),
  new RegExp(String.raw`${LEAD}I(?:['’]ll| will)\s+(?:(?:remember|note|keep|bear)\s+(?:it|that|this)(?:\s+in mind)?|make a note of (?:it|that|this))\s*(?:[,.;!]|$)`, 'i'),
  new RegExp(String.raw`${LEAD}I(?:['’]m| am)\s+(?:off\s+)?(?:(?:going|heading|off)\s+)?to\s+(?:bed|sleep)(?:\s+now)?\s*(?:[,.;!]|$)`, 'i'),
  // Well-wishing about what was just said ("I hope it heals quickly", "I hope you feel better soon"): no thing, person
  // or time of its own ("I hope the weather holds on Saturday" names one).
  new RegExp(String.raw`${LEAD}I\s+(?:(?:really|do|just|truly)\s+)?hope\s+(?:that\s+)?(?:it|that|this|things|everything|all|he|she|they|you)\b(?![^.!?]*\b(?:the|this|that|these|those|my|your|his|her|their|our|on|next|tomorrow|tonight|by|at)\b)[^.!?,;]{0,40}[.!]?$`, 'i'),
  // A leave-taking that names the next meeting already agreed ("No problem, see you Saturday", "Thanks, see you then"),
  // after a pleasantry too, with a time of any reach ("Glad to hear it, see you next month", "Great, see you in January"; rules 76).
  new RegExp(String.raw`^(?:(?:no problem|no worries|thanks|thank you|great|perfect|lovely|brilliant|ok|okay|right|alright|cheers|bye|${GLAD})[,!.]?\s+)*`
    + String.raw`see you(?:\s+(?:then|soon|later|tomorrow|tonight|there|(?:next|this)\s+(?:week|weekend|month|year|time)|in\s+(?:${MONTH_WORD}|a\s+(?:few\s+)?(?:days?|weeks?|months?)|(?:two|three|a\s+couple\s+of)\s+(?:days|weeks|months))|`
    + String.raw`(?:on\s+)?the\s+\d{1,2}(?:st|nd|rd|th)|on\s+\w+|${WEEKDAY_NAME})(?:\s+(?:morning|afternoon|evening|night|then))?)?\s*[.!]?$`, 'i'),
  // Running the meeting itself: "Morning all, let's keep it quick today", "Right, let's get started".
  /^(?:(?:(?:good\s+)?(?:morning|afternoon|evening)|hi|hello|hey|okay|ok|right|alright|so)(?:\s+(?:all|everyone|everybody|folks|team|guys))?[,!.]?\s+)?let['’]?s\s+(?:keep\s+(?:it|this)\s+(?:quick|short|brief)|get\s+(?:started|going)|start|begin|crack\s+on|wrap\s+(?:it|this)\s+up)(?:\s+(?:today|now|then|please))?\s*[.!]?$/i,
];

/** "Can Maisie sleep over on Saturday night?", "Could my sister stay with us next week?": asking leave for someone else. */
const LEAVE_ASKED = /^(?:(?:oh|and|so|mum|mom|dad|please),?\s+)*(?:can|could|may)\s+((?:my|our|his|her|their|the)\s+[a-z-]+|[A-Z][a-z'-]+)\s+(?!you\b|I\b|we\b)([a-z].*?)\s*\?$/i;

/**
 * A question asking leave for someone else, with a time ("Can Maisie sleep over on Saturday night?"): what the speaker
 * asked the people addressed, recorded as a request. Undated ("Can Tom swim?") it asks about an ability: nothing.
 */
function leaveAsked(c: RuleContext, dates: string[]): RuleFact[] {
  const m = LEAVE_ASKED.exec(c.sentence.trim());
  if (!m?.[1] || !m[2] || dates.length === 0 || /^(?:it|that|this|there)$/i.test(m[1])) return [];
  const tags = c.tags(m[2]);
  if (tags[0] !== 'VERB' && tags[0] !== 'NOUN') return [];
  const asked = c.who.addressees.length > 0 ? ` ${joinNames(c.who.addressees)}` : '';
  return [{ content: `${c.who.speaker} asked${asked} whether ${resolvePronouns(`${m[1]} can ${m[2]}`, c.who)}`, kind: 'request',
    subject: 'speaker', slot: null, value: null, confidence: 0.6 }];
}

/** A first-person clause after a comma ("…, we have the lemons in stock"), with the words before it. */
const LATER_FIRST = /^(.+?),\s+((?:so\s+|and\s+|but\s+)?(?:I|we)(?:['’](?:m|ll|ve|re|d)\b|\s).+)$/i;
/** Leads that only reply or judge ("Thanks so much", "Wow, that's amazing", "That sounds great"). */
const REPLY_LEAD = /^(?:(?:wow|aw+|oh|ah|haha|lol|omg|yay|hey|hi|hello|yes|yeah|yep|no|nope|well|um|hmm|okay|ok|sure|right|great|cool|nice|awesome|thanks|thank you|so much|very much|a lot|sorry|congrats|congratulations|no problem|no worries)\b[\s,!.]*)+$|^(?:that|it|this)(?:['’]s|\s+is|\s+was|\s+sounds|\s+looks|\s+seems)\s+(?:(?:so|really|very|totally|just|pretty|absolutely|such)\s+)*(?:an?\s+)?[a-z]+(?:\s+(?:idea|news|thing|one))?$/i;

/** Leads that are an act or a guess of their own: a negative imperative, "that'll / it would…", "since we last spoke". */
const ACT_LEAD = /^(?:don['’]t|do not|never)\s+[a-z]+|^(?:that|it)(?:['’]ll|['’]d|\s+will|\s+would|\s+must|\s+might|\s+could)\s+(?:probably\s+|likely\s+|definitely\s+)?be\s+(?:the|a|an|your|his|her|their|our)\s|^since\s+(?:we\s+last\s+[a-z]+|we\s+[a-z]+\s+last|then|yesterday|last\s+[a-z]+)$/i;

/**
 * A sentence whose informative part is a first-person clause after a comma, the words before it an act of its own: a
 * participle or an imperative ("Calling you back as promised, we have the lemons in stock"), a negative imperative
 * ("Don't worry about the helpers, we've got enough now"), a guess at a thing ("That'll probably be the brake pads, we'd
 * need to take a look"), a time since the last talk ("Since we last spoke, I took my kids to a park"): recorded whole, as
 * said. Other leads ("Thanks so much, I…", "It's a tough issue, but we…", "If we need help, we…") leave nothing.
 */
function laterFirstPerson(c: RuleContext, rest: string): RuleFact[] {
  const m = LATER_FIRST.exec(rest.replace(/[.!]+$/, ''));
  if (!m?.[1] || !m[2] || rest.endsWith('?') || m[2].split(/\s+/).length < 4) return [];
  const lead = m[1].trim();
  if (REPLY_LEAD.test(lead) || lead.split(/\s+/).length < 3) return [];
  const tags = c.tags(lead);
  // A participle or an imperative first, with no finite verb of its own ("Seeing my kids' smiles was…" has one).
  const act = tags[0] === 'VERB' && !tags.includes('AUX');
  if (tags.includes('INTJ') || !(act || ACT_LEAD.test(lead))) return [];
  const said = withoutLeadingWords(rest);
  return [{ content: capitalise(resolvePronouns(c.conjugate(said), c.who)), kind: 'statement', subject: 'speaker', slot: null,
    value: null, confidence: 0.45 }];
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "This pasta is lovely", "these biscuits are really good": a remark on what is here and now. */
const HERE_AND_NOW = /^(?:this|these)\s+[a-z]+\s+(?:is|are|['’]s)\s+(?:(?:so|really|very|absolutely|just|quite|pretty|too)\s+)*([a-z]+)\s*[.!]?$/i;

/** True for a remark on the thing at hand, judged by one adjective (`HERE_AND_NOW`): small talk, no memory. */
function remarkOnThingAtHand(c: RuleContext): boolean {
  const m = HERE_AND_NOW.exec(c.sentence.trim());
  return m?.[1] !== undefined && c.tags(m[1])[0] === 'ADJ';
}

/**
 * A whole clause of three words about someone named: a name, a verb and its object ("Liam likes tea", "Ava drinks
 * coffee"; rules 99), as "Liam likes tea and Ava likes coffee" tells two of them; not a courtesy sent (`namedClauseShape`).
 */
function namedClause(c: RuleContext): boolean {
  const said = c.sentence.replace(/[.!]+$/, '');
  return namedClauseShape(said.split(/\s+/), c.tags(said));
}

/** All rules over one sentence; falls back to a first-person statement when nothing matched. */
export function applyRules(c: RuleContext, dates: string[]): RuleFact[] {
  if (SMALL_TALK.some((re) => re.test(c.sentence)) || remarkOnThingAtHand(c)) return [];
  const stays = [...stayFacts(c.sentence, c.who, c.time), ...reportedStayFacts(c.sentence, c.who)];
  const out = [...introduction(c), ...preference(c), ...background(c), ...stays, ...relation(c)];
  // "I'll be in Berlin until the 20th": a stay, not a promise; "I'll be in Oslo from Monday": a stay to come, one plan.
  const cr = stays.length > 0 ? [] : commitmentOrRequest(c);
  out.push(...cr);
  if (cr.length === 0 && stays.length === 0 && !out.some((f) => f.kind === 'profile' && f.slot !== 'name')) {
    const own = plan(c, dates);
    const owed = own.length > 0 ? own : obligation(c, dates);
    out.push(...(owed.length > 0 ? owed : jointPlan(c, dates)));
  }
  const words = c.sentence.split(/\s+/).length;
  const onlyRelations = out.length > 0 && out.every((f) => f.kind === 'relation');
  // The statement fallback leaves out a self-introduction already recorded ("I'm Lena, I teach…").
  const intro = introductionOf(c.sentence);
  // "…, could it be Thursday?": the statement before a question tagged on.
  const rest = withoutIntroduction(c.sentence).replace(/^(.{12,}?),\s*(?:could|can|would|will|shall|is|does|do|how about|what about)\b[^,]*\?$/i, '$1');
  // "I'm off Mon-Wed.": a dashed range of weekdays is three words, as "Monday to Wednesday" is (rules 114, M7).
  const restWords = rest.replace(DASHED_WEEKDAYS, (m) => m.replace(/\s*[-–]\s*/, ' - ')).split(/\s+/).filter(Boolean).length;
  // "Maybe we should rent a van": a proposal, said as one.
  const firstPersonRest = new RegExp(String.raw`^(?:(?:well|so|yeah|oh|actually|and|but|maybe|perhaps|also|anyway|heads up|by the way|btw|just so you know|fyi),?\s+)*${TIME_LEAD}(?:I|my|we|our)\b`, 'i').test(rest);
  if ((out.filter((f) => f.slot !== 'name').length === 0 || (onlyRelations && words >= 5)) && firstPersonRest
    && restWords >= (intro ? 3 : 4) && !rest.endsWith('?')) {
    const said = withoutLeadingWords(rest);
    out.push({ content: resolvePronouns(c.conjugate(said), c.who), kind: 'statement',
      subject: 'speaker', slot: null, value: null, confidence: 0.5 });
  } else if (out.length === 0 && dates.length > 0 && (ARRANGEMENT.test(c.sentence) || namedArrangement(c.sentence) || (LISTENER_BOOKED.test(c.sentence) && c.who.addressees.length > 0))
    && !c.sentence.endsWith('?')) {
    // "An engineer can come on Wednesday the 16th", "Priya and others plan to start the stand-up at 9": an arrangement of
    // someone else's, dated; a later outcome or "instead" settles it like a plan. "You are booked with Dr. Patel on Tuesday at 10am": the listener's (rules 84).
    out.push({ content: resolvePronouns(c.sentence.replace(/[.!]+$/, '').replace(ARRANGEMENT_LEAD, ''), c.who), kind: 'plan',
      subject: 'speaker', slot: null, value: null, confidence: 0.5 });
  } else if (out.length === 0 && !firstPersonRest && (words >= 4 || namedClause(c)) && !c.sentence.endsWith('?') && c.reportsEvent(c.sentence)) {
    // An event told in the third person ("Eleven kids came to the planting day"), recorded as said; "when I brake" agrees.
    const told = withoutEventLead(c.sentence).replace(/[.!]+$/, '').replace(/,?\s+though$/i, '');
    out.push({ content: resolvePronouns(c.conjugate(capitalise(told)), c.who), kind: 'statement',
      subject: 'speaker', slot: null, value: null, confidence: 0.4 });
  } else if (out.length === 0 && !firstPersonRest) {
    out.push(...leaveAsked(c, dates));
    if (out.length === 0) out.push(...laterFirstPerson(c, rest));
  }
  // A statement recorded as said is cut to its first clause when over-long (an unpunctuated 10,000-character turn), or
  // left out when it has no clause bound: a fact is a clause, not a transcript (clause-cap.ts).
  return out.flatMap((f) => {
    if (f.kind !== 'statement') return [f];
    const content = clauseCapped(f.content);
    return content === null ? [] : [content === f.content ? f : { ...f, content }];
  });
}
