/**
 * Values a person holds with no end said that the other rules leave without a slot (rules 31): being on strike
 * ("we're on strike", "I'm out on strike": `status`, the slot a leave fills, read with the occupation it interrupts) and
 * a sport or exercise done as a habit ("I swim", "I play tennis on Sundays", "I go running every morning", "I do yoga":
 * a `sport:<activity>` preference, one slot per activity, so "I don't swim any more" withdraws it alone).
 */

/** What a standing value fills: its slot, kind and value, and how the memory says it when it is not the sentence itself. */
export interface StandingSlot {
  slot: string;
  kind: 'profile' | 'preference';
  value: string;
  /** The memory's words after the person's name ("is on strike"); absent: the sentence as said, in the third person. */
  says?: string;
}

const SUBJECT_BE = String.raw`\b(?:I|[Ww]e)(?:['’]m|\s+am|['’]re|\s+are)(?:\s+(?:currently|still|now|all|both|also))?`;
const STRIKE = new RegExp(String.raw`${SUBJECT_BE}\s+(?:out\s+)?on\s+(?:(?:a|an)\s+(?:[a-z-]+\s+)?)?strike\b`);
/**
 * "I", then a habit's adverb at most ("I also swim", "I usually play squash"), opening a main clause: "… when I hike"
 * tells when, not a habit of its own.
 */
const I_DO = String.raw`(?<!\b(?:when|whenever|while|if|unless|before|after|because|since|until|till|as|once|where)\s+)\b(?:I|[Ww]e)(?:\s+(?:also|still|usually|often|regularly|sometimes|mostly|normally|always))?`;
/** Sports one plays. */
export const PLAYED = 'tennis|table\\s+tennis|squash|badminton|football|soccer|basketball|volleyball|netball|rugby|cricket|hockey|golf|baseball|padel|pickleball|ultimate';
/** Sports told by their verb alone ("I swim"), and the activity each names. */
const VERBS: Readonly<Record<string, string>> = {
  swim: 'swimming', run: 'running', jog: 'jogging', cycle: 'cycling', climb: 'climbing', row: 'rowing', surf: 'surfing',
  ski: 'skiing', skate: 'skating', box: 'boxing', hike: 'hiking', dance: 'dancing',
};
/** Sports told with "go" ("I go running"). */
export const GONE = 'running|jogging|swimming|cycling|climbing|bouldering|hiking|rowing|surfing|skiing|skating|snowboarding|riding|sailing|kayaking';
/** Exercise told with "do" ("I do yoga"). */
export const DONE = 'yoga|pilates|judo|karate|crossfit|tai\\s+chi|kickboxing|taekwondo|aikido|gymnastics|spinning|zumba|triathlons?';
/**
 * After a bare verb, only a habit's when or where may follow: "I run every morning", "I swim on Sundays", "I cycle a lot";
 * "I run a bakery" is no sport.
 */
const HABIT_AFTER = String.raw`(?=\s*[,.;!]|\s*$|\s+(?:every|each|on|at|in|most|twice|once|three|four|daily|weekly|regularly|a\s+lot|a\s+bit|with|after|before|competitively|for\s+fun|for\s+a\s+club)\b)`;
const SPORT: ReadonlyArray<[RegExp, (m: RegExpExecArray) => string]> = [
  [new RegExp(String.raw`${I_DO}\s+play\s+(${PLAYED})\b`, 'i'), (m) => m[1]!],
  [new RegExp(String.raw`${I_DO}\s+go\s+(${GONE})\b`, 'i'), (m) => m[1]!],
  [new RegExp(String.raw`${I_DO}\s+do\s+(${DONE})\b`, 'i'), (m) => m[1]!],
  [new RegExp(String.raw`${I_DO}\s+(${Object.keys(VERBS).join('|')})${HABIT_AFTER}`, 'i'), (m) => VERBS[m[1]!.toLowerCase()]!],
];

/** The standing value a first-person sentence tells by its words; null for a question or when none of the rules reads one. */
export function standingSlot(sentence: string): StandingSlot | null {
  if (/\?\s*$/.test(sentence)) return null;
  if (STRIKE.test(sentence)) return { slot: 'status', kind: 'profile', value: 'on strike', says: 'is on strike' };
  for (const [re, activity] of SPORT) {
    const m = re.exec(sentence);
    if (!m) continue;
    const value = activity(m).toLowerCase().replace(/\s+/g, ' ');
    return { slot: `sport:${value.replace(/ /g, '_')}`, kind: 'preference', value };
  }
  return null;
}
