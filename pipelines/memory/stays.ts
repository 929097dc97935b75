import { resolvePronouns, type Perspective } from './pronouns.js';
import { COUNT, UNTIL } from './spans.js';
import { staySpan } from './stay-span.js';
import { CAPITALISED_MONTH_NAME, MONTH_NAME, WEEKDAY_NAME } from './months.js';

/**
 * Stays: where a person is for a time ("I'm staying in Madrid for two weeks", "I'll be in Berlin until the 20th",
 * "I'm visiting my parents in Ohio this month"), a profile memory of its own slot (`staying_in`) beside where they
 * live (`lives_in`), which it never replaces. Its end is the fact's own (`validUntil`, read by `stateEnd`), not its
 * text: the memory reads "Lena is staying in Madrid". And "until" clauses: "I'm working at Hooli until Friday" is
 * "works at Hooli", with the end a field (`withoutUntil`).
 */

/** Slot (and derived attribute) of a stay: where a person is for a time, beside their home (`lives_in`). */
export const STAY_SLOT = 'staying_in';

/** "I'm", "we're", "I'll be", "I'm going to be": a stay told as it holds now or from now. */
const SUBJECT = String.raw`\b(?:I|[Ww]e)(?:['’]m|['’]re|\s+am|\s+are|['’]ll\s+be|\s+will\s+be|(?:['’]m|\s+am|['’]re|\s+are)\s+going\s+to\s+be)(?:\s+(?:currently|still|now|just|actually|also|mostly))*`;
/** A place: capitalised words ("Madrid", "New York", "Stratford-upon-Avon"), "the" before them kept ("the Alps"). */
const PLACE = String.raw`((?:the\s+)?[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)`;
/** Kinds of place one stays at, named without a capital (rules 29). */
const PLACE_NOUN = String.raw`(?:place|house|home|flat|apartment|cottage|cabin|chalet|villa|farm|ranch|lodge|hotel|hostel|coast|beach|seaside|mountains|hills|lake|lakes|countryside|village|island|islands|campsite|caravan|retreat|resort|woods|forest)`;
/**
 * A place named by its kind, with a determiner or an owner: "the Alps" aside, "the mountains", "the beach house", "my
 * parents' place", "our cousin's flat", "a cabin" (rules 29).
 */
const COMMON_PLACE = String.raw`((?:the|my|our|a|an)\s+(?:[a-z][\w'’-]*\s+){0,2}${PLACE_NOUN})(?=\s+(?:for|until|till|til|through|thru|this|next|over|with|from|on|in|at|during|and|while|then)\b|\s*[,.;!?]|\s*$)`;
/** A count of days, nights, weeks or months ("two weeks", "a few days", "10 nights"), the count as every count is said (`COUNT`). */
const COUNTED_SPAN = String.raw`${COUNT}\s+(?:days?|nights?|weeks?|months?)`;
/** A season named whole ("the summer"): its end is where the next begins (`stateEnd`). */
export const SEASON = String.raw`(?:summer|winter|spring|autumn|fall)`;
/** "spending two weeks", "spending the summer": how long a stay lasts, said with the verb (rules 28). */
const SPENDING = String.raw`spending\s+(?:the\s+|this\s+)?(?:next\s+)?(?:${COUNTED_SPAN}|${SEASON}|weekend|Easter|Christmas)`;
/**
 * "staying (with my grandmother) in York", "away in Rome", "over in Dublin", "on holiday in Crete", "spending two weeks
 * (with my aunt) in Rome", or just "in Oslo".
 */
/** How a stay is told before its place: "staying", "away", "spending two weeks", "on holiday", or nothing ("I'm in Oslo"). */
const STAY_VERB = String.raw`(?:\s+(?:staying|away|over|out|off|based|${SPENDING}|on\s+(?:holiday|vacation|a\s+(?:work\s+|business\s+)?trip|business|leave)))?`;
const STAYING_IN = new RegExp(`${SUBJECT}${STAY_VERB}(?:\\s+((?:with|at)\\s+(?:my|our|a|an|the|some)\\s+[^,.;!?]+?))?\\s+in\\s+${PLACE}`);
/** "staying at my parents' place", "in the mountains", "on the coast", "at the beach house" (rules 29). */
const STAYING_AT = new RegExp(`${SUBJECT}${STAY_VERB}(?:\\s+(with\\s+(?:my|our|a|an|the|some)\\s+[^,.;!?]+?))?\\s+(in|at|on)\\s+${COMMON_PLACE}`);
/** "visiting my parents in Ohio", "visiting friends in Glasgow", "visiting Rome". */
const VISITING = new RegExp(`${SUBJECT}\\s+visiting\\s+(?:((?:my|our|some|a|an|the|his|her|their)?\\s*[a-z][^,.;!?]*?)\\s+in\\s+${PLACE}|${PLACE})`);
/** A person called by a family word, not a place ("visiting Grandma"). */
const FAMILY_NAME = /^(?:Grandma|Grandad|Granddad|Grandpa|Granny|Gran|Nan|Nana|Mum|Mom|Dad|Auntie|Aunty|Uncle|Aunt)\b/;
/** A month or a weekday is when, not where ("I'll be in June", "in Friday's meeting"). */
const DATE_NAME = new RegExp(`^(?:${CAPITALISED_MONTH_NAME}|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Christmas|Easter)\\b`);
/**
 * An end said in words: a span ("for two weeks", "for ten days", "for the weekend", "spending two weeks", "spending the
 * summer"), "until / till / through …", "this week / month", "the rest of …". A stay with none is left to the other rules ("I'm in Oslo" may be anything).
 */
