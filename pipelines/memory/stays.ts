import { resolvePronouns, type Perspective } from './pronouns.js';

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
/** A place: capitalised words ("Madrid", "New York", "Stratford-upon-Avon"). */
const PLACE = String.raw`([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)`;
/** A count of days, nights, weeks or months ("two weeks", "a few days", "10 nights"). */
const COUNTED_SPAN = String.raw`(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several|\d+)\s+(?:days?|nights?|weeks?|months?)`;
/** A season named whole ("the summer"): its end is where the next begins (`stateEnd`). */
export const SEASON = String.raw`(?:summer|winter|spring|autumn|fall)`;
/** "spending two weeks", "spending the summer": how long a stay lasts, said with the verb (rules 28). */
const SPENDING = String.raw`spending\s+(?:the\s+)?(?:next\s+)?(?:${COUNTED_SPAN}|${SEASON})`;
/**
 * "staying (with my grandmother) in York", "away in Rome", "over in Dublin", "on holiday in Crete", "spending two weeks
 * (with my aunt) in Rome", or just "in Oslo".
 */
const STAYING_IN = new RegExp(`${SUBJECT}(?:\\s+(?:staying|away|over|out|off|based|${SPENDING}|on\\s+(?:holiday|vacation|a\\s+(?:work\\s+|business\\s+)?trip|business|leave)))?(?:\\s+((?:with|at)\\s+(?:my|our|a|an|the|some)\\s+[^,.;!?]+?))?\\s+in\\s+${PLACE}`);
/** "visiting my parents in Ohio", "visiting friends in Glasgow", "visiting Rome". */
const VISITING = new RegExp(`${SUBJECT}\\s+visiting\\s+(?:((?:my|our|some|a|an|the|his|her|their)?\\s*[a-z][^,.;!?]*?)\\s+in\\s+${PLACE}|${PLACE})`);
/** A person called by a family word, not a place ("visiting Grandma"). */
const FAMILY_NAME = /^(?:Grandma|Grandad|Granddad|Grandpa|Granny|Gran|Nan|Nana|Mum|Mom|Dad|Auntie|Aunty|Uncle|Aunt)\b/;
/** A month or a weekday is when, not where ("I'll be in June", "in Friday's meeting"). */
const DATE_NAME = /^(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Christmas|Easter)\b/;
/**
 * An end said in words: a span ("for two weeks", "for ten days", "for the weekend", "spending two weeks", "spending the
 * summer"), "until / till / through …", "this week / month", "the rest of …". A stay with none is left to the other rules ("I'm in Oslo" may be anything).
 */
const END_SAID = new RegExp(String.raw`\bfor\s+(?:the\s+)?(?:next\s+)?${COUNTED_SPAN}\b|\bfor\s+the\s+(?:week|weekend|month|${SEASON}|holidays)\b|\b(?:until|till|til|through|thru)\s+\S|\bthis\s+(?:week|month|weekend)\b|\brest\s+of\s+the\b|\b${SPENDING}\b`, 'i');

/**
 * A start ahead named ("from Monday", "next week", "tomorrow", "on Friday", "in January"; not "until next month"): a stay
 * to come, a plan, not where the person is now.
 */
const STARTS_AHEAD = /(?<!\b(?:until|till|til|through|thru)\s+(?:the\s+end\s+of\s+)?)\b(?:from\s+\S|starting\s+\S|tomorrow|next\s+(?:week|weekend|month|year)|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day|in\s+(?:january|february|march|april|may|june|july|august|september|october|november|december))/i;

/** A stay a sentence tells: the place, and with or at whom the person stays ("with my grandmother") or whom they visit ("my parents"), as said. */
export interface Stay {
  place: string;
  company: string | null;
  visiting: string | null;
}

/** The stay a first-person sentence tells, with an end said (`END_SAID`); null otherwise or when it is a question. */
export function readStay(sentence: string): Stay | null {
  if (!END_SAID.test(sentence) || STARTS_AHEAD.test(sentence) || /\?\s*$/.test(sentence)) return null;
  const place = (p: string | undefined): string | null => {
    const v = p?.replace(/\s+(?:Until|Till|For|This|Next|On)\b.*$/, '').trim();
    return v && !DATE_NAME.test(v) && !FAMILY_NAME.test(v) ? v : null;
  };
  const visit = VISITING.exec(sentence);
  const visited = place(visit?.[2] ?? visit?.[3]);
  if (visit && visited) return { place: visited, company: null, visiting: visit[1]?.trim() || null };
  const stay = STAYING_IN.exec(sentence);
  const at = place(stay?.[2]);
  return stay && at ? { place: at, company: stay[1]?.trim() ?? null, visiting: null } : null;
}

/** A stay as a rule's fact about the speaker (the shape of `RuleFact`): "Ned is staying in York with Ned's grandmother". */
export function stayFacts(sentence: string, who: Perspective): Array<{
  content: string; kind: 'profile'; subject: 'speaker'; slot: string; value: string; confidence: number; profile: { attribute: string; value: string };
}> {
  const stay = readStay(sentence);
  if (!stay) return [];
  const company = stay.company ? ` ${resolvePronouns(stay.company, who)}` : stay.visiting ? `, visiting ${resolvePronouns(stay.visiting, who)}` : '';
  return [{
    content: `${who.speaker} is staying in ${stay.place}${company}`, kind: 'profile', subject: 'speaker', slot: STAY_SLOT,
    value: stay.place, confidence: 0.8, profile: { attribute: STAY_SLOT, value: stay.place },
  }];
}

/** An "until" clause, to the end of its clause: "until Friday", "till June", "through the end of the year". */
const UNTIL_CLAUSE = /\s*\b(?:until|till|til|through|thru)\s+(?:the\s+end\s+of\s+|next\s+|the\s+|this\s+)?[^,.;!?]*/i;

/**
 * `text` without its "until" clause ("I'm working at Hooli until Friday, covering for Ann" → "I'm working at Hooli,
 * covering for Ann"): the end is the fact's own (`validUntil`), not its words. Unchanged when it has none.
 */
export function withoutUntil(text: string): string {
  return text.replace(UNTIL_CLAUSE, '');
}
