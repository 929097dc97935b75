/**
 * Changes of mind by meaning: which exclusive slot a first-person sentence fills or ends
 * (residence, employer, job, partner, diet), and whether it settles an earlier plan or commitment
 * (done, cancelled, replaced "instead"). Patterns over the sentence; the decider then matches the
 * slot exactly, or the settled plan / commitment by embedding similarity.
 */
import { holdsAJob, likeableThing } from './kinds.js';
import { HEDGES } from './plan-object.js';
import { retellsTime } from './retimed.js';
import { thingSlotKey } from './thing-keys.js';
import { correctedAllergy } from './allergy-correction.js';
import { defaultWordNet } from '../retrieval/wordnet.js';
import { CAPITALISED_MONTH_NAME, MONTH_NAME, MONTH_NAMES, WEEKDAY_NAME } from './months.js';

/** A noun followed by for / of / about / to: "a sucker for", "a fan of", "a stranger to" (no job). */
export const IDIOM_NOUN = /^[a-z]+(?:\s+[a-z]+)?\s+(?:for|of|about|to|on)\b/i;

/** How a sentence settles an earlier plan or commitment of the same person. */
export type Settles = 'done' | 'cancelled' | 'instead' | 'decided';

/** A slot the sentence fills (`value` set) or ends (`value` null). */
export interface SlotChange {
  slot: string;
  value: string | null;
  /** Profile attribute to update when the slot is filled. */
  attribute?: string;
  /** The kind of fact the slot is stored as when not a profile ("preference" for a taste). */
  kind?: 'preference';
  /** A slot of the same family the sentence ends while filling this one ("I left Hillcrest, I'm tutoring now"). */
  ends?: string;
  /**
   * The sentence withdraws `value` ("i left tesco"): the fact is a withdrawal of the value named, as "I'm not a
   * photographer anymore" is, which ends the slot only where it holds that value (decide.ts `namedValue`; rules 41b, 43).
   */
  withdrawn?: true;
}

const STOP = new RegExp(String.raw`\s+(?:last|next|this|on|over|during|since|today|tonight|tomorrow|yesterday|because|with|and|but|for|when|where|now|again|until|till|til|through|thru|anymore|these days|nowadays|in (?:the )?(?:spring|summer|autumn|fall|winter|${MONTH_NAME}))\b.*$|[,.;!?].*$`, 'i');
const cut = (v: string | undefined): string => (v ?? '').replace(STOP, '').replace(/^(?:the|a|an)\s+(?=[A-Z])/, '').trim();
/** A weekday or a month: "on" before one dates, it names no place. */
const DATE_NAME = new RegExp(String.raw`^(?:Mondays?|Tuesdays?|Wednesdays?|Thursdays?|Fridays?|Saturdays?|Sundays?|${CAPITALISED_MONTH_NAME})\b`);

/**
 * A place cut at its clause end (`stop`), but running on past "on" before a street or another named place ("a flat above
 * the bakery on Carver Street", "on the High Street"), not before a day or a month ("Leeds on Monday", "Leeds on the 5th").
 */
export function cutPlaceAt(v: string, stop: RegExp): string {
  const re = new RegExp(stop.source, stop.flags.includes('g') ? stop.flags : `${stop.flags}g`);
  for (let m = re.exec(v); m; m = re.exec(v)) {
    const after = v.slice(m.index).match(/^\s+on\s+(?:the\s+)?(\S+)/);
    if (after?.[1] && /^[A-Z][a-z]/.test(after[1]) && !DATE_NAME.test(after[1])) {
      re.lastIndex = m.index + after[0].length - after[1].length;
      continue;
    }
    return v.slice(0, m.index);
  }
  return v;
}
/** Senses of a word that name no place: a feeling, a state, a time, an act, an idea, a person ("hope", "sin", "the past"). */
const NO_PLACE_SENSE = /^noun\.(?:feeling|state|time|attribute|act|cognition|communication|relation|process|motive|phenomenon|person)$/;

/**
 * True when a place said after "live in" is one lower-case word every sense of which WordNet files as no place or thing
 * ("I live in hope", "we're living in fear of…", "living in the past", "in sin"; rules 42): an idiom, no home. A name
 * ("York"), a word WordNet does not list, or one with any place or thing sense ("a tent", "reading") is kept.
 */
export function namesNoPlace(value: string): boolean {
  // "fear of the landlord": the word before "of" is what is named.
  const word = value.trim().replace(/^the\s+/i, '').replace(/\s+of\s+.*$/i, '');
  if (!/^[a-z]+$/.test(word)) return false;
  const senses = defaultWordNet().nounKinds(word, true);
  return senses.length > 0 && senses.every((x) => NO_PLACE_SENSE.test(x.lexFile));
}
const cutPlace = (v: string | undefined): string => cutPlaceAt(v ?? '', STOP).replace(/^(?:the|a|an)\s+(?=[A-Z])/, '').trim();

