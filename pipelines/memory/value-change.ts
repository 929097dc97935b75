/**
 * A value of something changed (trial11 F1, F2): "change my road bike order to size 56 instead of 54", "my order is now
 * size 56, not 54", "move my repair from Tuesday to Thursday", and the agent's "I changed your order to size 56". The new
 * value is the fact: the fact holding the old value of the same thing is replaced (decide.ts), written again with the new
 * value (`retoldValue`), whoever asked for the change or confirmed it.
 */
import { terms } from '../../graph/lexical-terms.js';
import { DOCTOR_TRADES } from './grammar.js';
import { findDates } from './relative-date.js';
import { WEEKDAY_NAME } from './months.js';

/** What a change names: the thing changed, the value it had (null: not said) and the value it has now. */
export interface ValueChange {
  /** The words naming the thing ("road bike order", "repair"). */
  thing: string;
  from: string | null;
  to: string;
  /** True for a move in time or place ("move", "reschedule", "push"): said with no old value, it is left to the time rules. */
  move: boolean;
  /** The person the thing is for, where a possessive names one ("Leo" of "move Leo's checkup"; trial12 F6). */
  owner?: string;
  /**
   * True where the person is the thing (rules 68): "Maria is now with Cigna instead of Aetna" changes what Maria is "with";
   * `thing` is their name, `from` and `to` the values with the word before them ("with Aetna", "with Cigna").
   */
  self?: true;
}

const CHANGE_VERB = String.raw`(?:chang(?:e|es|ed|ing)|switch(?:es|ed|ing)?|swap(?:s|ped|ping)?|updat(?:e|es|ed|ing)|(mov(?:e|es|ed|ing)|reschedul(?:e|es|ed|ing)|push(?:es|ed|ing)?|shift(?:s|ed|ing)?))`;
/** A title before a name ("Dr. Patel's appointment"; rules 98). */
const TITLE = String.raw`(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)`;
/** Whose the thing is: a determiner or a possessive ("my", "your", "Maria's", "Dr. Patel's"). */
const OWNER = String.raw`(?:the|my|your|their|his|her|our|${TITLE}?(?:[A-Z][\p{L}-]*\s+){0,2}[A-Z][\p{L}-]*['’]s)`;
/** A thing: one to four words, a title among them ("appointment with Dr. Patel"; rules 87). */
const THING = String.raw`((?:(?:[\p{L}-]+|(?:Dr|Mr|Mrs|Ms|Prof)\.)\s+){0,3}?[\p{L}-]+)`;
/** A value: one to six words, up to the clause end. */
const VALUE = String.raw`([\p{L}\d][\p{L}\d'’-]*(?:\s+[\p{L}\d][\p{L}\d'’-]*){0,5}?)`;
const AGAINST = String.raw`\s*,?\s+(?:instead\s+of|rather\s+than|not)\s+`;
const END = String.raw`\s*(?:[.!?]|$|,\s*(?:please|thanks|thank\s+you)\b)`;

/** "change my order to size 56 instead of 54", "move their repair from Tuesday … to Thursday …". */
const CHANGED = new RegExp(String.raw`\b${CHANGE_VERB}\s+${OWNER}\s+${THING}\s+(?:from\s+${VALUE}\s+)?to\s+${VALUE}(?:${AGAINST}${VALUE})?${END}`, 'iu');
/** "my road bike order is now size 56, not 54", "the repair is on Thursday now, not Tuesday". */
const IS_NOW = new RegExp(String.raw`\b${OWNER}\s+${THING}\s+(?:is|are)\s+(?:now\s+${VALUE}|${VALUE}\s+now)${AGAINST}${VALUE}${END}`, 'iu');

/**
 * A person told as with, at or in something now, against what they were before (rules 68): "Maria is now with Cigna instead
 * of Aetna", "Sam is at Google now, not Meta". The word before the value ("with") is the frame both values are said in.
 */
const SELF_IS_NOW = new RegExp(String.raw`^([A-Z][\p{L}-]*(?:\s+[A-Z][\p{L}-]*)*)\s+(?:is|are)\s+(?:now\s+(with|at|in|on|under|through)\s+${VALUE}|(with|at|in|on|under|through)\s+${VALUE}\s+now)${AGAINST}(?:(with|at|in|on|under|through)\s+)?${VALUE}${END}`, 'u');

/**
 * The same with no "now" (rules 72): "Maria is with Cigna instead of Aetna". Only against "instead of" / "rather than",
 * and only between two names (`NAMED`): "Maria is with Ana instead of alone", "…at home instead of at work" or "…on Monday
 * instead of Tuesday" (a day, `findDates`) tell where someone is, or when, no value of theirs changed.
 */