const END_SAID = new RegExp(String.raw`\bfor\s+(?:the\s+)?(?:next\s+)?${COUNTED_SPAN}\b|\bfor\s+the\s+(?:week|weekend|month|${SEASON}|holidays)\b|\b${UNTIL}\s+\S|\bthis\s+(?:week|month|weekend)\b|\brest\s+of\s+the\b|\b${SPENDING}\b|\b(?:the|next)\s+weekend\b|\b(?:over|for|at|during)\s+(?:the\s+)?(?:Easter|Christmas)\b`, 'i');

/**
 * A start ahead named ("from Monday", "next week", "tomorrow", "on Friday", "in January"; not "until next month"): a stay
 * to come, a plan, not where the person is now.
 */
const STARTS_AHEAD = new RegExp(String.raw`(?<!\b${UNTIL}\s+(?:the\s+end\s+of\s+)?)\b(?:from\s+\S|starting\s+\S|tomorrow|next\s+(?:week|weekend|month|year)|on\s+${WEEKDAY_NAME}|in\s+(?:${MONTH_NAME}))`, 'i');

/** A stay a sentence tells: the place, and with or at whom the person stays ("with my grandmother") or whom they visit ("my parents"), as said. */
export interface Stay {
  place: string;
  /** The preposition before the place as said ("in Madrid", "at my parents' place", "on the coast"). */
  prep: string;
  company: string | null;
  visiting: string | null;
  /** Told with a start ahead ("next month I'm in Tokyo for two weeks", "from Monday"): a stay to come. */
  ahead: boolean;
}

/** A start ahead that names a span of its own ("next week", "in January"): a stay to come even with no end said. */
const AHEAD_SPAN = new RegExp(String.raw`\bnext\s+(?:week|month)\b|\bin\s+(?:${MONTH_NAME})\b`, 'i');

/**
 * The stay a first-person sentence tells, with an end said (`END_SAID`) or a start ahead that names a span (`AHEAD_SPAN`);
 * null otherwise or when it is a question.
 */
export function readStay(sentence: string): Stay | null {
  const ahead = STARTS_AHEAD.test(sentence);
  if (!(END_SAID.test(sentence) || (ahead && AHEAD_SPAN.test(sentence))) || /\?\s*$/.test(sentence)) return null;
  const place = (p: string | undefined): string | null => {
    const v = p?.replace(/\s+(?:Until|Till|For|This|Next|On)\b.*$/, '').trim();
    return v && !DATE_NAME.test(v.replace(/^the\s+/, '')) && !FAMILY_NAME.test(v) ? v : null;
  };
  const visit = VISITING.exec(sentence);
  const visited = place(visit?.[2] ?? visit?.[3]);
  if (visit && visited) return { place: visited, prep: 'in', company: null, visiting: visit[1]?.trim() || null, ahead };
  const stay = STAYING_IN.exec(sentence);
  const at = place(stay?.[2]);
  if (stay && at) return { place: at, prep: 'in', company: stay[1]?.trim() ?? null, visiting: null, ahead };
  const kind = STAYING_AT.exec(sentence);
  return kind ? { place: kind[3]!, prep: kind[2]!, company: kind[1]?.trim() ?? null, visiting: null, ahead } : null;
}

/** The shape of a rule's fact (`RuleFact`) that a stay gives. */
interface StayFact {
  content: string; kind: 'profile' | 'plan'; subject: 'speaker'; slot: string | null; value: string | null; confidence: number;
  profile?: { attribute: string; value: string };
  /** A stay said ahead: the `staying_in` memory holds from its start (`staySpan`), not from when said (rules 30). */
  ahead?: boolean;
}

