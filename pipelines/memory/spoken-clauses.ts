/**
 * Unpunctuated speech cut into its clauses (rules 44). A recogniser writes "i live in lisbon now last week i went hiking in
 * the mountains" as one sentence with no comma; read whole, only its first clause gave a fact ("Lee lives in Lisbon").
 * A new clause starts at a subject pronoun ("I", "we", "he", "she", "they") that follows a clause with a verb of its own,
 * after a time phrase ("… now last week I …": "last week" opens the next clause; "… to porto yesterday I will …":
 * "yesterday" ends the one before) or, with none, before "I will / I'm / I have / I can …". A clause that takes a clause
 * ("I think I will", "I know you said", "I told my mother I would call", "I hope I can") is never cut, nor a sentence
 * written with punctuation inside (the writer's own cuts stand).
 */
import { hasVerb } from './told-tense.js';
import { MONTH_NAME, WEEKDAY_NAME } from './months.js';

const PERIOD = String.raw`week|month|year|night|weekend|summer|winter|spring|autumn|fall|term|${WEEKDAY_NAME}`;
const COUNT = String.raw`a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|\d+`;

/** A time phrase told of the past ("yesterday", "last week", "two days ago", "this morning"). */
export const PAST_TIME = String.raw`yesterday(?:\s+(?:morning|afternoon|evening))?|last\s+(?:${PERIOD})|(?:${COUNT})\s+(?:days?|weeks?|months?|years?)\s+ago|this\s+(?:morning|afternoon)`;
/** A time phrase told of what is to come. */
const FUTURE_TIME = String.raw`tomorrow(?:\s+(?:morning|afternoon|evening|night))?|next\s+(?:${PERIOD})|tonight|later\s+today|in\s+(?:${COUNT})\s+(?:days?|weeks?|months?)`;
/** A time phrase told of now. */
const NOW_TIME = String.raw`now|right\s+now|these\s+days|at\s+the\s+moment|nowadays|today|this\s+(?:week|month|year|evening)`;
/** A time phrase that names a day or month and so tells no tense of its own. */
const DATED = String.raw`on\s+${WEEKDAY_NAME}|in\s+(?:${MONTH_NAME})|on\s+the\s+\d+(?:st|nd|rd|th)`;

const TIME_AT_END = new RegExp(String.raw`(?:^|\s)(${PAST_TIME}|${FUTURE_TIME}|${NOW_TIME}|${DATED})$`, 'i');
const PAST_ONLY = new RegExp(String.raw`^(?:${PAST_TIME})$`, 'i');
const FUTURE_ONLY = new RegExp(String.raw`^(?:${FUTURE_TIME})$`, 'i');

