/** Rewrite first / second person into names so a fact reads on its own. */
import { LOOKS_AHEAD } from './plan-cues.js';

/** Who "I" and "you" are in one utterance, as display names ("an unnamed speaker" when unknown). */
export interface Perspective {
  speaker: string;
  /** Addressee display names; empty when nobody in particular was addressed. */
  addressees: string[];
  /**
   * Whether "we", "us" and "our" take in the addressees, read from the whole sentence (`inclusiveWe`) when only part of
   * it is rewritten ("I'll drive us…": the rule rewrites "drive us…"); absent: read from the text rewritten.
   */
  inclusive?: boolean;
  /**
   * Everyone the turn is said to, when a vocative narrowed `addressees` to one of them ("Tom, I changed your order",
   * said to Maria and Tom: called-addressee.ts): "you" is Tom, "we" still the room. Absent: `addressees`.
   */
  room?: string[];
}

/** "Ben", "Ben and Cy", "Ben, Cy and Di"; `fallback` when empty. */
export function joinNames(names: string[], fallback = 'the listener'): string {
  if (names.length === 0) return fallback;
  if (names.length === 1) return names[0] ?? fallback;
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * "We" taking in the people addressed: the speaker and their one listener ("Ana and Ben"); said to a group, the speaker
 * and the group ("Ana and the group"), never its members one by one, so a group's decision is no one member's and
 * erasing that member (who goes by their name in fact texts) leaves it (trial10 F6, F7); said to no one, the speaker
 * and others.
 */
export function weTogether(who: Pick<Perspective, 'speaker' | 'addressees' | 'room'>): string {
  const all = everyoneAddressed(who);
  if (all.length > 1) return `${who.speaker} and the group`;
  return all.length === 1 ? joinNames([who.speaker, ...all]) : `${who.speaker} and others`;
}

/** Everyone the turn is said to: the room a vocative narrowed "you" within (`Perspective.room`), else the addressees. */
function everyoneAddressed(who: Pick<Perspective, 'addressees' | 'room'>): string[] {
  return who.room && who.room.length > who.addressees.length ? who.room : who.addressees;
}

/** Words after which "you" is no subject of the verb that follows: auxiliaries, "to", verbs that take an object and a bare verb. */
export const NOT_BEFORE_SUBJECT_YOU: readonly string[] = ['do', 'does', 'did', 'can', 'could', 'will', 'would', 'should', 'shall',
  'may', 'might', 'must', 'are', 'were', 'was', 'is', 'am', 'have', 'has', 'had', 'to', 'let', 'lets', 'make', 'makes', 'made',
  'help', 'helps', 'helped', 'see', 'saw', 'seen', 'watch', 'watched', 'hear', 'heard', 'thank', 'bid'];

/**
 * Words that put the people addressed in "we" (besides a modal that looks ahead, `LOOKS_AHEAD`: "I'll drive us", "we're
 * going to…"): a proposal ("let's", "shall we", "we should", "why don't we"), both named ("we both", "you and I", "the two of us"), a shared memory ("remember when we…", "since we last talked"),
 * "together".
 */
const WE_TOGETHER = /\b(?:let['’]?s|let us|shall we|should we|we should|could we|we could|can we|we can|why don['’]t we|how about we|what if we|we both|both of us|you and (?:I|me)|(?:I|me) and you|the two of us|remember (?:when|how|that|the time) we|we (?:last )?(?:talked|chatted|spoke|caught up)|together)\b/i;

/**
 * Whether "we" in `text` takes in the people addressed: when the words say so (`WE_TOGETHER`), or when a group is
 * addressed (two or more people: a meeting's "we" is the room). Told to one person with nothing of the kind ("we went
 * camping", "we've booked the cabin", "our kids"), "we" is the speaker's own people: one does not tell a person what
 * they did themselves.
 */
export function inclusiveWe(text: string, who: Perspective): boolean {
  return everyoneAddressed(who).length > 1 || LOOKS_AHEAD.test(text) || WE_TOGETHER.test(text);
}

/** Words after which a verb and "you" ask a question ("what do you think", "so are you coming"). */
const QUESTION_WORDS = 'what|where|when|why|how|who|whom|which|so|and|but|then|or|well|oh|hey';

/** "you <rest>" as the subject of its verb: not after a word that makes "you" an object or asks ("let you know", "are you"). */
const subjectYou = (rest: string): RegExp => new RegExp(`(?<!\\b(?:${NOT_BEFORE_SUBJECT_YOU.join('|')})\\s+)\\byou ${rest}\\b`, 'gi');
/** "<verb> you" first in its clause: a question ("Do you…?", "what do you think"), not "glad to have you". */
const askYou = (verb: string): RegExp => new RegExp(`(?<=^|[.?!,;:]\\s*|\\b(?:${QUESTION_WORDS})\\s+)\\b${verb} you\\b`, 'gi');

/**
 * One person addressed as the subject of "you are", "you don't"…, or asked "do you", "are you": the verb each takes
 * with a name ("Melanie is", "Melanie doesn't", "does Melanie"). Built once; `$` stands for the name.
 */
const YOU_AGREE: ReadonlyArray<readonly [RegExp, string]> = [
  [subjectYou('are'), '$ is'], [subjectYou('were'), '$ was'], [subjectYou("aren['’]t"), "$ isn't"],
  [subjectYou("weren['’]t"), "$ wasn't"], [subjectYou("haven['’]t"), "$ hasn't"], [subjectYou("don['’]t"), "$ doesn't"],
  [subjectYou('do not'), '$ does not'],
  [askYou('do'), 'does $'], [askYou('are'), 'is $'], [askYou('were'), 'was $'], [askYou('have'), 'has $'],
  [askYou("don['’]t"), "doesn't $"], [askYou("aren['’]t"), "isn't $"],
];

/**
 * "you" as the listener: not the "you" of the noun "a thank you" ("a big thank you", "a thank-you note", "thank you
 * cards"), which thanks nobody in particular, nor of the formula "say thank you (to Grandma)" (rules 80). "I want to
 * thank you", "thank you for the flowers" thank the listener.
 */
const LISTENER_YOU = new RegExp(String.raw`(?<!\bthank-)(?<!(?:\b(?:a|an|the|this|that|his|their|our|some|any|big|huge|quick|little|special|proper|personal|`
  + String.raw`short|heartfelt|belated|massive|small|formal|handwritten|say|says|said|saying)|['’]s)\s+thank\s+)\byou\b`
  + String.raw`(?!(?<=\bthank\s+you)\s+(?:card|note|letter|gift|present|message|e?mail|text|video|basket|party|dinner|lunch)s?\b)`, 'gi');

/** Replace first- and second-person words in `text` by names. */
export function resolvePronouns(text: string, who: Perspective): string {
  const s = who.speaker;
  const a = joinNames(who.addressees);
  const aVerb = who.addressees.length > 1 ? 'are' : 'is';
  // "We" is the speaker and the people addressed only when the words or the setting say so (`inclusiveWe`); else the
  // speaker and people not named ("we went camping with the kids", told to a friend or to an assistant), and "our" is
  // the speaker's ("our family trip"): never a false memory about the listener, at worst one less name.
  const inclusive = who.inclusive ?? inclusiveWe(text, who);
  // No one addressed (a turn said to the room, or to the assistant: "I'll drive us to grandma's"): "we" is the speaker's
  // own people, not "the listener" (fix9).
  const everyone = weTogether(who);
  const both = inclusive ? everyone : `${s} and others`;
  const ours = inclusive ? `${everyone}'s` : `${s}'s`;
  // One person addressed: "you are" -> "Melanie is", "do you" -> "does Melanie" (`YOU_AGREE`).
  const youAgree: Array<[RegExp, string]> = who.addressees.length === 1 ? YOU_AGREE.map(([re, rep]) => [re, rep.replace('$', a)]) : [];
  const rules: Array<[RegExp, string]> = [
    [/\b[Ii] don['’]t\b/g, `${s} doesn't`], [/\b[Ii] do not\b/g, `${s} does not`], [/\b[Ii] haven['’]t\b/g, `${s} hasn't`],
    [/\b[Ii] have\b/g, `${s} has`], [/\b[Ii]['’]m\b/g, `${s} is`], [/\b[Ii] am\b/g, `${s} is`], [/\b[Ii]['’]ll\b/g, `${s} will`],
    [/\b[Ii]['’]ve\b/g, `${s} has`], [/\b[Ii]['’]d\b/g, `${s} would`], [/\b[Ii]\b/g, s],
    [/\bmyself\b/gi, SELF.myself], [/\bmine\b/gi, `${s}'s`], [/\bmy\b/gi, `${s}'s`], [/\bme\b/gi, s],
    ...youAgree, [/\byou['’]re\b/gi, `${a} ${aVerb}`], [/\byou['’]ll\b/gi, `${a} will`], [/\byou['’]d\b/gi, `${a} would`],
    [/\byou['’]ve\b/gi, `${a} ${who.addressees.length > 1 ? 'have' : 'has'}`], [/\byourselves\b/gi, SELF.yourselves], [/\byourself\b/gi, SELF.yourself], [/\byours\b/gi, `${a}'s`],
    [/\byour\b/gi, `${a}'s`], [LISTENER_YOU, a],
    [/\bwe['’]re\b/gi, `${both} are`], [/\bwe['’]ll\b/gi, `${both} will`], [/\bwe['’]ve\b/gi, `${both} have`],
    [/\bwe['’]d\b/gi, `${both} would`], [/\bwe\b/gi, both], [/\bourselves\b/gi, SELF.ourselves], [/\bours\b/gi, ours], [/\bour\b/gi, ours], [/\bus\b/gi, both],
  ];
  let out = text;
  // A capital at the start of what was replaced stays ("Do you…" -> "Does Melanie…"); "I", always written with one, gets
  // one only where a sentence starts ("Also an unnamed speaker hurt…").
  const opens = (at: number, whole: string): boolean => /(?:^|[.!?]\s+)["“]?$/.test(whole.slice(0, at));
  for (const [re, rep] of rules) {
    out = out.replace(re, (m: string, ...rest: unknown[]) => {
      // The replacer's last arguments: the match's offset and the whole string (no rule has named groups).
      const at = rest[rest.length - 2] as number;
      const capital = /^[A-Z]/.test(m) && (!/^I(?![\p{L}])/u.test(m) || opens(at, rest[rest.length - 1] as string));
      return capital ? rep.charAt(0).toUpperCase() + rep.slice(1) : rep;
    });
  }
  // Once named, the speaker's later possessives read "their": "Tom hurt their back", not "Tom's back". The name as a
  // word, its first letter in either case ("An unnamed speaker and others should buy their bread", not "…buy an unnamed
  // speaker's bread"; "Al" is not in "Also").
  const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const inClass = (c: string): string => c.replace(/[\]\\^-]/g, '\\$&');
  const nameAt = (): number => new RegExp(`(?<![\\p{L}\\p{N}'’])[${inClass(s.charAt(0).toUpperCase())}${inClass(s.charAt(0).toLowerCase())}]`
    + `${esc(s.slice(1))}(?![\\p{L}\\p{N}])`, 'u').exec(out)?.index ?? -1;
  const first = nameAt();
  if (first >= 0) {
    const head = out.slice(0, first + s.length);
    // "Tom did their own tax return" would read as someone else's: "Tom's own" stays.
    const possessive = new RegExp(`${`${s}'s`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?! own\\b)`, 'g');
    out = head + out.slice(head.length).replace(possessive, 'their');
  }
  // "I did it myself", "I'll order it myself", "can you do it yourself": a reflexive of the clause's subject, which is
  // often written outside the words rewritten here ("Tom will" + "order it myself"), so it stays one: "themself" for
  // one person (the project's word where the gender is not known), "themselves" for "ourselves" / "yourselves" (text7).
  // Only opening a clause or after "and" ("Myself and Ben went", "Ben and myself will go", "for Ben and myself") is it
  // the person named; "express myself and find…" stays a reflexive.
  const joined = (at: number): boolean => /(?:^|[.!?,;:]\s*|\band\s+)["“]?$/i.test(out.slice(0, at));
  const person: Record<keyof typeof SELF, string> = { myself: s, yourself: a, ourselves: both, yourselves: a };
  const several: Record<keyof typeof SELF, boolean> = { myself: false, yourself: who.addressees.length > 1, ourselves: true, yourselves: true };
  for (const key of Object.keys(SELF) as Array<keyof typeof SELF>) {
    out = out.replace(new RegExp(SELF[key], 'g'), (m: string, at: number, whole: string) => {
      if (!joined(at)) return several[key] ? 'themselves' : 'themself';
      return opens(at, whole) ? person[key].charAt(0).toUpperCase() + person[key].slice(1) : person[key];
    });
  }
  return out;
}

/** Stand for the reflexives until their place in the sentence is read. */
const SELF = { myself: '\u0000myself\u0000', yourself: '\u0000yourself\u0000', ourselves: '\u0000ourselves\u0000',
  yourselves: '\u0000yourselves\u0000' } as const;

/** Third-person present form of a verb: like -> likes, watch -> watches, study -> studies. */
export function thirdPerson(verb: string): string {
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}
