/**
 * When a stay runs, by the span its words name (rules 29): the weekend ("spending the weekend in Bath"), a holiday
 * ("over Easter", "over Christmas"), or a start ahead with or without a length ("next month I'm in Tokyo for two
 * weeks", "I'll be in Oslo for ten days from Monday", "I'm in Vienna next week"). `stateEnd` counts a length from the
 * moment said; a stay that starts ahead counts it from its start (`staySpan`).
 */
import { DAY_MS } from '../../graph/core/time.js';
import { type Feast, feastDays } from './holidays.js';
import { toldAsPast } from './told-tense.js';
import { UNTIL_SAID, afterLength, countedLength, nextMonday, startAhead } from './spans.js';

/** When a stay runs: `start` (ISO, null when it holds as said) and its exclusive `end` (ISO). */
export interface StaySpan {
  start: string | null;
  end: string;
}

/** "over Easter", "for Christmas", "at Easter", "spending Christmas", "during the Christmas holidays". */
const HOLIDAY = /\b(?:over|for|at|during|spend(?:s|ing)?)\s+(?:the\s+)?(Easter|Christmas)\b/i;
/** "the weekend", "this weekend", "next weekend" (not "last weekend", not "a weekend class"). */
const WEEKEND = /\b(?:(the|this)|(next))\s+weekend\b(?!\s+(?:class|course|job|shift|trip|plans?|market)\b)/i;

/**
 * When the stay `sentence` tells runs, said at `refIso`: the weekend (Saturday to the Monday after; ahead when said on a
 * weekday), Easter (Good Friday to the Tuesday after) or Christmas (24 to 27 December), each this year's or, once past,
 * next year's; or a start ahead named, with a length counted from it ("next month … for two weeks": 1 January to 15
 * January) or else the day, week or month it names; a month named while in it ("in December" said on 5 December) holds
 * from now, its length counted from now. Null when the sentence names none of these (a length from now,
 * "until …": `stateEnd`), is told of the past, or names its own end outright.
 */
export function staySpan(sentence: string, refIso: string): StaySpan | null {
  const ref = Date.parse(refIso);
  if (Number.isNaN(ref) || toldAsPast(sentence) || UNTIL_SAID.test(sentence)) return null;
  const span = (start: number, end: number): StaySpan | null =>
    end <= ref ? null : { start: start > ref ? new Date(start).toISOString() : null, end: new Date(end).toISOString() };
  const feast = HOLIDAY.exec(sentence);
  if (feast) {
    const name = feast[1]!.toLowerCase() as Feast;
    const year = new Date(ref).getUTCFullYear();
    const [start, end] = feastDays(name, year)[1] > ref ? feastDays(name, year) : feastDays(name, year + 1);
    return span(start, end);
  }
  const weekend = WEEKEND.exec(sentence);
  if (weekend) {
    const monday = nextMonday(ref) + (weekend[2] ? 7 * DAY_MS : 0);
    return span(monday - 2 * DAY_MS, monday);
  }
  // A start ahead and a length counted from it: both read as every date in text is (spans.ts).
  const from = startAhead(sentence, ref);
  if (!from) return null;
  const length = countedLength(sentence);
  // "for two weeks in December", said on 5 December: the month named is under way, the length counts from now (life5).
  const end = length ? afterLength(Math.max(from.start, ref), length) : from.end;
  return end === null ? null : span(from.start, end);
}