const SELF_INSTEAD = new RegExp(String.raw`^([A-Z][\p{L}-]*(?:\s+[A-Z][\p{L}-]*)*)\s+(?:is|are)\s+(with|at|in|on|under|through)\s+${VALUE}\s*,?\s+(?:instead\s+of|rather\s+than)\s+(?:(?:with|at|in|on|under|through)\s+)?${VALUE}${END}`, 'u');
/** A value that is a name: every word capitalised ("Cigna", "Blue Cross"), none a word of time. */
const NAMED = /^\p{Lu}[\p{L}\d'’-]*(?:\s+\p{Lu}[\p{L}\d'’-]*)*$/u;
/** Words that open a clause and name no one ("If Maria is…", "When Sam is…"). */
const NOT_PERSON = /^(?:It|That|This|He|She|They|We|I|You|There|If|When|Whether|Unless|Once|While|Because|Maybe|Perhaps|So|And|But|Or)$/;

/**
 * A booking told as it stands now, on a day (trial12 F6): "Leo is now booked for Monday 7 December 2026 at 4pm", "Sam's
 * cleaning is now on Thursday 10 December 2026 at 11am". A move to that day, of the person's booking or of the thing.
 */
const NOW_BOOKED = String.raw`\s+(?:is|are)\s+now\s+(?:(?:booked|scheduled|rebooked|moved|set)\s+)?(?:for|on|to)\s+${VALUE}${END}`;
const NAME_NOW_BOOKED = new RegExp(String.raw`(?:^|[,;]\s*)([A-Z][\p{L}-]*)${NOW_BOOKED}`, 'u');
const THING_NOW_BOOKED = new RegExp(String.raw`\b${OWNER}\s+${THING}${NOW_BOOKED}`, 'iu');

/** Things no change of value is about: a mind changed, plans in general. */
const NO_THING = /^(?:mind|minds|plan|plans|life|way|tune)$/i;

/**
 * The value change `content` tells, or null: a change verb before an owned thing and "to" a value ("instead of" / "from"
 * an old one), or an owned thing that "is now" one value, "not" another. A question or a denial changes nothing.
 */
export function changedValue(content: string): ValueChange | null {
  if (/\?\s*$/.test(content)) return null;
  const c = CHANGED.exec(content);
  if (c) {
    const [, move, thing, from1, to, from2] = c;
    const from = from1 ?? from2 ?? null;
    // Whose the thing moved is, for a move naming no old day (decide.ts `movedFor`).
    // "moved Maria Lopez's appointment": the whole name (rules 87).
    // "moved Dr. Patel's appointment": the title with it (rules 98).
    const owner = move !== undefined ? new RegExp(String.raw`^\S+\s+(${TITLE}?(?:[A-Z][\p{L}-]*\s+){0,2}[A-Z][\p{L}-]*)['’]s\s`, 'u').exec(c[0].trim())?.[1] : undefined;
    if (thing && to && !NO_THING.test(thing.split(/\s+/).pop()!) && !denied(content, c.index)) {
      return { thing, from, to: to.trim(), move: move !== undefined, ...(owner ? { owner } : {}) };
    }
  }
  const booked = nowBooked(content);
  if (booked) return booked;
  const n = IS_NOW.exec(content);
  if (n) {
    const [, thing, to1, to2, from] = n;
    const to = to1 ?? to2;
    if (thing && to && from && !denied(content, n.index)) return { thing, from, to: to.replace(/^on\s+/i, ''), move: false };
  }
  const p = SELF_IS_NOW.exec(content);
  if (p) {
    const [, name, frame1, to1, frame2, to2, fromFrame, from] = p;
    const frame = (frame1 ?? frame2)!.toLowerCase();
    const to = (to1 ?? to2)!.trim();
    // The old value in the frame said with it ("in bed, not at the gym": "at the gym"), else in the new one's.
    if (name && from && !NOT_PERSON.test(name.split(/\s+/)[0]!)) {
      return { thing: name, from: `${(fromFrame ?? frame).toLowerCase()} ${from.trim()}`, to: `${frame} ${to}`, move: false, self: true };
    }
  }
  const q = SELF_INSTEAD.exec(content);
  if (q) {
    const [, name, frame, to, from] = q;
    const named = (v: string): boolean => NAMED.test(v.trim()) && findDates(v, SOME_TIME).length === 0;
    if (name && to && from && !NOT_PERSON.test(name.split(/\s+/)[0]!) && named(to) && named(from)) {
      return { thing: name, from: `${frame!.toLowerCase()} ${from.trim()}`, to: `${frame!.toLowerCase()} ${to.trim()}`, move: false, self: true };
    }
  }
  return null;
}

