/**
 * Whether the action of a "we" / "let's" sentence is something to do or only a wish. Chat is full of
 * encouragement said as a plan ("let's keep each other motivated", "we'll make a difference", "let's
 * go for it"): no one could later say it happened or was called off. A plan names something to do:
 * an activity with a time, a place, or a thing or event of its own ("let's grab coffee next week",
 * "we're going camping in July", "let's go to a dance class").
 */
import { wink } from '../wink.js';

/** Carrying on with what is already happening ("keep going", "keep helping each other", "continue to spread…"). */
const CONTINUING = /^(?:keep(?:\s+on)?\s+(?:\w+(?:ing|in['’]?)\b|it\b|each other\b|one another\b|us\b|them\b|up\b|at it\b)|continue\b|carry on\b|go on\b|never stop\b|stay\s+(?:positive|strong|motivated|focused|inspired|hopeful|in touch|connected)\b)/i;
/** Verbs of feeling, attitude or thought: a state, not an act ("let's cherish…", "we'll support each other"). */
const ATTITUDE = /^(?:hope|wish|pray|believe|trust|feel|cherish|treasure|remember|appreciate|embrace|enjoy|love|support|encourage|motivate|inspire|count our blessings|look forward|stick together|hang in)\b/i;
/** Set phrases of encouragement ("let's do this", "let's go for it", "we'll make it", "let's get to work"). */
const CHEER = /^(?:go for it|do (?:this|it|that|our (?:best|part|thing))\b|rock\b|get to work|make it\b|get there|live it up|show (?:them|'em|’em|the world|everyone)\b|give it\b|nail it|crush it|seize the day|make the (?:most|best) of|work (?:together|hard)\b|join forces|team up)\b/i;
/** "Make X better / awesome / unforgettable": a wish for how something turns out. */
const MAKE_INTO = /^make\s+(?:[\w'’]+\s+){1,4}?(?:better|great|greater|awesome|amazing|special|unforgettable|memorable|count|happen|shine|work|possible|real|proud|brighter|easier|stronger|perfect|fun)\b/i;
/**
 * Nouns that name a goal, a feeling or nobody in particular, not a thing or an event: an action
 * whose object is one of them is a wish ("make a difference", "chase our dreams", "help people").
 */
const ABSTRACT = new Set(['difference', 'differences', 'change', 'changes', 'impact', 'memory', 'memories', 'dream', 'dreams', 'goal',
  'goals', 'success', 'progress', 'history', 'magic', 'positivity', 'kindness', 'awareness', 'hope', 'love', 'joy', 'vibes', 'happiness',
  'peace', 'bliss', 'world', 'life', 'lives', 'journey', 'future', 'best', 'part', 'most', 'lesson', 'lessons', 'moment', 'moments',
  'fun', 'time', 'times', 'thing', 'things', 'stuff', 'way', 'ways', 'cause', 'people', 'others', 'everyone', 'everybody', 'folks',
  'support', 'effort', 'efforts', 'potential', 'passion', 'community', 'need', 'needs', 'importance', 'spirit', 'strength', 'courage',
  'motivation', 'inspiration', 'light', 'smile', 'smiles', 'connection', 'friendship', 'bond', 'faith', 'goodness']);
/** Nouns of time: a time is an anchor of its own (`timed`), not a thing to do. */
const TIME_NOUN = /^(?:day|days|week|weeks|weekend|weekends|month|months|year|years|morning|evening|night|afternoon|tomorrow|today|tonight|meantime|while)$/i;

/**
 * The runs of nouns in `action` after its verb ("go to a dance class" -> [["dance", "class"]]), lower-case,
 * leaving out a time ("next month", "joy tomorrow"). An action that starts with a place or a thing ("the quiz
 * night", after "going to") is read from its first word.
 */
function nounRuns(action: string): string[][] {
  const nlp = wink();
  const doc = nlp.readDoc(action);
  const words = doc.tokens().out();
  const pos = doc.tokens().out(nlp.its.pos);
  const noun = (i: number): boolean => pos[i] === 'NOUN' || pos[i] === 'PROPN';
  const runs: string[][] = [];
  const first = /^(?:DET|PRON|PROPN|ADP|NUM)$/.test(pos[0] ?? '') ? 0 : 1;
  for (let i = first; i < words.length; i++) {
    if (!noun(i)) continue;
    if (i === first || !noun(i - 1)) runs.push([]);
    runs[runs.length - 1]!.push(words[i]!.toLowerCase());
  }
  // A time at the end of a run is not its head ("some joy tomorrow" -> joy).
  for (const r of runs) while (r.length > 0 && TIME_NOUN.test(r[r.length - 1]!)) r.pop();
  return runs.filter((r) => r.length > 0);
}

/**
 * What the action of a "we" sentence amounts to: `wish` (encouragement, a feeling, carrying on, an
 * abstract goal), `anchored` (a time, or a thing, place or event of its own), or `bare` (an activity
 * with nothing to hold it: "let's boogie", "we'll check some out").
 */
export function planSubstance(action: string, timed: boolean): 'wish' | 'anchored' | 'bare' {
  // "Let's make sure we book the table": what is to be made sure of is the action.
  const act = action.replace(/^make sure (?:that )?(?:we\s+(?:['’]ll\s+|will\s+)?)?/i, '').trim();
  if (CONTINUING.test(act) || ATTITUDE.test(act) || CHEER.test(act) || MAKE_INTO.test(act)) return 'wish';
  // A run's head is its last noun ("the dance studio" -> studio); the first run is the verb's object.
  const heads = nounRuns(act).map((r) => r[r.length - 1]!);
  if (heads[0] !== undefined && ABSTRACT.has(heads[0])) return 'wish';
  if (timed) return 'anchored';
  // "Go camping", "go hiking": an activity by its form.
  if (/^go\s+\w+ing\b/i.test(act)) return 'anchored';
  return heads.some((h) => !ABSTRACT.has(h)) ? 'anchored' : 'bare';
}