const FILLS: Array<[RegExp, string]> = [
  // "We're living in York now": "we" is the speaker's household, the speaker's home too (rules 42).
  [/\bI(?:\s+\w+ly|\s+still|\s+now|\s+just|\s+finally)?(?:\s+live|\s+am living|['’]m living|['’]m based|\s+am based)\s+in\s+(.+)|\bwe(?:\s+\w+ly|\s+still|\s+now|\s+just|\s+finally)?(?:\s+live|\s+are living|['’]re living|['’]re based|\s+are based|['’]ve\s+been\s+living|\s+have\s+been\s+living)\s+in\s+(.+)/i, 'lives_in'],
  [/\b(?:I|we)(?:\s+\w+ly|\s+just|\s+finally)?\s+(?:moved|relocated|have moved|['’]ve moved)\s+to\s+(.+)/i, 'lives_in'],
  [/\bmy\s+(?:apartment|flat|house|home|place)\s+is\s+in\s+(.+)/i, 'lives_in'],
  // "I'm living with my parents", "I share a flat with two students": where one lives, as "with my parents", "a flat".
  [/\bI(?:['’]m|\s+am)?(?:\s+still)?\s+(?:living|live)\s+(with\s+(?:my|our)\s+[a-z]+)\b/i, 'lives_in'],
  [/\bI(?:\s+still)?\s+(?:share|rent)\s+((?:a|an)\s+(?:\w+\s+)?(?:flat|house|apartment|place|room)\b.*)/i, 'lives_in'],
  [/\bin\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*),?\s+where\s+I\s+(?:live|grew up)\b/, 'lives_in'],
  [/\bI(?:\s+\w+ly|\s+still|\s+now)?(?:\s+work|\s+am working|['’]m working|['’]m still working)\s+(?:at|for)\s+(.+)/i, 'works_at'],
  // "I joined Globex", not "I joined a gym" or "a nearby church": joining a named organisation.
  [/\bI\s+joined\s+([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)/, 'works_at'],
  [/\bI\s+(?:started at|got a job (?:at|with)|was hired by|got hired by)\s+(.+)/i, 'works_at'],
  [/\bI(?:\s+(?:work as|became|am now)|['’]m now)\s+(?:a|an)\s+([a-z][a-z -]+)/i, 'occupation'],
  [/\bI(?:['’]m| am)\s+(?:still\s+)?(?:a|an)\s+([a-z][a-z -]+)/i, 'occupation'],
  [/\bI\s+(?:teach)\s+([a-z][a-z -]+)/i, 'occupation:teaches'],
  [/\bI(?:['’]m| am)(?:\s+still|\s+now)?\s+(vegan|vegetarian|pescatarian|gluten[- ]free|keto|dairy[- ]free)\b/i, 'diet'],
  [/\bI\s+went\s+(vegan|vegetarian|pescatarian|keto)\b/i, 'diet'],
  [/\bI\s+eat\s+(?:a lot of\s+)?(meat)\b(?!.*\bagain\b)/i, 'diet:eats'],
];

/**
 * "i left google", "i quit tesco in may", as a recogniser writes them (rules 41): the one word after "left" / "quit" that
 * ends the clause (or a time or a reason follows). Whether it names the employer is not guessed from the word: the decider
 * ends the employer only when the word is the one held (`works_at`, the same value; rules 41b: "i left tesco and went
 * home", "i quit vaping last year" ended the bank). "… and went home" goes on with the leaving, no job told: no word.
 */
const LEFT_LOWER = /\b[Ii]\s+(?:just\s+|finally\s+)?(?:left|quit)\s+([a-z][a-z&-]{2,})(?=\s*(?:[,.;!]|$)|\s+(?:in|last|this|after|before|because|since|a|two|three|four|five|six|when|over|at\s+the\s+end)\b)/;

/** Words after "left" that name no firm: a time, a pronoun, home or school ("i left early", "i left them"). */
const NOT_EMPLOYERS = new Set(['early', 'late', 'home', 'school', 'uni', 'college', 'yesterday', 'today', 'tonight', 'already',
  'them', 'him', 'her', 'you', 'everything', 'everyone', 'again']);

/** The word a lower-case "i left / quit <word>" names, told as done, or null (`LEFT_LOWER`); a habit is no firm. */
function employerLeftLower(sentence: string): string | null {
  const m = LEFT_LOWER.exec(sentence);
  return m?.[1] && !NOT_EMPLOYERS.has(m[1]) && !HABITS.test(m[1]) && toldAsDone(sentence, m.index) ? m[1] : null;
}

/** Habits one quits (rules 42): "smoking", "vaping", "drinking", "gambling", "snacking". */
const HABITS = /^(?:smoking|vaping|drinking|gambling|snacking|boozing|betting)$/i;
/**
 * A habit given up, told as done: "i quit vaping last year", "I gave up smoking", "I've stopped drinking" (rules 42: it was
 * read as an employer left, "vaping", or as nothing). The habit ends the clause or a time or a reason follows it ("I
 * stopped drinking coffee" is a liking given up, `TASTE_GIVEN_UP`).
 */
const HABIT_GIVEN_UP = /\bI(?:['’]ve|\s+have)?\s+(?:just\s+|finally\s+|actually\s+)?(?:quit|quitted|stopped|gave\s+up|given\s+up|kicked|packed\s+in|cut\s+out)\s+([a-z]+ing)(?=\s*(?:[,.;!]|$)|\s+(?:for\s+good|altogether|completely|in|last|this|a|an|two|three|four|five|six|ten|ago|after|because|since|and|but|so|when|now|years?|months?|weeks?)\b)/i;

/** The habit a sentence tells as given up ("i quit vaping last year": "vaping"), not as a plan, a maybe or a denial; or null. */
export function habitGivenUp(sentence: string): string | null {
  const m = HABIT_GIVEN_UP.exec(sentence);
  return m?.[1] && HABITS.test(m[1]) && toldAsDone(sentence, m.index) ? m[1].toLowerCase() : null;
}

const ENDS: Array<[RegExp, string]> = [
  [/\bI\s+(?:left|quit)\s+(?!my job\b)([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)/, 'works_at'],
  [/\b(?:not|no longer)\s+(?:teaching|working as)\b/i, 'occupation'],
  // "I'm not vegetarian anymore" (rules 40: "I\s+" before "'m not" never matched, and the diet was kept).
  [/\bI\s+eat\s+meat\s+again\b|\bI(?:\s+stopped\s+being|\s+am\s+(?:not|no\s+longer)|['’]m\s+(?:not|no\s+longer))\s+(?:a\s+)?(?:vegan|vegetarian|veggie|pescatarian)\b/i, 'diet'],
  [/\b(?:don['’]t|do not)\s+avoid\s+\w+\s+anymore\b/i, 'diet'],
];

const ROMANTIC = /^(?:wife|husband|partner|boyfriend|girlfriend|fiance|fiancée|spouse)$/i;

/** The slot of a relation role: romantic roles are one slot ("my partner is Jordan now" replaces "my boyfriend Sam"). */
export function relationSlot(role: string, single: boolean, name: string): string {
  if (ROMANTIC.test(role)) return 'relation:partner';
  return single ? `relation:${role}` : `relation:${role}:${name.toLowerCase()}`;
}

/**
 * Life slots read by meaning: a small lexicon of cues for each slot (where one lives, the job, the diet, a taste, an
 * allergy) with the frame of a state told as it holds now. Phrase rules above catch "I live in X" / "I moved to X"; these
 * catch a state told in other words ("we're in a little terraced house in Ashby now" after a move, "I've gone vegetarian",
 * "I'm tutoring full time now" after leaving a school, "I've come round to coffee", "cats set my allergies off").
 */
/** A move or a home of one's own: the cue that "we're in X now" tells where one lives. */
const MOVE_CUE = /\b(?:moved|moving|relocated|(?:new|own|first)\s+(?:place|flat|house|home|apartment|digs)|bought\s+(?:a|our|my)\s+(?:first\s+)?(?:house|flat|place|home)|landlord|the\s+keys\b)/i;
/** A stay, not a home: a holiday, a trip, a visit, a hotel, a stay told for a time. */
const STAY = /\b(?:holiday|holidays|vacation|trip|visit|visiting|hotel|hostel|staying|stopover|for\s+(?:the|a|one|two|three|a few|a couple of)\s+(?:night|nights|day|days|week|weeks|weekend|fortnight))\b/i;
/** A dwelling: "a little terraced house", "a one-bed", "a flat". */
export const DWELLING = /\b(?:flat|house|home|place|apartment|bungalow|cottage|terrace|terraced|semi|maisonette|studio|one-bed|two-bed|three-bed|bedsit|digs|houseshare|house share)\b/i;
/** Where one lives now, by meaning: "we're in a little terraced house in Ashby now", "we've moved into a flat on Mill Lane". */
const HOME_NOW: RegExp[] = [
  /\b(?:I|we)(?:\s+\w+ly|\s+just|\s+finally)?(?:\s+have|['’]ve)?\s+moved\s+in(?:to|\s+to)\s+(.+)/i,
  /\bI(?:['’]m|\s+am)?\s+(?:now\s+)?(?:renting|rent)\s+((?:a|an)\s+(?:\w+\s+){0,2}(?:room|flat|house|place|apartment|studio|bedsit|cottage)\b.*)/i,
  /\b(?:I['’]m|I\s+am|we['’]re|we\s+are)\s+(?:now\s+|all\s+|finally\s+)?(?:settled\s+)?in\s+(.+)/i,
  // "I've got my own place now", "Sana's got her own flat in Leeds" (read as her own "I've got…").
  /\b(?:I|we)(?:['’]ve|\s+have)?\s+(?:now\s+|finally\s+|just\s+)?got\s+(?:a|my|our|her|his|their)\s+((?:own|new)\s+(?:place|flat|house|home|apartment)\b.*)/i,
];
/** What one does for a living, told as an activity ("tutoring", "teaching") with a cue that it is the job now. */
const JOB_ACTIVITY = /\b(?:I['’]m|I\s+am)\s+(?:now\s+)?((?:tutoring|teaching|lecturing|nursing|freelancing|consulting|contracting|temping|childminding|coaching|driving|cleaning|waitressing|bartending|labouring|laboring|farming|training)\b.*)/i;
/** Said of the job: full time, part time, self-employed, for a living, or a job just left. */
const JOB_CUE = /\b(?:full[- ]time|part[- ]time|self[- ]employed|freelance|for a living|(?:left|quit)\b|handed in|redundant|retired|new job)\b/i;
const JOB_FILLS: Array<[RegExp, string]> = [
  [/\bI(?:['’]ll|\s+will)?\s+(?:start|started|am starting|['’]m starting|begin|began)\s+(?:work\s+|the new job\s+)?as\s+(?:a|an)\s+([a-z][a-z -]+)/i, 'occupation'],
  [/\bI(?:\s+(?:got|landed|took|have)|['’]ve got)\s+(?:a|the)\s+(?:new\s+)?job\s+as\s+(?:a|an)\s+([a-z][a-z -]+)/i, 'occupation'],
  [/\bI(?:['’]ve| have)?\s+(?:been|got|was)\s+promoted\s+to\s+([a-z][a-z -]+)/i, 'occupation'],
  [/\bI(?:['’]ve| have)?(?:\s+just)?\s+(?:started|got|landed|taken|took)\s+(?:a|the)\s+(?:new\s+)?job\s+(?:at|with)\s+(.+)/i, 'works_at'],
];
/**
 * The whole job over, told as done: notice handed in, resigned, let go, laid off, fired, made redundant, retired ("I'm
 * going to hand in my notice", "I'm retiring next year" are plans, not endings). The employer ends and the role with it.
 * A job given up is the speaker's own, "my job", not "the job" ("my husband gave up the job at the bank") nor a thing of
 * a job ("i left my job interview feeling great", "i gave up my job search"; rules 41b).
 */
const JOB_ENDS = /\b(?:handed in (?:my|his|her|our) notice|(?:I|we)(?:['’]ve|\s+have)?\s+(?:just\s+|finally\s+|officially\s+)?resigned\b(?!\s+(?:myself|ourselves)\s+to\b)|(?:was|been|got|were) made redundant|(?:was|been|got|were) (?:let go|laid off|fired|sacked)|(?:they|he|she|the company|the firm|my boss)\s+(?:let|laid)\s+me\s+(?:go|off)|(?:lost|quit|left|packed\s+in|jacked\s+in|walked\s+out\s+of|(?:gave|given)\s+up)\s+my\s+(?:(?:full[- ]time|part[- ]time|day|old)\s+)?job\b(?!\s+(?:interviews?|search(?:es)?|hunt(?:ing)?|applications?|offers?|descriptions?|titles?|ads?|adverts?|listings?|fairs?|centre|center|prospects|board|site|share|seeking|spec)\b)|I(?:['’]ve|\s+have)?\s+(?:just\s+|finally\s+|officially\s+)?retired\b|I(?:['’]m|\s+am)\s+(?:now\s+)?retired\b)/i;
/**
 * Words before a job ending in its clause that say it has not happened: the hedges an act told as done may not follow
 * (`HEDGES`: a modal, a negation, "if", "when", "once", "almost"…; "to" only as below, since "went to work and…" is no
 * hedge), and a wish or a plan ("I'm thinking of leaving my job", "I want to quit my job"; rules 41). "The day I quit my
 * job was the best day": told of a day, the job may be one held long ago; it ends nothing (rules 41b, the safe reading).
 */
const NOT_ENDED_YET = new RegExp(`\\b(?:${[...HEDGES].filter((w) => w !== 'to' && /^[a-z]+$/.test(w)).join('|')}|unless|cannot|gonna|going\\s+to|`
  + `want(?:s|ed)?\\s+to|plan(?:s|ning)?\\s+to|thinking\\s+(?:of|about)|considering|about\\s+to|whenever|the\\s+day)\\b|n['’]t\\b|['’](?:d|ll)\\b`, 'i');

/** True when the sentence tells a whole job over as done (`JOB_ENDS`), not as a condition, a maybe or a plan. */
function jobEnded(sentence: string): boolean {
  const m = JOB_ENDS.exec(sentence);
  return m !== null && toldAsDone(sentence, m.index);
}

/** True when nothing in the clause before `at` makes what follows a condition, a maybe, a plan or a denial (`NOT_ENDED_YET`). */
function toldAsDone(sentence: string, at: number): boolean {
  return !NOT_ENDED_YET.test(clauseBefore(sentence, at));
}

/** True when `sentence` is asked: it ends with a question mark. */
function asks(sentence: string): boolean {
  return /\?\s*$/.test(sentence);
}

/** The words of the clause of `sentence` before `at`: from the last stop, comma or "and" / "but" / "so" before it. */
function clauseBefore(sentence: string, at: number): string {
  return sentence.slice(0, at).split(/[,.;:!?]|\s(?:and|but|so)\s/i).pop() ?? '';
}

/** A word that cancels ("cancelled", "cancelling", "called off"). */
const CANCEL_WORD = /\b(?:cancel(?:s|l?ed|ling)?|call(?:s|ed|ing)? off)\b/gi;
/**
 * A word of the chain of auxiliaries, negations and adverbs a cancelling verb opens its clause's verb with ("didn't get
 * cancelled", "hasn't been cancelled", "may be cancelled", "will probably cancel", "I'm going to cancel").
 */
const CANCEL_AUX = /^(?:am|is|are|was|were|be|been|being|get|gets|got|gotten|getting|do|does|did|has|have|had|will|would|shall|should|can|could|may|might|must|to|going|gonna|not|never|just|already|also|still|probably|maybe|perhaps|possibly|definitely|certainly|really|actually|officially|finally|now|all|both)$/;
/** One of those that tells the cancelling verb as not happened: a negation, or a maybe ("might", "may", "could", "probably"; rules 106). */
const CANCEL_NOT = /^(?:not|never|might|may|could|probably|maybe|perhaps|possibly|cannot)$|n['’]?t$/;
/** A negation joined to its auxiliary, with or without the apostrophe ASR drops ("didn't", "didnt", "can't", "won't"). */
const NEGATED_AUX = /^(?:(?:did|do|does|is|are|was|were|has|have|had|ca|could|would|should|wo|might|must|need|ai)n['’]?t|cannot)$/;
/**
 * Opens the clause of a cancelling verb as a condition ("if the concert gets cancelled", "unless they cancel", "whether
 * they cancel", "in case it's called off") or a belief denied ("I don't think they'll cancel", "I doubt they'll cancel").
 */
const CANCEL_IF = /\b(?:if|unless|whether|in case|doubt)\b|\b(?:do|does|did)(?:\s+not|n['’]?t)\s+(?:think|expect|reckon|suppose)\b/i;
/** Asks someone to cancel: "can you cancel…?", "could you please cancel…?", "would you mind cancelling…?", "can we cancel…?". */
const CANCEL_ASKED = /\b(?:can|could|would|will)\s+(?:you|u|we)\s+(?:(?:please|just|kindly|mind)\s+)*$/i;

/**
 * True when the cancelling word at `at` is told as not happened: its own chain of auxiliaries holds a negation or a maybe
 * (`CANCEL_AUX`, `CANCEL_NOT`), or its clause is a condition (`CANCEL_IF`). A negation or modal of another verb ("I can't
 * believe they cancelled…", "I'm not going because they cancelled it", "I would like to cancel…") leaves it told.
 */
function cancelNotTold(sentence: string, at: number): boolean {
  const clause = clauseBefore(sentence, at);
  if (CANCEL_IF.test(clause)) return true;
  const words = clause.toLowerCase().split(/\s+/).filter((w) => w !== '').map((w) => w.replace(/^[^\p{L}]+|[^\p{L}'’]+$/gu, ''));
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i]!;
    // "They'll cancel", "it'd be cancelled": a subject joined to its auxiliary ends the chain.
    if (!CANCEL_AUX.test(w) && !NEGATED_AUX.test(w)) return false;
    if (CANCEL_NOT.test(w)) return true;
  }
  return false;
}

/**
 * True when `sentence` names a cancelling word and tells none as happened (`cancelNotTold` of each, or a question that
 * asks no one to cancel: "Did Tom cancel his concert?", not "Could you cancel my appointment?"): it cancels nothing, and
 * withdraws nothing.
 */
export function cancellationNotTold(sentence: string): boolean {
  const found = [...sentence.matchAll(CANCEL_WORD)];
  if (found.length === 0) return false;
  return found.every((m) => (asks(sentence) && !CANCEL_ASKED.test(clauseBefore(sentence, m.index))) || cancelNotTold(sentence, m.index));
}

/** A whole-job ending: the employer slot ends, and the role with it (`ends`). */
const JOB_OVER: SlotChange = { slot: 'works_at', value: null, ends: 'occupation' };

/**
 * Relationship status, one slot whose new value closes the old: started seeing someone, engaged, married. A wedding or an
 * engagement to come ("we're getting married in June") is a plan, no status. A break-up or a divorce ends the partner
 * and the status with it (`RELATIONSHIP_OVER`).
 */
const RELATIONSHIP: Array<[RegExp, string]> = [
  [/\b(?:I|we)(?:['’]ve|\s+have)?\s+(?:just\s+|recently\s+)?(?:started|begun|began)\s+(?:seeing|dating|going out with)\s+\S|\bI(?:['’]m|\s+am|['’]ve\s+been|\s+have\s+been)\s+(?:now\s+)?(?:seeing|dating)\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman|lad|bloke))\b/i, 'dating'],
  [/\b(?:I|we)(?:['’]ve|['’]re|['’]m|\s+have|\s+are|\s+am)?\s+(?:just\s+|finally\s+|officially\s+|now\s+)?(?:got\s+|gotten\s+|been\s+)?engaged\b(?!\s+(?:in|with)\b)/i, 'engaged'],
  [/\b(?:I|we)(?:['’]ve|['’]re|['’]m|\s+have|\s+are|\s+am)?\s+(?:just\s+|finally\s+|officially\s+|now\s+)?(?:got\s+|gotten\s+|been\s+)?married\b|\b(?:we|I)\s+tied\s+the\s+knot\b/i, 'married'],
];
const RELATIONSHIP_OVER = /\b(?:broke up|split up|separated(?!\s+(?:the|it|them|out)\b)|got divorced|are divorced|am single|['’]m single)\b/i;
/** A diet one has taken up: "I've gone vegetarian", "I turned vegan", "I'm now pescatarian", "I stopped eating meat". */
const DIET_NOW = /\b(?:I|we)(?:['’]ve|\s+have)?\s+(?:\w+ly\s+|now\s+|just\s+|finally\s+)?(?:gone|went|turned|become|became|switched\s+to|(?:['’]m|am)\s+now|(?:['’]m|am)\s+going)\s+(?:fully\s+|completely\s+|strictly\s+|full\s+)?(vegan|vegetarian|veggie|pescatarian|plant[- ]based)\b/i;
const NO_MEAT = /\b(?:I|we)(?:['’]ve|\s+have)?\s+(?:\w+ly\s+)?(?:stopped\s+eating|given\s+up|gave\s+up|cut\s+out)\s+meat\b/i;
/**
 * Meat given up, told as a negation ("I don't eat meat anymore", "I no longer eat meat"; rules 38): a diet taken up, not
 * a withdrawal; "I don't eat meat on Fridays" is a custom and "I don't eat meat much" a habit, no diet: the clause
 * ends at "meat" (or "anymore", "these days", "now").
 */
const NO_MEAT_SAID_NOT = /\b(?:I|we)\s+(?:don['’]t|do\s+not|no\s+longer)\s+eat\s+(?:any\s+)?meat(?:\s+(?:any\s?more|these\s+days|now))?(?=\s*(?:[.,;!?]|$)|\s+(?:and|but|so)\b)/i;

/** True when a negated sentence tells of a diet taken up ("I don't eat meat anymore"): no withdrawal (rules 38). */
export function dietSaidNot(sentence: string): boolean {
  return NO_MEAT_SAID_NOT.test(sentence);
}
/** A taste taken up or dropped: "I've come round to coffee", "I've gone off crisps". */
const TASTE_TAKEN = /\bI(?:['’]ve|\s+have)?\s+(?:\w+ly\s+|actually\s+|finally\s+)?(?:(?:come|came)\s+(?:a)?round\s+to|warmed\s+(?:up\s+)?to|grown\s+to\s+(?:like|love|enjoy)|started\s+(?:liking|loving|enjoying)|(?:become|became)\s+(?:a\s+)?(?:big\s+|huge\s+|real\s+)?fan\s+of)\s+(.+)/i;
const TASTE_DROPPED = /\bI(?:['’]ve|\s+have)?\s+(?:\w+ly\s+|actually\s+)?(?:(?:gone|went)\s+(?:right\s+|completely\s+)?off|fallen\s+out\s+of\s+love\s+with|(?:got|gotten|grown|become)\s+(?:sick|tired)\s+of)\s+(?!to\b|with\b|on\b|at\b|home\b|the\s+(?:idea|plan)\b)(.+)/i;
/**
 * A thing to eat or drink, or a pastime, given up (rules 41): "I stopped drinking coffee", "I quit coffee", "I gave up
 * chocolate", "I've cut out sugar" (1), or said not to be done any more: "I don't drink coffee anymore", "I no longer eat
 * chocolate", "I don't drink tea now" (2), or no longer liked: "I'm not into football anymore" (3, rules 42). The clause ends there or at a time: "I don't drink coffee after six" is a
 * habit, "I stopped for coffee" a stop. The thing must be likeable (`likeableThing`): "I gave up my seat" is none.
 */
const TASTE_GIVEN_UP = new RegExp(String.raw`\bI(?:['’]ve|\s+have)?\s+(?:\w+ly\s+|just\s+|finally\s+)?(?:stopped|quit|quitted|gave\s+up|given\s+up|cut\s+out|packed\s+in)\s+((?:drinking|eating|having|playing|doing)\s+)?(?!(?:my|the|a|an|on|for|to|at|by|in|with|being|it|that|this|them|smoking|work|working|school|job)\b)([a-z][a-z -]*?)`
  + String.raw`(?=\s*(?:[,.;!]|$)|\s+(?:for\s+good|altogether|completely|entirely|in|last|this|a|two|three|four|five|six|ago|after|because|since|and|but|so|now|anymore|any\s+more)\b)`
  + String.raw`|\bI\s+(?:(?:really\s+)?(?:don['’]t|do\s+not)\s+(?:really\s+)?|no\s+longer\s+)(?:drink|eat|have|play|do)\s+(?!(?:my|the|a|an|any|much|it|that|this|them|meat)\b)([a-z][a-z -]*?)\s*,?\s+(?:any\s?more|these\s+days|nowadays|now)(?=\s*(?:[,.;!]|$))`
  + String.raw`|\bI(?:['’]m|\s+am)\s+(?:not|no\s+longer)\s+(?:really\s+|that\s+|so\s+)?into\s+(?!(?:my|the|a|an|any|much|it|that|this|them|him|her)\b)([a-z][a-z -]*?)\s*,?\s+(?:any\s?more|these\s+days|nowadays|now)(?=\s*(?:[,.;!]|$))`, 'i');

/** An allergy, however told: "I'm allergic to cats", "I have a nut allergy", "cats set my allergies off". */
const ALLERGY: RegExp[] = [
  /\bI(?:['’]m|\s+am)\s+(?:\w+\s+)?allergic\s+to\s+(.+)/i,
  /\bI(?:\s+(?:have|got)|['’]ve got)\s+(?:a|an)\s+(?:bad\s+|severe\s+|mild\s+)?allergy\s+to\s+(.+)/i,
];
const ALLERGY_BY_SUBJECT = /^(?:(?:but|and|so|oh|well|honestly),?\s+)*(?:the\s+)?([A-Za-z][a-z]+(?:\s+[a-z]+)?)\s+(?:set|sets|trigger|triggers|set\s+off|sets\s+off|bring\s+on|brings\s+on)\s+my\s+(?:allerg(?:y|ies)|hay\s*fever|asthma)\b/i;
const ALLERGY_NOUN = /\b(?:I\s+(?:have|['’]ve got)|my)\s+(?:bad\s+|severe\s+)?([a-z]+)\s+allergy\b/i;
/** A denial: "I'm not allergic", "I'm no longer…". */
const DENIED = /\b(?:not|never|no longer)\b|n['’]t\b/i;

/**
 * The thing a taste or an allergy is about, as a slot key: lower-case, singular ("cats" -> "cat"), the key a liking of
 * it has (`thingSlotKey`, rules 43).
 */
function thingKey(raw: string): string {
  return thingSlotKey(cut(raw.replace(/\s+(?:after all|either|any ?more)\b.*$/i, '')));
}

/** The life slot a sentence tells by meaning (see above), or null. */
function lifeSlot(sentence: string, isNounPhrase: (phrase: string) => boolean): SlotChange | null {
  if (!STAY.test(sentence)) {
    // "I've moved back in with my parents": where one lives is with them.
    const withThem = sentence.match(/\b(?:I|we)(?:['’]ve|\s+have)?\s+(?:\w+ly\s+|just\s+)?moved\s+(?:back\s+)?in\s+with\s+(.+)/i)?.[1];
    if (withThem && cut(withThem)) return { slot: 'lives_in', value: `with ${cut(withThem)}`, attribute: 'lives_in' };
  }
  if ((MOVE_CUE.test(sentence) || /\brent/i.test(sentence)) && !STAY.test(sentence)) {
    for (const re of HOME_NOW) {
      const value = cutPlace(sentence.match(re)?.[1]);
      if (value && (DWELLING.test(value) || /^[A-Z]/.test(value))) return { slot: 'lives_in', value, attribute: 'lives_in' };
    }
  }
  for (const [re, slot] of JOB_FILLS) {
    const raw = cut(sentence.match(re)?.[1]);
    if (slot === 'works_at' && raw) return { slot, value: raw.replace(/^(?:the|a|an)\s+(?=[A-Z])/, ''), attribute: slot };
    const value = raw.toLowerCase();
    // An occupation needs a job-holder ("I'm still a nurse", not "I'm a mess this week": `holdsAJob`, rules 35).
    if (value && value.split(' ').length <= 4 && (slot === 'occupation' ? holdsAJob(value, isNounPhrase) : isNounPhrase(value))) return { slot, value, attribute: slot };
  }
  const activity = sentence.match(JOB_ACTIVITY)?.[1];
  if (activity && JOB_CUE.test(sentence)) {
    const value = cut(activity.replace(/\s+(?:full[- ]time|part[- ]time)\b/i, '')).toLowerCase();
    if (value) return { slot: 'occupation', value, attribute: 'occupation' };
  }
  if (jobEnded(sentence)) return JOB_OVER;
  if (RELATIONSHIP_OVER.test(sentence)) return { slot: 'relation:partner', value: null, ends: 'relationship' };
  const status = RELATIONSHIP.find(([re]) => re.test(sentence))?.[1];
  if (status) return { slot: 'relationship', value: status, attribute: 'relationship' };
  // "We've moved out of the flat" with no new home told: where one lived ends.
  const out = sentence.match(/\b(?:I|we)(?:['’]ve|\s+have)?\s+(?:\w+ly\s+|just\s+)?moved\s+out(?:\s+of\s+(.+))?/i);
  if (out && (!out[1] || DWELLING.test(cut(out[1]))) && !STAY.test(sentence)) return { slot: 'lives_in', value: null };
  const diet = sentence.match(DIET_NOW)?.[1]?.toLowerCase();
  if (diet) return { slot: 'diet', value: diet === 'veggie' ? 'vegetarian' : diet.replace(/\s+/, '-'), attribute: 'diet' };
  if (NO_MEAT.test(sentence) || NO_MEAT_SAID_NOT.test(sentence)) return { slot: 'diet', value: 'vegetarian', attribute: 'diet' };
  // "I don't drink coffee anymore", "I stopped drinking coffee", "I gave up chocolate": a liking ended (rules 41).
  // Given up with no verb of eating or drinking ("I quit coffee"), the thing must be one WordNet lists: "i quit tesco" is a firm.
  const given = TASTE_GIVEN_UP.exec(sentence);
  const gone = given ? (given[2] ?? given[3] ?? given[4] ?? '') : '';
  const goneKey = gone ? thingKey(gone) : '';
  const listed = given?.[1] !== undefined || given?.[3] !== undefined || defaultWordNet().nounKinds(goneKey).length > 0;
  if (given && goneKey && goneKey.split(' ').length <= 2 && listed && toldAsDone(sentence, given.index) && likeableThing(gone, sentence, true)) {
    return { slot: `preference:${goneKey}`, value: null, kind: 'preference' };
  }
  for (const [re, value] of [[TASTE_TAKEN, 'like'], [TASTE_DROPPED, 'dislike']] as const) {
    const m = sentence.match(re);
    const thing = m?.[1] ? thingKey(m[1]) : '';
    if (thing && thing.split(' ').length <= 3 && !/^(?:it|that|this|them|him|her)$/.test(thing)) {
      return { slot: `preference:${thing}`, value, kind: 'preference' };
    }
  }
  // "I'm allergic to peanuts, not nuts": the allergy told replaces the one denied (trial 9).
  const corrected = correctedAllergy(sentence);
  if (corrected && thingKey(corrected.told) && thingKey(corrected.denied)) {
    return { slot: `allergy:${thingKey(corrected.told)}`, value: 'allergic', ends: `allergy:${thingKey(corrected.denied)}` };
  }
  // "I'm not actually allergic to penicillin after all": an allergy denied ends the one held.
  const denied = sentence.match(/\bI(?:['’]m|\s+am)\s+(?:not|no longer)\s+(?:\w+\s+)?allergic\s+to\s+(.+)/i)?.[1];
  if (denied && thingKey(denied) && !/^(?:anything|it|that)$/.test(thingKey(denied))) return { slot: `allergy:${thingKey(denied)}`, value: null };
  if (!DENIED.test(sentence)) {
    const m = ALLERGY.map((re) => sentence.match(re)).find((x) => x?.[1]) ?? sentence.match(ALLERGY_BY_SUBJECT) ?? sentence.match(ALLERGY_NOUN);
    const thing = m?.[1] ? thingKey(m[1]) : '';
    if (thing && thing.split(' ').length <= 3 && !/^(?:it|that|this|them|bad|severe)$/.test(thing)) return { slot: `allergy:${thing}`, value: 'allergic' };
  }
  return null;
}

/** Slots of one family: a new job ends the old one whichever of employer or role it names. */
const FAMILY: Record<string, string> = { works_at: 'job', occupation: 'job' };
const family = (slot: string): string => FAMILY[slot] ?? slot;

/**
 * The slot a first-person sentence fills or ends, if any. `isNounPhrase` (from POS tags) keeps
 * "I'm a bit tired" from being read as a job. A sentence that ends a slot and fills one of its
 * family ("I left Hillcrest, I'm tutoring full time now") fills it: a new value, not an ending.
 */
export function slotChange(sentence: string, isNounPhrase: (phrase: string) => boolean = () => true): SlotChange | null {
  const ended = ENDS.find(([re]) => re.test(sentence))?.[1];
  const filled = fill(sentence, isNounPhrase);
  const leftWord = ended || filled ? null : employerLeftLower(sentence);
  if (leftWord) return { slot: 'works_at', value: leftWord, withdrawn: true };
  if (ended && !(filled && family(filled.slot) === family(ended))) return { slot: ended, value: null };
  return filled && ended && ended !== filled.slot ? { ...filled, ends: ended } : filled;
}

/**
 * An employer said with the title held there ("Initech as an engineer"): the employer and the title apart (rules 44; the
 * whole phrase was the `works_at` value, so "I don't work at Initech anymore" ended nothing). The title is null when none.
 */
export function employerAndTitle(said: string): [employer: string, title: string | null] {
  const m = /^(.+?)\s+as\s+(?:an?\s+)?([a-z][a-z -]*?)\s*$/i.exec(said);
  return m?.[1] && m[2] ? [m[1], m[2]] : [said, null];
}

function fill(sentence: string, isNounPhrase: (phrase: string) => boolean): SlotChange | null {
  for (const [re, key] of FILLS) {
    const m = sentence.match(re);
    const said = m?.[1] ?? m?.[2];
    // "I'm now a teacher at the primary school": the job, not where it is held (rules 40, as `background` reads it).
    const value = key === 'lives_in' ? cutPlace(said) : key === 'occupation' ? cut(said).replace(/\s+(?:at|in|for|with)\s+.*$/i, '')
      : key === 'works_at' ? employerAndTitle(cut(said))[0] : cut(said);
    if (!m || !value) continue;
    // "I live in hope", "we're living in fear": a state of mind, no place (`namesNoPlace`).
    if (key === 'lives_in' && namesNoPlace(value)) continue;
    // "We moved to a hotel for the night": a stay, not a home.
    if (key === 'lives_in' && /\b(?:moved|relocated)\b/i.test(m[0]) && STAY.test(sentence)) continue;
    // A job-holder (`holdsAJob`, rules 35): "I'm a nurse", not "I'm a mess this week".
    if (key === 'occupation' && (value.split(' ').length > 3 || IDIOM_NOUN.test(said ?? '') || !holdsAJob(value, isNounPhrase))) continue;
    const [slot, verb] = key.split(':') as [string, string | undefined];
    const v = verb ? `${verb} ${value}` : value.toLowerCase().replace(/\s+/g, ' ');
    return { slot, value: slot === 'lives_in' || slot === 'works_at' ? value : v, attribute: slot };
  }
  return lifeSlot(sentence, isNounPhrase);
}

/**
 * "won't be returning the laptop" cancels as "not going to return" does; "dropped the course" does, "dropped the keys
 * off" (the particle after the object: a delivery) does not. "I won't need a van", "I don't need to buy a printer any
 * more", "I've given up on the pottery class" and a negative imperative at a clause start ("Actually, don't send the
 * lemons") cancel too; "I still haven't cancelled my phone contract", "I haven't got round to cancelling it" and "I forgot
 * to cancel it" (a cancelling denied) do not.
 */
const CANCELLED = /\b(?:won['’]t be able to|(?:won['’]t|will not) be \w+ing|(?:won['’]t|will not|(?:do|does)(?:n['’]t| not)) need\b|given up (?:on|the)\b|gave up (?:on|the)\b|can['’]t (?:do it|make it)|(?<!(?:(?:n['’]t|\bnot|\bnever)(?:\s+(?:yet|even|still|been|got(?:ten)? (?:a)?round to|managed to|had (?:the |a )?(?:time|chance) to))?|\bforg[eo]t to)\s+)cancel(?:l?ed|ling)?|call(?:ed)? off|(?:pull(?:ed|ing)?|back(?:ed|ing)?) out of|decided (?:to skip|against|not to)|(?:forget|never mind) about|not going to|skip(?:ping)? the|drop(?:ped)? the(?!(?:\s+[\w'’-]+){1,3}\s+off\b))\b/i;
/** Things that happen on a day, which may be told as off ({@link EVENT_OFF}): "concert", "lunch", "book club". */
const EVENT_NOUN = String.raw`(?:concerts?|gigs?|shows?|part(?:y|ies)|lunch|dinner|breakfast|brunch|drinks|meetings?|trips?|match|game|wedding|date(?: night)?|class|lessons?|appointments?|events?|festival|holiday|picnic|barbecue|bbq|visit|tour|rehearsal|practice|training|interview|plans?|flights?|hike|movie|film|play|performance|celebration|sleepover|playdate|reunion|book club|viewing|opera|ballet|recital|session|meetup|meet-up)`;
/**
 * A day or a date "is off on" may name ("the concert's off on Friday"; rules 113), not "off on a tour", a weekly "off on
 * Mondays" nor "off on Mayfair" (review of rules 113 M1).
 */
const OFF_ON_DAY = String.raw`on\s+(?:(?:${WEEKDAY_NAME}|${MONTH_NAMES.join('|')})\b|the\s+\d|\d)`;
/**
 * An event told as off ("the concert is off", "lunch with Tom is off", "the match is off because of the rain"): a thing that
 * happens on a day, then "is / was / 's off", not before "to / the / of / on…" (rules 109), but before "on" and a day
 * ("the concert's off on Friday"; rules 113). Not a light, a person ("I'm off
 * on Friday") or a day off ("take the day off"), nor a start ("is off to a great start").
 */
const EVENT_OFF = new RegExp(String.raw`\b${EVENT_NOUN}(?:\s+(?:with|at|in|on|for|to|this|next|tonight|tomorrow)\b[^,.;:!?]*?)?\s*(?:\s(?:is|are|was|were)|['’]s)\s+(?:(?:now|definitely|officially|totally|completely|all|sadly|unfortunately|apparently)\s+)?off\b(?!\s+(?:to|the|of|at|from|into|with|in|and)\b|\s+(?!${OFF_ON_DAY})on\b)`, 'i');
const EVENT_NOUN_WORD = new RegExp(String.raw`^${EVENT_NOUN}$`, 'i');
/** True when `word` (lower-case) names a thing that happens on a day ("dinner", "concert"): no one's name. */
export function eventNoun(word: string): boolean {
  return EVENT_NOUN_WORD.test(word);
}

/** True when `sentence` tells an event as off ({@link EVENT_OFF}), not asked or in a condition ("if the concert is off"). */
function eventOff(sentence: string): boolean {
  const m = EVENT_OFF.exec(sentence);
  return m !== null && !asks(sentence) && !CANCEL_IF.test(clauseBefore(sentence, m.index));
}

/**
 * True when `sentence` tells an event as not off ("the concert is not off after all", "the party isn't off"): it is still
 * on, nothing withdrawn (review-cancel2 M3).
 */
export function eventNotOff(sentence: string): boolean {
  const on = sentence.replace(/\bnot\s+off\b/i, 'off').replace(/(?<=\w)n['’]t\s+off\b/i, ' off');
  return on !== sentence && eventOff(on);
}

/** "The new printer is up and running": set up and working, a plan to set it up done. */
const DONE = /\b(?:finished|done|completed|installed|built|delivered|sent|brought|fixed|took care of|handed in|are ready|is ready|up and running)\b/i;
/**
 * "Actually, I won't order the curtains": a first-person "won't" and an action, said as a change of mind, cancels that
 * action; "I won't be late", "I won't forget" and a "won't" with no change of mind do not.
 */
const WONT = /\b(?:I|we)\s+(?:won['’]t|will not)\s+(?!(?:be|forget|let|mind|know|have|get|see|tell|say|lie|stop|worry|miss|keep)\b)[a-z]+/i;
const CHANGE_OF_MIND = /\b(?:actually|after all|on second thoughts?|in the end|thinking about it|changed (?:my|our) mind)\b/i;
/** A negative imperative at a clause start ("And on second thought, don't do the MOT"), not "don't worry" or "don't forget". */
const DONT = /(?:^|[,;:]\s*|\b(?:and|so|then|actually|please)\s+)(?:please\s+)?(?:don['’]t|do not)\s+(?!(?:worry|forget|mind|know|think|like|want|have|get|see|understand|remember|be|you)\b)[a-z]+/i;
/** "The appointment has been moved to Thursday", "book club got moved to Friday": a reschedule, the event put elsewhere. */
const MOVED = /\b(?:has|have|had|'s|'ve)?\s*(?:been|got|gets|was|were)\s+(?:moved|rescheduled|pushed back|brought forward|put back|changed)\s+to\b/i;
/** True when the sentence tells a reschedule ("the appointment has been moved to Friday"). */
export function reschedules(sentence: string): boolean {
  return MOVED.test(sentence);
}
const INSTEAD = /\b(?:instead|rather than|changed (?:my|our) mind)\b/i;
/** A choice between options: "we decided to…", "we went with the rain barrels", "we chose tulips" (not "I'll go with you"). */
const DECIDED = /\b(?:decided (?:to|on)|settled on|opted for|chose\b|(?:have|has|had|'ve) chosen|picked out|(?:went|go|going) with (?!(?:you|me|us|him|her|them|my|our|your|his|their)\b))/i;

const INTENTION = /\b(?:plans? to|(?:the|my|our) plan is to|planning to|will|is going to|are going to|wants? to|intends? to|hopes? to|decided to|could|should|might|suggests?|proposes?)\b/i;

/** True for text that states an intention or proposal still open ("Lena and Ben could spend the grant on…"). */
export function isIntention(text: string): boolean {
  return INTENTION.test(text);
}

/**
 * Before a "done" word: it did not happen ("haven't done", "not finished"), only might have ("couldn't
 * have done"), may happen ("we can get it done", "let me know when you're done", "can't wait to see it done").
 */
const NOT_DONE = new RegExp([
  /(?:\b(?:not|never|no)|n['’]t)(?:\s+\w+){0,2}\s*$/.source,
  /\b(?:would|could|should|might|must)(?:\s+not|n['’]t)?\s+have\s*$/.source,
  /\b(?:can|could|will|would|should|might|may|must|gonna|going to|to (?:see|get|have))(?:\s+[\w'’]+){0,4}\s*$/.source,
  /\b(?:when|whenever|once|if|until|till|before)(?:\s+[\w'’]+){0,3}\s*$/.source,
].join('|'), 'i');

/** True when `sentence` reports something done, not denied, wished or asked about. */
function reportsDone(sentence: string): boolean {
  if (asks(sentence)) return false;
  const re = new RegExp(DONE.source, 'gi');
  for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
    if (!NOT_DONE.test(sentence.slice(0, m.index))) return true;
  }
  return false;
}

/**
 * Whether a sentence settles an earlier plan or commitment, and how (a decision settles a proposal). A "done" word counts only
 * where it is not denied ("I haven't done pottery yet"), counterfactual ("I couldn't have done it
 * without them") or asked about ("Have you finished the beds?").
 */
export function settles(sentence: string): Settles | null {
  const asked = asks(sentence);
  if ((CANCELLED.test(sentence) && !cancellationNotTold(sentence)) || eventOff(sentence) || (!asked && ((CHANGE_OF_MIND.test(sentence) && WONT.test(sentence)) || DONT.test(sentence)))) return 'cancelled';
  // "Change of plan, we're going on Sunday now", "we moved it to Sunday", "it's Sunday, not Saturday": a new time (fix9).
  if (INSTEAD.test(sentence) || MOVED.test(sentence) || retellsTime(sentence)) return 'instead';
  if (DECIDED.test(sentence) && !asked) return 'decided';
  if (reportsDone(sentence)) return 'done';
  return null;
}

/**
 * The clause of a sentence that cancels, from the clause start before the cancelling words ("Actually, my brother is lending
 * me his van, so I won't need a courtesy car" -> "I won't need a courtesy car"); the sentence when no one clause does.
 */
export function cancellingClause(sentence: string): string {
  const parts = sentence.split(/\s*[,;:]\s*(?:(?:so|but|because|and)\s+)?|\s+(?:so|but|because)\s+/i).filter((p) => p.length > 0);
  if (parts.length < 2) return sentence;
  const found = parts.find((p) => settles(p) === 'cancelled');
  return found ?? sentence;
}

/** The clause that tells a reschedule ("Oh, coach just texted, the match has been moved to Sunday" -> "the match has been moved to Sunday"). */
export function movedClause(sentence: string): string | null {
  if (!MOVED.test(sentence) || INSTEAD.test(sentence)) return null;
  const parts = sentence.split(/\s*[,;:]\s*(?:(?:so|but|because|and)\s+)?|\s+(?:so|but|because)\s+/i).filter((p) => p.length > 0);
  return parts.find((p) => MOVED.test(p)) ?? sentence;
}
