/**
 * A clock time said with a day (rules 50): "Friday evening at 7pm", "at 7:30pm on Friday", "tomorrow at noon". The
 * day's date was written into the fact and the time of day was lost; the text keeps it now ("on the evening of Friday
 * 27 November 2026 at 7pm"). The event time stays the day's date: `event_time` is documented as a date, and a
 * `YYYY-MM-DDTHH:MM` there lost a held-out LoCoMo turn to a date reader (docs/BENCHMARKS.md, rules50). A bare hour
 * with nothing to say morning or evening, told of the past ("I woke up at 4 on Friday"), is left out, as before: chrono
 * reads it as four in the morning. Said of a day ahead (a booking, a plan: "book a cleaning on Friday at 10", "let's meet
 * at 4 on Friday") it is read by business hours (trial12 F10): 7 to 11 in the morning, 12 to 6 in the afternoon. An
 * evening's outing is the exception (rules 79, `EVENING_THING`): "a table for four at Luigi's on Friday at 8", dinner,
 * drinks, a party, a show, a concert, a movie, a date night at 7 to 11 are in the evening (8pm); a dentist, a cleaning, a
 * haircut, a meeting keep business hours. A thing that runs by day as well (a film festival) is the evening at 7 and 8
 * only (rules 97: "the film festival on Saturday at 10" is 10am).
 */
import type * as chrono from 'chrono-node';
import { MONTH_NAMES, WEEKDAY_NAME } from './months.js';
import { NUMBER_WORDS } from '../../graph/spoken-digits.js';

/**
 * The hours said as words, "one" to "twelve", in order (the one number table, graph/spoken-digits.ts `NUMBER_WORDS`):
 * a word's index + 1 is its hour. Every pattern here that reads an hour word builds on it.
 */
export const HOUR_WORDS: readonly string[] = Object.keys(NUMBER_WORDS).filter((w) => NUMBER_WORDS[w]! >= 1 && NUMBER_WORDS[w]! <= 12);
/** {@link HOUR_WORDS} as a pattern's words ("one|two|…|twelve"). */
const HOUR_WORD = HOUR_WORDS.join('|');

/** Words that say which half of the day a bare hour is in (chrono reads "Friday evening at 7" as 19:00). */
const HALF_OF_DAY = /\b(?:noon|midday|midnight|morning|afternoon|evening|tonight|night)\b/i;
const pad = (n: number): string => String(n).padStart(2, '0');
/**
 * A clock time in the words: "7pm", "7:30", "at 7", "noon". chrono also sets an hour for a span from now ("a second",
 * "60 seconds": LoCoMo dev wrote "…at 12:25pm"), which names no clock time.
 */
const CLOCK_SAID = new RegExp(String.raw`\b(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|noon|midday|midnight)(?![\w])|\bat\s+(?:\d{1,2}|${HOUR_WORD})\b`, 'i');

/** True when `said` tells a clock time ({@link CLOCK_SAID}: "7pm", "at 7", "noon"). */
export function saysClock(said: string): boolean {
  return CLOCK_SAID.test(said);
}

/**
 * A bare hour after "at" ("at 10", "at 4:30", "at seven"), with no am / pm, or an hour with its minutes said anywhere
 * ("booked you in for 9:30 on Monday"; rules 107): "for 2" may be a count, "for 2:15" is an hour.
 */
const BARE_HOUR = new RegExp(String.raw`\bat\s+(?:\d{1,2}(?::\d{2})?|${HOUR_WORD})\b|\b\d{1,2}:\d{2}\b`, 'i');

/** Minutes said as words after an hour word, as a recogniser writes them: "fifteen", "thirty", "forty five", "oh five". */
const MINUTES_IN_WORDS = String.raw`(?:(?:twenty|thirty|forty|fifty)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|oh\s+(?:one|two|three|four|five|six|seven|eight|nine))`;
/**
 * An hour with its minutes and no colon, as a recogniser writes it (rules 110): "8.15", "10 30", "nine thirty", "seven
 * forty five". Groups: the hour's digits, their minutes; the hour's word, its minutes' words.
 */
