/**
 * A change of plan that tells only a new time for it (fix9, issue #16 F3): "change of plan, we're going on Sunday now",
 * "we moved it to Sunday", "it's Sunday, not Saturday", "…on Sunday instead of Saturday". The sentence settles the plan
 * as an alternative ("instead", `retellsTime`); where it names no thing of its own, the plan it moves is written again
 * with the new day (`retimedText`: "Sarah and others are going to grandma's on Sunday 6 December 2026"), so the moved
 * plan still says what it is.
 */
import type { Fact } from '../../graph/memory-store.js';
import { bareHour, bareHourSaid, eveningOuting, hourInstead, spokenClock, type HourInstead } from './clock-time.js';
import { spokenDate } from './date-text.js';
import { eveningBooked } from './plan-object.js';
import { MONTH_SAID, WEEKDAY_NAME } from './months.js';

/** A day or date as said: a weekday, "tomorrow", "the weekend", "the 12th", a month's day. */
const DAY = String.raw`(?:(?:next|this|the)\s+)?(?:${WEEKDAY_NAME}|tomorrow|tonight|weekend|`
  + String.raw`(?:the\s+)?\d{1,2}(?:st|nd|rd|th)|(?:${MONTH_SAID})\.?\s+\d{1,2}(?:st|nd|rd|th)?)`;

/** Words that say the plan changed ("change of plan", "plans have changed", "new plan"). */
const CHANGE_OF_PLAN = /\b(?:change of plans?|(?:the\s+)?plans?\s+(?:has\s+|have\s+)?changed|new plan)\b/i;
/** A move told in the active ("we moved it to Sunday", "I've pushed the dentist back to Friday", "switched it to the 12th"). */
const MOVED_TO = new RegExp(String.raw`\b(?:moved|rescheduled|postponed|pushed|brought|put|changed|switched|shifted|bumped)\s+`
  + String.raw`(?:(?:it|that|this|them|(?:the|our|my|his|her|their)\s+[\w'’-]+(?:\s+[\w'’-]+)?)\s+)?(?:back\s+|forward\s+)?(?:to|till|until)\s+(?:on\s+)?${DAY}\b`, 'i');
/** A day said with "now" ("we're going on Sunday now", "it's now on Sunday"): the time as it stands, after a change. */
const DAY_NOW = new RegExp(String.raw`\b(?:on\s+)?${DAY}\s+now\b|\bnow\s+(?:on\s+)?${DAY}\b`, 'i');
/** One day told against another ("Sunday, not Saturday", "not Saturday but Sunday", "on Sunday rather than Saturday"). */
const DAY_NOT_DAY = new RegExp(String.raw`\b${DAY}\s*,?\s+(?:and\s+)?not\s+(?:on\s+)?${DAY}\b|\bnot\s+(?:on\s+)?${DAY}\s*,?\s+but\s+(?:on\s+)?${DAY}\b`, 'i');

/**
 * What a day said with "now" or against another day moves: "it", "that", "we", the plan ("it's Sunday now", "we're going
 * on Sunday now"); "I'm free on Sunday now" and "the shop is closed on Sunday, not Saturday" move no plan.
 */