/** A subject pronoun that may open a clause, with its contraction. */
const SUBJECT = /^(?:I|we|he|she|they)(?:['’](?:m|re|ve|ll|d|s))?$/i;
/** With no time phrase before it, a pronoun opens a clause only with one of these after it (not "the book I read"). */
const OPENS_WITHOUT_TIME = /^(?:I|we|he|she|they)(?:['’](?:m|re|ve|ll)\s|\s+(?:will|am|are|is|have|has|can|won['’]t|can['’]t)\b)/i;
/** A word after which a clause is the one before's object or a subordinate clause, never a new sentence. */
const JOINS = /^(?:that|because|if|when|whenever|while|since|and|but|so|or|as|than|whether|where|who|whom|which|what|how|why|until|till|before|after|once|though|although|unless|the|a|an|to|of|for|with|about)$/i;
/**
 * A verb or adjective that takes a clause ("I think I will…", "I told my mother I would…", "I'm sure we can…"): a
 * piece holding one is never cut after.
 */
const TAKES_CLAUSE = /\b(?:think|thinks|thought|know|knows|knew|guess|hope|hoped|wish|wished|say|says|said|tell|tells|told|promise|promised|remember|remembered|believe|reckon|suppose|mean|meant|feel|felt|hear|heard|bet|doubt|realise|realised|realize|realized|forgot|forget|figure|figured|expect|expected|decided|mention|mentioned|explain|explained|ask|asked|swear|swore|admit|admitted|notice|noticed|agree|agreed|worry|worried|sure|afraid|glad|pretend|pretended|imagine|warn|warned|remind|reminded|assume|assumed|understand|learned|learnt|wonder|wondered|means|seems|seemed)\b/i;

/** "please" before a verb: a request; not after a word that already asks ("could you please", "can you please"). */
const PLEASE = /^please$/i;
const ASKING = /^(?:you|can|could|would|will|kindly)$/i;

const TENSE_NOW = /\b(?:I['’]m|I\s+am|we['’]re|we\s+are|now|these\s+days)\b/i;
const TENSE_WILL = /\b(?:will|['’]ll|going\s+to|gonna)\b/i;

/**
 * `sentence` cut into its clauses where it runs two together with no punctuation (see the module comment); each piece
 * ends with a full stop and starts with a capital. `[sentence]` when there is no such cut.
 */
export function spokenClauses(sentence: string): string[] {
  const body = sentence.replace(/[.!?]+$/, '');
  // The writer's own cuts stand: a comma, a semicolon, a colon or a dash inside.
  if (/[,;:–—]|\s-\s/.test(body)) return [sentence];
  const words = body.split(/\s+/).filter((w) => w.length > 0);
  if (words.length < 6) return [sentence];
  const cuts: number[] = [];
  let from = 0;
  for (let j = 2; j < words.length - 1; j++) {
    // "… it arrived broken please send a new one …": a request opens a clause of its own (calls2).
    if (PLEASE.test(words[j] ?? '') && !ASKING.test(words[j - 1] ?? '') && hasVerb(words.slice(j, j + 3).join(' '))) {
      const head = words.slice(from, j);
      if (head.length >= 2 && !JOINS.test(head[head.length - 1] ?? '') && hasVerb(head.join(' '))) { cuts.push(j); from = j; }
      continue;
    }
    if (!SUBJECT.test(words[j] ?? '')) continue;
    const rest = words.slice(j).join(' ');
    if (!hasVerb(rest)) continue;
    const before = words.slice(from, j).join(' ');
    const time = TIME_AT_END.exec(before);
    let cut = j;
    if (time) {
      const phrase = (time[1] ?? '').trim();
      const start = j - phrase.split(/\s+/).length;
      const head = words.slice(from, start).join(' ');
      // "… but for now I'm into techno", "until now I…": the time phrase is a preposition's or a joining word's, and
      // the clause after it is the joined one's (for-now-clauses.ts reads it), not a new sentence.
      if (JOINS.test(words[start - 1] ?? '') || /^(?:by|from|until|till|up|since)$/i.test(words[start - 1] ?? '')) continue;
      // "… now last week I went": a time phrase after another one opens the next clause; a past one after a clause told
      // of now, or a future one after a clause with no "will", does too; else it ends the clause before.
      const opensNext = TIME_AT_END.test(head) || (PAST_ONLY.test(phrase) && TENSE_NOW.test(head))
        || (FUTURE_ONLY.test(phrase) && !TENSE_WILL.test(head));
      if (opensNext) cut = start;
    } else if (!OPENS_WITHOUT_TIME.test(words.slice(j, j + 2).join(' '))) {
      continue;
    }
    const head = words.slice(from, cut);
    const last = head[head.length - 1] ?? '';
    if (head.length < 2 || JOINS.test(last) || TAKES_CLAUSE.test(head.join(' ')) || !hasVerb(head.join(' '))) continue;
    cuts.push(cut);
    from = cut;
  }
  if (cuts.length === 0) return [sentence];
  const bounds = [0, ...cuts, words.length];
  const end = /[.!?]+$/.exec(sentence)?.[0] ?? '.';
  return bounds.slice(0, -1).map((b, i) => {
    const piece = words.slice(b, bounds[i + 1]).join(' ');
    return `${piece.charAt(0).toUpperCase()}${piece.slice(1)}${i === bounds.length - 2 ? end : '.'}`;
  });
}