const HOUR_MINUTES = String.raw`(?:(1[0-2]|0?[1-9])(?:\.|\s+)([0-5]\d)|(${HOUR_WORD})\s+(${MINUTES_IN_WORDS}))`;
/** Where {@link HOUR_MINUTES} ends: no more of a word or a number after it ("8.15", not "8.150", "8.15.2", "10 30s"). */
const HOUR_MINUTES_END = String.raw`(?![\w:]|\.\d)`;
/**
 * What makes {@link HOUR_MINUTES} said after "<day> at" a count, not an hour's minutes (review of rules 110 M1): a number
 * word more ("seven twenty five people": the minutes would stop short of it) or a thing counted ("at 3 20 people came",
 * "6 10 year olds", "12 40 each", "8 30 pounds").
 */
const COUNTED_AFTER = String.raw`(?![\s-]+(?:one|two|three|four|five|six|seven|eight|nine|people|persons|guests|kids|children|adults|`
  + String.raw`year[\s-]*olds?|years?|men|women|boys|girls|of|each|pounds|quid|dollars|bucks|euros)\b)`;
/** A pattern's source with its capturing groups made non-capturing, to be part of another pattern. */
const uncaptured = (source: string): string => source.replace(/\((?!\?)/g, '(?:');
/**
 * An hour said as a time of the clock, a regular expression's source (rules 107): "7pm", "9:30", "half past 7",
 * "quarter to eight"; not a bare number, which may be a count ("a table for 2").
 */
export const HOUR_SAID = String.raw`(?:(?:half|quarter)\s+(?:past|to)\s+(?:\d{1,2}|${HOUR_WORD})|`
  + String.raw`\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d{2}|${uncaptured(HOUR_MINUTES)}${HOUR_MINUTES_END})`;
const DAY_WORD = String.raw`(?:${WEEKDAY_NAME}|today|tonight|tomorrow)`;
/** Minutes said as words after an hour ("seven thirty", "eleven fifteen", "seven oh five"). */
const MINUTE_WORD = String.raw`(?:oh|ten|twenty|thirty|forty|fifty|fifteen|five|quarter|half)`;
/**
 * What makes an hour word after "at" not a time on its own (rules 74): minutes said after it ("seven thirty"), a time it
 * is part of ("ten past seven", "one or two", "seven-ish") or a phrase that is no time ("at one of his games", "at one
 * point"). "o'clock" is left: chrono reads "7 o'clock".
 */
const NOT_AN_HOUR_ALONE = String.raw`(?!\s*[-–]|\s+(?:${MINUTE_WORD}|of|point|stage|time)\b|\s+(?:past|to|till|or|and)\s+(?:\d|${HOUR_WORD}|noon|midnight)\b)`;
/**
 * An hour word, alone, after "at" next to a day ("Saturday at seven", "at seven on Saturday"): chrono reads no hour in
 * words.
 */
const HOUR_WORD_AT_DAY = new RegExp(String.raw`(?<=\b${DAY_WORD}\s+at\s+)(${HOUR_WORD})\b${NOT_AN_HOUR_ALONE}|(?<=\bat\s+)(${HOUR_WORD})\b(?=\s+(?:on\s+)?${DAY_WORD}\b)`, 'gi');
/**
 * "for" said in a booking ("booked a table for", "an appointment for"): a number pair after it and before the day is
 * the slot's hour ("booked a table for 8.15 on Friday"); after "for" in other words it is a price or a count ("sold my
 * bike for 10 50 on Saturday"; review of rules 110 H1).
 */
const BOOKED_FOR = String.raw`\b(?:book(?:s|ed|ing)?|reserv(?:e|es|ed|ing)|reservations?|tables?|appointments?|slots?)\b[^.!?]*?\bfor\s+`;
/**
 * An hour with its minutes and no colon ({@link HOUR_MINUTES}: "8.15", "10 30", "nine thirty") next to a day, read by
 * chrono in none of its forms (rules 110): after "at" or a booking's "for" ({@link BOOKED_FOR}) before the day ("at nine
 * thirty on Friday", "booked a table for 8.15 on Friday"), or after "<day> at" and not a count ({@link COUNTED_AFTER}:
 * "Friday at 10 30", not "on Friday at 3 20 people"). After "<day> for" a number pair is a price or a count ("on Friday for
 * 8.50", "on Saturday for 6 10 year olds"; review of rules 110 H1, H2): not read.
 */
const HOUR_MINUTES_AT_DAY = new RegExp(String.raw`(?<=\b${DAY_WORD}\s+at\s+)${HOUR_MINUTES}${HOUR_MINUTES_END}${COUNTED_AFTER}`
  + String.raw`|(?<=\bat\s+|${BOOKED_FOR})${HOUR_MINUTES}(?=\s+(?:on\s+)?${DAY_WORD}\b)`, 'gi');

/** The number of minutes said in words ({@link MINUTES_IN_WORDS}: "thirty" 30, "forty five" 45, "oh five" 5). */
function minutesOf(words: string): number {
  return words.toLowerCase().split(/[\s-]+/).reduce((sum, w) => sum + (NUMBER_WORDS[w] ?? 0), 0);
}

/**
 * `text` with each hour word said "at" next to a day written as its number, padded to the same length (indices hold),
 * for chrono to read: "Saturday at seven" → "Saturday at 7    " (rules 68); and each hour with its minutes and no colon
 * next to a day written with one: "at nine thirty on Friday" → "at 9:30        on Friday", "booked a table for 8.15 on
 * Friday" → "for 8:15" (rules 110).
 */
export function hourWordsAsNumbers(text: string): string {
  return text.replace(HOUR_MINUTES_AT_DAY, (m, ...g: Array<string | undefined>) => {
    const [hours, minutes, hourWord, minuteWords] = g[0] !== undefined || g[2] !== undefined ? g : g.slice(4);
    const hour = hours ?? String(HOUR_WORDS.indexOf(hourWord!.toLowerCase()) + 1);
    const minute = minutes ?? pad(minutesOf(minuteWords!));
    return `${hour}:${minute}`.padEnd(m.length, ' ');
  }).replace(HOUR_WORD_AT_DAY, (w) => String(HOUR_WORDS.indexOf(w.toLowerCase()) + 1).padEnd(w.length, ' '));
}

/** An outing of the evening, by the lemma of the noun heading it, as the words say it. */
export interface EveningThing {
  /** The head's lemma, as plan-object.ts reads it ("dinner", "festival"). */
  head: string;
  /** How the words say it (a regular expression's source: "dinners?", "film\\s+festivals?"). */
  said: string;
  /** The word before the head that makes it one ("film" of "film festival", "date" of "date night"); none: the head alone. */
  before?: string;
  /** True for a noun that is one only as a thing ("the Christmas party", "a show"; not "party to"): said after a determiner. */
  named?: true;
  /**
   * For a thing that runs by day as well (a film festival: screenings from the morning), the last bare hour that is its
   * evening (rules 97): 7 and 8 the evening, 9–11 the morning, as a festival opens. None: 7–11, a thing of the evening alone.
   */
  until?: number;
}

/**
 * Words before "night" that make it the name of an evening's event ("date night", "game night", "quiz night", "girls'
 * night"; rules 97), not the night of a day: an outing of the evening ({@link EVENING_THINGS}), and no time for chrono
 * (relative-date.ts).
 */
export const NIGHT_NAMES = ['date', 'game', 'games', 'movie', 'film', 'quiz', 'trivia', 'poker', 'karaoke', 'bingo', 'pub', 'curry',
  'pizza', 'opening', 'family', 'girls', 'boys', 'lads', 'ladies'] as const;
/** A night named by its event ({@link NIGHT_NAMES}: "date night", "girls' night"), a regular expression's source. */
export const NAMED_NIGHT = String.raw`(?:${NIGHT_NAMES.join('|')})['’]?[\s-]+nights?`;

/**
 * The one list of the evening's outings a bare hour is read by (rules 79, 82, 89), for the words (`eveningOuting`) and for
 * the booked thing plan-object.ts reads (`eveningHead`, plan-object.ts `eveningBooked`): a dinner, drinks, a concert, a
 * movie, the cinema, a gig, the theatre, a party, a show, a film festival, a date night or another night named by its
 * event ({@link NAMED_NIGHT}: "game night"; rules 97).
 */
export const EVENING_THINGS: readonly EveningThing[] = [
  ...Object.entries({
    dinner: 'dinners?', supper: 'suppers?', drink: 'drinks', concert: 'concerts?', movie: 'movies?', cinema: 'cinemas?', gig: 'gigs?',
    theatre: 'theatres?', theater: 'theaters?',
  }).map(([head, said]) => ({ head, said })),
  { head: 'party', said: 'party', named: true }, { head: 'show', said: String.raw`show(?!\s+and\s+tell\b)`, named: true },
  { head: 'festival', said: String.raw`film\s+festivals?`, before: 'film', until: 8 }, { head: 'night', said: NAMED_NIGHT, before: 'date' },
];

/**
 * True when `head` (a lemma plan-object.ts read as a thing's head) is one of {@link EVENING_THINGS}: alone, or, for one
 * of two words, either of them ("date" of "date night": a time word is no head) with the other among `which` (the nouns
 * before the head) or the two said together in `said` (the booking's words: "film festival").
 */
export function eveningHead(head: string, which: readonly string[], said = ''): boolean {
  return EVENING_THINGS.some((t) => (t.before === undefined ? t.head === head
    : [t.head, t.before].includes(head) && (which.includes(t.before) || new RegExp(String.raw`\b${t.said}\b`, 'i').test(said))));
}

/**
 * Someone met "for" an outing of the evening ("meeting Ana for dinner", "meet Ben for drinks"): the meeting is the act of
 * meeting, not a business meeting (rules 94; "meeting Tom about the party" or "at the cinema" is not).
 */
const OUTING_AFTER = String.raw`\s+(?:(?:a|an|some|the)\s+)?(?:${EVENING_THINGS
  .filter((t) => !t.named).map((t) => t.said).join('|')}|(?:a|the)\s+(?:${EVENING_THINGS.filter((t) => t.named).map((t) => t.said).join('|')}))\b`;
const MET_FOR_EVENING = new RegExp(String.raw`\bmeet(?:s|ing)?\b(?:\s+[\w'’.-]+){0,3}?\s+for${OUTING_AFTER}`, 'i');
/** An outing of the evening a meeting is "for" or held "over" ("for dinner", "over drinks"; rv97 H3). */
const FOR_OR_OVER_OUTING = new RegExp(String.raw`\b(?:for|over)${OUTING_AFTER}`, 'i');

/** True when `said` meets someone for an outing of the evening ("I'm meeting Ana for dinner"; {@link MET_FOR_EVENING}). */
export function metForEvening(said: string): boolean {
  return MET_FOR_EVENING.test(said);
}

/** The day's earlier meals ("a table for brunch", "lunch"): business hours. */
export const EARLIER_MEALS = ['breakfast', 'brunch', 'lunch'] as const;
/**
 * A thing of business hours the evening's words may be about ("a meeting about the party", "a table tennis match",
 * "the tables are being delivered"; rules 81).
 */
export const BUSINESS_NOUNS = ['meeting', 'appointment', 'delivery', 'match', 'tennis'] as const;

/**
 * Someone's, as a determiner ("Tom's party", "Anna's birthday party"; rules 107): not a word with "is" or "us" run in
 * ("it's", "that's", "let's").
 */
const POSSESSOR = String.raw`(?!(?:it|that|what|he|she|there|here|who|where|how|let)['’]s\b)[\w-]+['’]s\s+`;
/**
 * An outing of the evening (rules 79): a table booked ("a table for four", "a table at Luigi's", "book a table"), one of
 * {@link EVENING_THINGS} (a party or a show after a determiner or someone's: "Tom's party"; not a "show and tell",
 * review of rules 107 M1), a film seen. Not one said for the day's earlier meals ("a table for brunch", "lunch"), nor
 * the word for another thing (rules 81): "table tennis", "move the tables", "a meeting about the Christmas party",
 * "dropping off the film" ({@link BUSINESS_THING}).
 */
const eveningWords = (things: readonly EveningThing[]): RegExp => new RegExp(String.raw`\b(?:(?:a|the)\s+table\s+(?:for|at)\b|book(?:s|ed|ing)?\s+(?:a|the)\s+table|`
  + String.raw`${things.filter((t) => !t.named).map((t) => t.said).join('|')}|`
  + String.raw`(?:(?:the|a|an|our|my|his|her|their|your)\s+|${POSSESSOR})(?:[\w'’-]+\s+)?(?:${things.filter((t) => t.named).map((t) => t.said).join('|')})|`
  + String.raw`(?:see|seeing|watch|watching)\s+(?:a|the)\s+film)\b`, 'i');
const EVENING_THING = eveningWords(EVENING_THINGS);
/** An outing of the evening alone (rules 97): {@link EVENING_THING} but for the things that run by day as well (`until`). */
const EVENING_ALONE = eveningWords(EVENING_THINGS.filter((t) => t.until === undefined));
const EARLIER_MEAL = new RegExp(String.raw`\b(?:${EARLIER_MEALS.join('|')})\b`, 'i');
/**
 * A thing of business hours in the words ({@link BUSINESS_NOUNS}); a meeting only as the thing had ("a / the / my
 * meeting", or someone's with a word or two before it: "Sam's party planning meeting", review of rules 107 M1; not "Ana's
 * meeting us", "is" run in), so meeting someone for dinner or drinks, or a dinner "to talk about the trip", stays the
 * evening (rules 86); someone met "about" a thing is {@link MET_ABOUT}.
 */
const BUSINESS_THING = new RegExp(String.raw`\b(?:(?:a|an|the|my|our|his|her|their|your|this|that)\s+(?:[\w'’-]+\s+)?meetings?|${POSSESSOR}(?:[\w'’-]+\s+){1,2}meetings?|`
  + String.raw`(?:${BUSINESS_NOUNS.filter((n) => n !== 'meeting').join('|')})s?|deliver(?:ed|ing))\b`, 'i');
/**
 * Someone met "about" a thing ("I'm meeting Tom about the party"; rules 97): a talk about it, not the party. Not "about"
 * an hour or a while ("about 8", "about 15 minutes early", "about half an hour before the show"; rv97 H3), nor when
 * the meeting is for or over an outing of the evening ({@link FOR_OR_OVER_OUTING}: "meeting Tom for dinner about the trip").
 */
const MET_ABOUT = new RegExp(String.raw`\bmeet(?:s|ing)?\b(?:\s+[\w'’.-]+){0,3}?\s+about`
  + String.raw`(?!\s+(?:\d+|${HOUR_WORD}|noon|midday|midnight|half|quarter|an?\s+(?:hour|half|quarter|minute|couple|few))\b)`, 'i');

/**
 * The hour of the day (0–23) a bare hour (1–12, no am / pm) said for a day ahead is, by `said` (the words it is said
 * in): 7–11 the morning and 12–6 the afternoon by business hours, 7–11 the evening for an outing of the evening
 * (`EVENING_THING`: "a table for four on Friday at 8" is 8pm), up to its last evening hour (`lastEveningHour`: 7 and 8
 * for a film festival; rules 97). `said` may be whether the thing is an evening's outing, read elsewhere (the booking a
 * new hour moves; retimed.ts), with `words` the thing's words.
 */
export function bareHour(hour: number, said: string | boolean, words = typeof said === 'string' ? said : ''): number {
  if (hour < 7) return hour + 12;
  return hour <= lastEveningHour(words) && (typeof said === 'boolean' ? said : eveningOuting(said)) ? hour + 12 : hour;
}

/**
 * The last bare hour `words` read as the evening, for an outing of the evening (rules 97): 11, but for one that runs by
 * day as well and is no outing of the evening alone (a film festival, {@link EveningThing.until}: "the film festival at
 * 10" is 10am, "dinner at the film festival at 10" 10pm).
 */
function lastEveningHour(words: string): number {
  if (EVENING_ALONE.test(words)) return 11;
  const byDay = EVENING_THINGS.filter((t) => t.until !== undefined && new RegExp(String.raw`\b${t.said}\b`, 'i').test(words));
  return byDay.length > 0 ? Math.max(...byDay.map((t) => t.until!)) : 11;
}

/** True when `said` tells of an outing of the evening ({@link EVENING_THING}), not an earlier meal nor a thing of business hours. */
export function eveningOuting(said: string): boolean {
  return EVENING_THING.test(said) && !EARLIER_MEAL.test(said) && !BUSINESS_THING.test(said)
    && !(MET_ABOUT.test(said) && !FOR_OR_OVER_OUTING.test(said));
}

/**
 * The clock time (`HH:MM`) a date phrase chrono read (`c`, from the words `phrase`, in the sentence `said`) says, or
 * null. A bare hour ("at 10") is one only for a day `ahead`, read by {@link bareHour}.
 */
export function clockOf(c: chrono.ParsedComponents, phrase: string, ahead = false, said = phrase): string | null {
  let hour = c.get('hour');
  if (!c.isCertain('hour') || hour === null || !CLOCK_SAID.test(phrase)) return null;
  if (!c.isCertain('meridiem') && hour < 13 && !HALF_OF_DAY.test(phrase)) {
    if (!ahead || !BARE_HOUR.test(phrase) || hour === 0) return null;
    hour = bareHour(hour, said);
  }
  return `${pad(hour)}:${pad(c.get('minute') ?? 0)}`;
}

/** Words that say a half of the day after an hour. */
const HALF = String.raw`(?:am|pm|a\.m\.|p\.m\.)`;
/** A move of the booking to an hour ("move it to", "push the dentist back to", "change that to"). */
const MOVE_TO = String.raw`(?:move|push|change|switch|shift|bring|put|bump)(?:\s+(?:it|that|this|(?:the|my|our|your)\s+[\w'’-]+(?:\s+[\w'’-]+)?))?(?:\s+(?:back|forward))?\s+(?:to|till|until)`;

/**
 * A new hour said alone for the booking under discussion, with "instead" ("can we do 7 instead?", "make it 7pm instead",
 * "how about 7:30 instead?"; rules 76): no day, so the one booking of the day it is said moves to that hour. A bare number
 * is an hour only after "do", "say" (rules 78) or "how / what about" (rules 79: "how about 7 instead?"), or "at" after
 * them or after "do / make / move it" ("can we do it at 7 instead?"; rules 81): "at" after a clause's own action is that
 * clause's own plan ("I'll pick the kids up at 6 instead": no retime, dated today; its action the booking's own,
 * {@link hourAfterAction}). After "make it", "for" or "about" it is as likely a count ("a table for 2 instead", "make it
 * 2 instead", "about 7 instead"), so there only an hour that says it is one (am / pm, o'clock, ":30") retimes, and only
 * after words that move the booking ("make it for 4pm", "move it to about 4pm", "how about 4pm"; rules 82): "I'll leave
 * work at about 4pm instead" is the clause's own plan.
 */
/**
 * Words that only ever name a booking (rules 96; booked-for.ts reads a slot booked by them too, rules 97).
 */
export const BOOKING_NOUNS = ['appointment', 'booking', 'reservation', 'slot'] as const;
/**
 * Words before "for <hour> instead" that move the booking (rules 88): a verb of rescheduling with no object of its own
 * ("can we reschedule / go / aim for 3pm instead?") or the booking itself ("change the appointment / book the table for
 * 9pm instead", "change my appointment for 4pm instead"); "I'll leave work for 4pm instead" is the clause's own plan.
 */
const FOR_AFTER = String.raw`(?:reschedul(?:e|ing)|go|aim|shoot|plan|push|shift|change|book|it|that|this|one|`
  // The booking only as the one under discussion ("the appointment", "plan dinner"): "I'll push my call / book a meeting /
  // make the kids dinner for 4pm instead" tells another thing (rules 93).
  + String.raw`(?:the|that|this|our|plan)\s+(?:appointment|booking|table|reservation|slot|meeting|call|dinner)|`
  // A word that only ever names a booking, one's own or another's ("change my appointment / switch my booking for
  // 8pm instead"; rules 96).
  + String.raw`(?:my|your|his|her|their)\s+(?:${BOOKING_NOUNS.join('|')}))`;
const HOUR_INSTEAD = new RegExp(String.raw`\b(?:(?:(?:do|say|meet|(?:how|what)\s+about)(?:\s+at)?|(?:do|make|move|have|change|switch|push)\s+(?:it|that|this)\s+at)\s+(\d{1,2})(?::(\d{2}))?\s*(${HALF}|o['’]clock)?`
  + String.raw`|(?:${MOVE_TO}|(?:make|do|have|book|set)\s+(?:it|that|this)(?:\s+(?:for|at))?|do|say|(?:how|what)\s+about|${FOR_AFTER}\s+for)(?:\s+(?:about|around))?`
  + String.raw`\s+(\d{1,2})(?:(?::(\d{2}))\s*(${HALF})?|\s*(${HALF}|o['’]clock)))\s+instead\b(?!\s+of\b)`, 'i');

/** A new hour said alone ({@link hourInstead}): hour, minute, half of the day said ("am" / "pm", or none), and where its words are. */
export interface HourInstead {
  hour: number;
  minute: number;
  half: string | null;
  /** Where the words of the hour ("7pm", "7:30") start in the sentence, and where they end. */
  start: number;
  end: number;
}

/**
 * The hour `m` matched (its hour, minutes and half at the groups `at`), or null where it is none a clock shows: a bare
 * hour is 1 to 12 ("how about 20 instead?", "do 0 instead?" are no hour).
 */
function hourOf(m: RegExpExecArray, hours: string | undefined, minutes: string | undefined, half: string | undefined): HourInstead | null {
  const hour = Number(hours);
  const minute = Number(minutes ?? 0);
  // "do 7 o'clock": no half of the day said.
  const told = half && /^[ap]/i.test(half) ? half : null;
  if (minute > 59 || hour > 23 || (told && (hour === 0 || hour > 12)) || (!told && minutes === undefined && (hour === 0 || hour > 12))) return null;
  return { hour, minute, half: told, start: m.index + m[0].search(/\d/), end: m.index + m[0].search(/\s+instead\b/i) };
}

/** The new hour said alone in `said` ({@link HOUR_INSTEAD}), or null. */
export function hourInstead(said: string): HourInstead | null {
  const m = HOUR_INSTEAD.exec(said);
  return m ? hourOf(m, m[1] ?? m[4], m[2] ?? m[5], m[3] ?? m[6] ?? m[7]) : null;
}

/** An hour "at" a clause's action, "instead" ("let's meet at 7 instead", "I'll leave work at about 4pm instead"). */
const AT_HOUR_INSTEAD = new RegExp(String.raw`\bat\s+(?:(?:about|around)\s+)?(\d{1,2})(?::(\d{2}))?\s*(${HALF}|o['’]clock)?\s+instead\b(?!\s+of\b)`, 'i');
/** A day said in a sentence: a weekday, "today", "tomorrow", "the weekend", "the 12th", a month (not "may", as often a verb). */
const ANY_DAY = new RegExp(String.raw`\b(?:${DAY_WORD}|weekend|\d{1,2}(?:st|nd|rd|th)|(?:next|this|last)\s+week|${MONTH_NAMES.filter((m) => m !== 'May').join('|')})\b`, 'i');

/**
 * The new hour said "at" a clause's own action with "instead", in a sentence of `said` that names no day ("let's meet at
 * 7 instead", "I'll pick the kids up at 6 instead"), or null. Its own plan, dated today (rules 81), unless the action is
 * the booking's own: "let's meet at 7 instead" after "let's meet at 6 on Friday" moves the meeting (decide.ts; rules 82).
 * Only the sentence of the fact (`content`, its text) is read, the one whose hour the fact holds (rules 89): in "Can we do
 * Saturday instead? I'll leave work at 5 instead." the day's fact is no hour's.
 */
export function hourAfterAction(said: string, content: string): HourInstead | null {
  for (const sentence of said.split(/(?<=[.!?])\s+/)) {
    const m = AT_HOUR_INSTEAD.exec(sentence);
    if (!m || ANY_DAY.test(sentence)) continue;
    const hour = hourOf(m, m[1], m[2], m[3]);
    if (hour && holdsHour(content, hour)) return hour;
  }
  return null;
}

/** True when `content` says the clock time "at" `hour` ("at 7", "at 7pm", "at 7:30am"), in either half of the day where none was said. */
function holdsHour(content: string, hour: HourInstead): boolean {
  const h = hour.half ? String(hour.hour) : `(?:${hour.hour % 12 || 12}|${(hour.hour % 12) + 12})`;
  const minutes = hour.minute === 0 ? '(?::00)?' : `:${pad(hour.minute)}`;
  return new RegExp(String.raw`\bat\s+(?:(?:about|around)\s+)?${h}${minutes}(?![\d:])`, 'i').test(content);
}

/**
 * True when `said` tells an hour after "at" with no half of the day (`hour` on a 12-hour clock, `minute`): "Saturday at
 * 7", "at seven on Saturday"; not "at 7pm", "Saturday evening at 7" (rules 82: read again with the booking it moves).
 */
export function bareHourSaid(said: string, hour: number, minute: number): boolean {
  return said.split(/(?<=[.!?])\s+/).some((sentence) => !HALF_OF_DAY.test(sentence)
    && [...hourWordsAsNumbers(sentence).matchAll(/\bat\s+(\d{1,2})(?::(\d{2}))?(?![\d:])(?!\s*(?:am|pm|a\.m\.|p\.m\.))/gi)]
      .some((m) => Number(m[1]) % 12 === hour % 12 && Number(m[2] ?? 0) === minute));
}

/** `19:00` -> `7pm`, `19:30` -> `7:30pm`, `12:00` -> `noon`, `00:00` -> `midnight`: a clock time as written in a fact. */
export function spokenClock(clock: string): string {
  const [h, m] = clock.split(':').map(Number) as [number, number];
  if (m === 0 && h === 12) return 'noon';
  if (m === 0 && h === 0) return 'midnight';
  const twelve = h % 12 === 0 ? 12 : h % 12;
  return `${twelve}${m === 0 ? '' : `:${pad(m)}`}${h < 12 ? 'am' : 'pm'}`;
}