/**
 * A stay as a rule's fact about the speaker: "Ned is staying in York with Ned's grandmother", "Tim is staying at Tim's
 * parents' place" (a `staying_in` profile memory). A stay that starts after `refIso` (said ahead, or the weekend or a
 * holiday to come: `staySpan`) is a plan, "Sol will be in Tokyo" (rules 29), and beside it the `staying_in` memory
 * marked `ahead`, which the extractor gives the stay's start (`validFrom`): it holds from then to its end (rules 30).
 */
export function stayFacts(sentence: string, who: Perspective, refIso?: string): StayFact[] {
  const stay = readStay(sentence);
  if (!stay) return [];
  const place = resolvePronouns(stay.place, who);
  const company = stay.company ? ` ${resolvePronouns(stay.company, who)}` : stay.visiting ? `, visiting ${resolvePronouns(stay.visiting, who)}` : '';
  // The span decides where it reads one: "in December" said in December holds now (life5), "next weekend" is ahead.
  const span = refIso === undefined ? null : staySpan(sentence, refIso);
  if (span ? span.start !== null : stay.ahead) {
    return [{ content: `${who.speaker} will be ${stay.prep} ${place}${company}`, kind: 'plan', subject: 'speaker', slot: null, value: null, confidence: 0.7 },
      { content: `${who.speaker} is staying ${stay.prep} ${place}${company}`, kind: 'profile', subject: 'speaker', slot: STAY_SLOT, value: place, confidence: 0.7, ahead: true }];
  }
  return [{
    content: `${who.speaker} is staying ${stay.prep} ${place}${company}`, kind: 'profile', subject: 'speaker', slot: STAY_SLOT,
    value: place, confidence: 0.8, profile: { attribute: STAY_SLOT, value: place },
  }];
}

/** Words that open a sentence and name no person ("The hotel is…", "Rome is…" is weeded out by its place). */
const NOT_A_PERSON = /^(?:The|This|That|These|Those|It|He|She|They|There|Here|What|Where|Who|Which|Everything|Everyone|Nothing|Someone)$/;
/** "My sister is", "our parents are", "my brother Tom is", "Mia's": a stay told of someone who is not a participant. */
const REPORTED_SUBJECT = /^((?:my|our|My|Our)\s+[a-z][a-z-]*(?:\s+[A-Z][a-z]+)?|[A-Z][a-z]+)\s+(?:is|are|['’]s|['’]re)\b/;

/**
 * A stay told of someone else who is no participant ("My sister is spending two weeks in Rome", "our parents are in
 * Spain next week"): the person as said, and the stay read as if they had told it (`readStay`). Null otherwise.
 */
export function readReportedStay(sentence: string): (Stay & { subject: string }) | null {
  const m = REPORTED_SUBJECT.exec(sentence);
  if (!m || NOT_A_PERSON.test(m[1]!)) return null;
  const stay = readStay(`I'm${sentence.slice(m[0].length)}`);
  return stay ? { ...stay, subject: m[1]! } : null;
}

/**
 * A stay told of someone who is not a participant, as a statement about them named the way other reports are ("Amy's
 * sister is staying in Rome"; ahead: "Amy's parents will be in Spain"), the end a field, not its words (rules 29).
 */
export function reportedStayFacts(sentence: string, who: Perspective): Array<{
  content: string; kind: 'statement'; subject: 'speaker'; slot: null; value: null; confidence: number;
}> {
  const stay = readReportedStay(sentence);
  if (!stay) return [];
  const subject = resolvePronouns(stay.subject, who);
  const company = stay.company ? ` ${resolvePronouns(stay.company, who)}` : stay.visiting ? `, visiting ${resolvePronouns(stay.visiting, who)}` : '';
  const verb = stay.ahead ? 'will be' : /\b(?:are|['’]re)\b/.test(sentence.slice(stay.subject.length, stay.subject.length + 6)) ? 'are staying' : 'is staying';
  return [{ content: `${subject.charAt(0).toUpperCase()}${subject.slice(1)} ${verb} ${stay.prep} ${resolvePronouns(stay.place, who)}${company}`,
    kind: 'statement', subject: 'speaker', slot: null, value: null, confidence: 0.6 }];
}

/** An "until" clause, to the end of its clause: "until Friday", "till June", "through the end of the year". */
const UNTIL_CLAUSE = new RegExp(String.raw`\s*\b${UNTIL}\s+(?:the\s+end\s+of\s+|next\s+|the\s+|this\s+)?[^,.;!?]*`, 'i');

/**
 * `text` without its "until" clause ("I'm working at Hooli until Friday, covering for Ann" → "I'm working at Hooli,
 * covering for Ann"): the end is the fact's own (`validUntil`), not its words. Unchanged when it has none.
 */
export function withoutUntil(text: string): string {
  return text.replace(UNTIL_CLAUSE, '');
}