const SHARED_THING = /\b(?:it|that|this|we|the\s+plans?|everything)(?:['’](?:s|re))?\b/i;
/** Someone's or something's state on a day ("free on Sunday", "busy Saturday", "closed on Sunday"): no plan moved. */
const STATE_ON_DAY = new RegExp(String.raw`\b(?:free|busy|available|off|working|home|away|out|open|closed|shut)\s+(?:on\s+)?${DAY}`, 'i');

/**
 * True when `sentence` tells a plan's new time: "change of plan" with a day, a move to a day in the active, a day said with
 * "now" or one day against another, of a shared thing (`SHARED_THING`). "We moved the sofa to the window" names no day;
 * "I'm going to bed now" neither; a state on a day ("we're free on Sunday now") moves nothing.
 */
export function retellsTime(sentence: string): boolean {
  if (/\?\s*$/.test(sentence) || STATE_ON_DAY.test(sentence)) return false;
  return MOVED_TO.test(sentence) || (SHARED_THING.test(sentence) && (DAY_NOW.test(sentence) || DAY_NOT_DAY.test(sentence)))
    || (CHANGE_OF_PLAN.test(sentence) && new RegExp(String.raw`\b${DAY}\b`, 'i').test(sentence));
}

/** A plan written again: its text, slot and kind. */
export interface Retold {
  content: string;
  slot: string | null;
  kind: Fact['kind'];
  /** Whose it is, where another person's fact is written again (an agent's "I changed your order to size 56"; value-change.ts). */
  subjectId?: string;
  /** What it is about, where the fact written again is another one's (value-change.ts). */
  planObject?: Fact['planObject'];
  /** When it happens, where a value written again is no day (value-change.ts): the replaced fact's. */
  eventTime?: string | null;
}

/** A clock time as the rules write it after a day (" at 10am", " at 7:30pm", " at noon"; clock-time.ts `spokenClock`). */
const CLOCK_AFTER = /^\s+at\s+(?:\d{1,2}(?::\d{2})?(?:am|pm)|noon|midnight)(?![\w])/i;

/**
 * The plan `plan` moved to the new day of `said` (an alternative that names no thing of its own: "we're going on Sunday
 * now"): its text with its day written as the new one, its slot's date with it, and its kind; null when the plan's text
 * does not write its day as the date reader does, or the day is the same and no new hour is said with it. A time of day
 * said with the new day (`said.content`: "…on Saturday 5 December 2026 at 7am") replaces the plan's (rules 68); none
 * said, the plan's stays. A bare hour in the `words` said ("let's do Saturday at 7 instead") is read with the booking
 * it moves (`bookingsHour`; rules 82).
 */
export function retimedText(plan: Fact, said: { eventTime?: string | null; content?: string }, words?: string): Retold | null {
  const from = plan.eventTime;
  const to = said.eventTime;
  if (!from || !to || from.length !== 10 || to.length !== 10) return null;
  const old = spokenDate(from);
  const at = plan.content.indexOf(old);
  if (at < 0) return null;
  // "Can we do Saturday at seven instead?": the new time of day replaces the plan's old one ("…at 10am"); none said, it stays.
  const oldClock = CLOCK_AFTER.exec(plan.content.slice(at + old.length))?.[0] ?? '';
  const newDay = spokenDate(to);
  const newAt = said.content?.indexOf(newDay) ?? -1;
  const told = newAt < 0 ? null : CLOCK_AFTER.exec(said.content!.slice(newAt + newDay.length))?.[0] ?? null;
  const newClock = told && words !== undefined ? bookingsHour(told, words, plan) : told;
  // The same day at another hour ("Okay, I moved it to Thursday at 4pm" after it was moved to Thursday at 3pm): the hour
  // written again, so the booking still says whom it is with (rules 93); the same day with no new hour, no retelling.
  if (from === to && (!newClock || newClock.trim().toLowerCase() === oldClock.trim().toLowerCase())) return null;
  const content = `${plan.content.slice(0, at)}${newDay}${newClock ?? oldClock}${plan.content.slice(at + old.length + oldClock.length)}`;
  const slot = plan.slot?.endsWith(`:${from}`) ? `${plan.slot.slice(0, -from.length)}${to}` : plan.slot;
  return { content, slot, kind: plan.kind };
}

/**
 * True when `plan` is already at the day (and time of day, where one is said) that `said` moves it to: "Done, moved to
 * Thursday at 3pm" after the booking was moved there at the caller's asking tells it again (rules 87).
 */
export function alreadyAt(plan: Fact, said: { eventTime?: string | null; content?: string }): boolean {
  const to = said.eventTime;
  if (!to || to.length !== 10 || plan.eventTime !== to || !said.content) return false;
  const day = spokenDate(to);
  const at = said.content.indexOf(day);
  if (at < 0) return false;
  const clock = CLOCK_AFTER.exec(said.content.slice(at + day.length))?.[0] ?? '';
  return plan.content.includes(`${day}${clock}`);
}


/**
 * Whether the booking `plan` is an outing of the evening (clock-time.ts `bareHour`): by the thing plan-object.ts read it
 * to be about (`eveningBooked`; rules 82), else by its words (`eveningOuting`).
 */
function eveningPlan(plan: Fact): boolean {
  return plan.planObject ? eveningBooked(plan.planObject, plan.content) : eveningOuting(plan.content);
}

/**
 * The clock ` at 7am` a new day was said with, read again where the `words` said its hour bare ("let's do Saturday at 7
 * instead"): by the booking `plan` it moves, not the words of the new sentence alone, so a table at Luigi's on Friday at
 * 8pm moves to Saturday at 7pm and a dentist's appointment keeps business hours (clock-time.ts `bareHour`; rules 82).
 */
function bookingsHour(clock: string, words: string, plan: Fact): string {
  const at = minutesOf(clock);
  if (at === null) return clock;
  const hour = Math.floor(at / 60) % 12 || 12;
  const minute = at % 60;
  if (!bareHourSaid(words, hour, minute)) return clock;
  return ` at ${spokenClock(`${String(bareHour(hour, eveningPlan(plan), plan.content)).padStart(2, '0')}:${String(minute).padStart(2, '0')}`)}`;
}

/** True when `content` retimes by a new hour alone (clock-time.ts `hourInstead`). */
export function retellsHour(content: string): boolean {
  return hourInstead(content) !== null;
}

/** Minutes past midnight of a clock time as the rules write it (" at 5pm", " at 7:30am", " at noon"), or null. */
function minutesOf(clock: string): number | null {
  if (/noon/i.test(clock)) return 12 * 60;
  if (/midnight/i.test(clock)) return 0;
  const m = /(\d{1,2})(?::(\d{2}))?(am|pm)/i.exec(clock);
  return m ? ((Number(m[1]) % 12) + (/pm/i.test(m[3]!) ? 12 : 0)) * 60 + Number(m[2] ?? 0) : null;
}

/**
 * The booking `plan` retimed by a new hour said alone (`said`: "Can Maria and Jo do 7 instead?"; rules 76), its day
 * kept: an hour with am / pm as said; a bare one the half of the day nearest the booking's old time ("Tuesday at 5",
 * then "7": 7pm), though 9–11 the morning for a plan no evening's outing ("10" after a dentist at 5: 10am; rules 81),
 * or as clock-time.ts reads a bare hour where it had none (`bareHour`: 7–11 the morning, 12–6 the
 * afternoon by business hours; 7–11 the evening for an evening's outing, rules 79).
 * `said` is the words of the new hour, or the hour read from them (clock-time.ts `hourAfterAction`: "let's meet at 7
 * instead"; rules 82). Null when `said` names no such hour or the plan's text does not write its day.
 */
export function reclockedText(plan: Fact, said: string | HourInstead): Retold | null {
  const m = typeof said === 'string' ? hourInstead(said) : said;
  const day = plan.eventTime;
  if (!m || !day || day.length !== 10) return null;
  const spoken = spokenDate(day);
  const at = plan.content.indexOf(spoken);
  if (at < 0) return null;
  const oldClock = CLOCK_AFTER.exec(plan.content.slice(at + spoken.length))?.[0] ?? '';
  const old = minutesOf(oldClock);
  const { hour, minute } = m;
  let h = hour;
  if (m.half) h = (hour % 12) + (/^p/i.test(m.half) ? 12 : 0);
  else if (hour <= 12 && old !== null) {
    const am = (hour % 12) * 60 + minute;
    h = Math.abs(am + 12 * 60 - old) < Math.abs(am - old) ? (hour % 12) + 12 : hour % 12;
    // "How about 10 instead?" after "a dentist appointment at 5": a plan of business hours is not moved to 9pm or later (rules 81).
    // Only one of business hours: a call or a shift already in the evening ("at 8pm", then "9") stays there (rules 86).
    if (h >= 21 && old < 18 * 60 && !eveningPlan(plan)) h -= 12;
  } else h = bareHour(hour, eveningPlan(plan), plan.content);
  // A bare hour read as the small hours ("make it 2" after "at 8", read as 8am) is no booking's hour (rules 78).
  if (h > 23 || minute > 59 || (!m.half && h < 7)) return null;
  const clock = ` at ${spokenClock(`${String(h).padStart(2, '0')}:${String(minute).padStart(2, '0')}`)}`;
  const end = at + spoken.length;
  // Its day kept: the fact moved to the hour is of the booking's day, not of the day the hour was said (rules 82).
  return { content: `${plan.content.slice(0, end)}${clock}${plan.content.slice(end + oldClock.length)}`, slot: plan.slot, kind: plan.kind, eventTime: day };
}