/** The move a booking told as it stands now on a day tells ("Leo is now booked for Monday …"), or null. */
function nowBooked(content: string): ValueChange | null {
  const t = THING_NOW_BOOKED.exec(content);
  const p = t ? null : NAME_NOW_BOOKED.exec(content);
  const m = t ?? p;
  const to = m?.[2]?.trim();
  if (!m || !to || !namesDay(to) || denied(content, m.index)) return null;
  if (p) return /^(?:It|That|This|He|She|They|We|I|You)$/.test(p[1]!) ? null : { thing: 'booking', from: null, to, move: true, owner: p[1]! };
  const owner = /^([A-Z][\p{L}-]*)['’]s\s/u.exec(m[0].trim())?.[1];
  return { thing: t![1]!, from: null, to, move: true, ...(owner ? { owner } : {}) };
}

/** A negation, a condition or a modal of doubt before the change in its clause ("I didn't change my order…", "if you change…"). */
function denied(content: string, at: number): boolean {
  const before = content.slice(0, at).split(/[,;:]/).pop() ?? '';
  return /\b(?:not|never|if|whether|might|could)\b|n['’]t\b/i.test(before);
}

/** Weekdays and months: a day written out ("Tuesday 10 November 2026") is matched and replaced whole. */
const DAY_WORD = new RegExp(`^${WEEKDAY_NAME}$`, 'i');

/** Any instant: the dates a stored fact holds are written out ("Friday 4 December 2026"), so none is read from it. */
const SOME_TIME = '2026-01-01T00:00:00.000Z';

/**
 * The words of `value` as it is written in `text` (a day with its date, else the words), or null when `text` does not hold
 * it. Words of a value that is no date are never read inside a date ("4" of "Friday 4 December 2026"), and a value held
 * more than once outside dates ("4 bikes and 4 helmets") is held nowhere: which one changed is not known (reviewB HIGH 3).
 */
function heldSpan(text: string, value: string): RegExpExecArray | null {
  const words = value.trim().split(/\s+/);
  const first = words[0]!.replace(/[^\p{L}\d'’-]/gu, '');
  if (!first) return null;
  const esc = (w: string): string => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (DAY_WORD.test(first)) return new RegExp(String.raw`\b${esc(first)}(?:\s+\d{1,2}\s+[A-Z][a-z]+\s+\d{4})?\b`, 'i').exec(text);
  const all = [...text.matchAll(new RegExp(String.raw`(?<![\p{L}\d])${words.map(esc).join('\\s+')}(?![\p{L}\d])`, 'giu'))];
  const lower = text.toLowerCase();
  const dates = (all.length === 0 || findDates(value, SOME_TIME).length > 0 ? [] : findDates(text, SOME_TIME)).flatMap((d) => {
    const spans: [number, number][] = [];
    for (let at = lower.indexOf(d.phrase.toLowerCase()); at >= 0 && d.phrase; at = lower.indexOf(d.phrase.toLowerCase(), at + 1)) spans.push([at, at + d.phrase.length]);
    return spans;
  });
  const outside = all.filter((m) => !dates.some(([from, to]) => m.index < to && from < m.index + m[0].length));
  return outside.length === 1 ? outside[0] as RegExpExecArray : null;
}

/** True when `value` is a day ("Thursday 12 November 2026"). */
export function namesDay(value: string): boolean {
  return DAY_WORD.test(value.trim().split(/\s+/)[0] ?? '');
}

/**
 * True when `text` tells, in the present, the person of a change of their own (`ValueChange.self`) with `value` and nothing
 * else: "Maria is with Aetna" for "with Aetna" (findingsD H1). Not a past or planned fact that holds the words ("Maria studied
 * art in Paris", "Maria is going to the cinema with Ana", "Maria had lunch with Ana at work"): where someone is now, or who
 * with, changes none of them.
 */
export function tellsSelf(text: string, change: ValueChange, value: string): boolean {
  const esc = (w: string): string => w.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  return new RegExp(String.raw`^${esc(change.thing)}\s+(?:is|are)\s+(?:now\s+|still\s+)?${esc(value)}\s*[.!]?$`, 'iu').test(text.trim());
}

/** True when `text` holds `value` (a day by its weekday, else the words, case aside). */
export function holdsValue(text: string, value: string): boolean {
  return heldSpan(text, value) !== null;
}

/** Words that name a kind of thing, no one thing ("order", "booking"): a change of "my order" may be of any order. */
const GENERIC = new Set(terms('order orders booking bookings reservation reservations appointment appointments request requests purchase'));

/**
 * The terms that tell the thing of `change` from others ("road", "bike" of "road bike order"; "helmet"), people's names
 * (`people`) and generic words aside; none when only a generic word names it ("my order").
 */
export function thingTerms(change: ValueChange, people: readonly string[] = []): string[] {
  const skip = new Set(people.flatMap(terms));
  return terms(change.thing).filter((t) => t.length > 2 && !skip.has(t) && !GENERIC.has(t));
}

/** The terms of a doctor's trade ("dentist", "vet"; grammar.ts `DOCTOR_TRADES`). */
const DOCTOR_TERMS = new Set(terms([...DOCTOR_TRADES].join(' ')));
/** A doctor named by title ("with Dr. Patel", "Dr Kim"). */
const WITH_DOCTOR = /\bDr\.?\s+\p{Lu}/u;

/**
 * The terms of {@link thingTerms} that `text` must still name to be the thing: a doctor's trade aside where `text` names a
 * doctor by title ("dentist" of "your dentist appointment" is met by "…booked in with Dr. Patel…"; rules 98).
 */
export function unmetThingTerms(text: string, change: ValueChange, people: readonly string[] = []): string[] {
  const own = thingTerms(change, people);
  return WITH_DOCTOR.test(text) ? own.filter((t) => !DOCTOR_TERMS.has(t)) : own;
}

/**
 * True when `text` names the thing of `change`: every term that tells it from others (`thingTerms`, stems matched:
 * "bike" / "bikes"), or, when only a generic word names it ("my order"), that word (reviewB HIGH 2).
 */
export function namesThing(text: string, change: ValueChange, people: readonly string[] = []): boolean {
  const said = new Set(terms(text));
  const own = thingTerms(change, people);
  if (own.length > 0) return own.every((t) => said.has(t));
  const skip = new Set(people.flatMap(terms));
  return terms(change.thing).some((t) => t.length > 2 && !skip.has(t) && said.has(t));
}

/** A clock time said after a day ("at 11am", "at 9:30 pm"). */
const CLOCK = String.raw`\s+at\s+\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)`;

/**
 * How many characters of the old clock time follow the day `m` of `text` ("…on Tuesday 8 December 2026 at 10am"), where the
 * new value names a day with a time of its own ("Thursday 10 December 2026 at 11am"): the new time replaces the old one
 * (trial12 F5: "…at 11am at 10am"). 0 where the new value says no time (a day moved keeps its hour) or none follows.
 */
function oldClock(text: string, m: RegExpExecArray, value: string, to: string): number {
  if (!namesDay(value) || !new RegExp(CLOCK, 'i').test(` ${to}`)) return 0;
  return new RegExp(`^${CLOCK}(?![\\p{L}\\d])`, 'iu').exec(text.slice(m.index + m[0].length))?.[0].length ?? 0;
}

/**
 * `text` with the value it holds written as the new one: the old value said (`from`: "54" in "size 54", the words the new
 * value begins with taken in, "size 54" → "size 56"; a day with its date), else a value of the new one's form ("size 54"
 * for "size 56"). Null when `text` holds neither.
 */
export function retoldValue(text: string, change: ValueChange): string | null {
  const to = change.to.trim();
  const toWords = to.split(/\s+/);
  const candidates: string[] = [];
  if (change.from) {
    const fromWords = change.from.trim().split(/\s+/);
    // "to size 56 instead of 54": the old value is said without the word the new one opens with.
    if (fromWords.length < toWords.length) candidates.push([...toWords.slice(0, toWords.length - fromWords.length), ...fromWords].join(' '));
    candidates.push(change.from);
  }
  for (const value of candidates) {
    const m = heldSpan(text, value);
    if (m) return `${text.slice(0, m.index)}${to}${text.slice(m.index + m[0].length + oldClock(text, m, value, to))}`;
  }
  if (change.from || toWords.length < 2) return null;
  // No old value said ("I changed your order to size 56"): a value of the same form, the same words before one other.
  const head = toWords.slice(0, -1).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  const m = new RegExp(String.raw`(?<![\p{L}\d])${head}\s+[\p{L}\d][\p{L}\d'’-]*`, 'iu').exec(text);
  return m ? `${text.slice(0, m.index)}${to}${text.slice(m.index + m[0].length)}` : null;
}
