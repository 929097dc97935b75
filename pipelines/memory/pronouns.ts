/** Rewrite first / second person into names so a fact reads on its own. */

/** Who "I" and "you" are in one utterance, as display names ("an unnamed speaker" when unknown). */
export interface Perspective {
  speaker: string;
  /** Addressee display names; empty when nobody in particular was addressed. */
  addressees: string[];
}

/** "Ben", "Ben and Cy", "Ben, Cy and Di"; `fallback` when empty. */
export function joinNames(names: string[], fallback = 'the listener'): string {
  if (names.length === 0) return fallback;
  if (names.length === 1) return names[0] ?? fallback;
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** Words after which "you" is no subject of the verb that follows: auxiliaries, "to", verbs that take an object and a bare verb. */
export const NOT_BEFORE_SUBJECT_YOU = 'do|does|did|can|could|will|would|should|shall|may|might|must|are|were|was|is|am|have|has|had|to|let|lets|make|makes|made|help|helps|helped|see|saw|seen|watch|watched|hear|heard|thank|bid';

/** Words after which a verb and "you" ask a question ("what do you think", "so are you coming"). */
const QUESTION_WORDS = 'what|where|when|why|how|who|whom|which|so|and|but|then|or|well|oh|hey';

/** Replace first- and second-person words in `text` by names. */
export function resolvePronouns(text: string, who: Perspective): string {
  const s = who.speaker;
  const a = joinNames(who.addressees);
  const aVerb = who.addressees.length > 1 ? 'are' : 'is';
  const both = `${s} and ${a}`;
  // One person addressed as the subject of "you are", "you don't"…: "Melanie is", "Melanie doesn't". Not after a word
  // that makes "you" an object or asks a question ("are you", "let you know", "to you", "did you have").
  const one = who.addressees.length === 1;
  const subjectYou = (rest: string): RegExp => new RegExp(`(?<!\\b(?:${NOT_BEFORE_SUBJECT_YOU})\\s+)\\byou ${rest}\\b`, 'gi');
  const askYou = (verb: string): RegExp => new RegExp(`(?<=^|[.?!,;:]\\s*|\\b(?:${QUESTION_WORDS})\\s+)\\b${verb} you\\b`, 'gi');
  const youAgree: Array<[RegExp, string]> = one ? [
    [subjectYou('are'), `${a} is`], [subjectYou('were'), `${a} was`], [subjectYou("aren['’]t"), `${a} isn't`],
    [subjectYou("weren['’]t"), `${a} wasn't`], [subjectYou("haven['’]t"), `${a} hasn't`], [subjectYou("don['’]t"), `${a} doesn't`],
    [subjectYou('do not'), `${a} does not`],
    // A question to one person, the verb first in its clause: "do you", "are you" -> "does Melanie", "is Melanie"
    // (not "glad to have you").
    [askYou('do'), `does ${a}`], [askYou('are'), `is ${a}`], [askYou('were'), `was ${a}`], [askYou('have'), `has ${a}`],
    [askYou("don['’]t"), `doesn't ${a}`], [askYou("aren['’]t"), `isn't ${a}`],
  ] : [];
  const rules: Array<[RegExp, string]> = [
    [/\b[Ii] don['’]t\b/g, `${s} doesn't`], [/\b[Ii] do not\b/g, `${s} does not`], [/\b[Ii] haven['’]t\b/g, `${s} hasn't`],
    [/\b[Ii] have\b/g, `${s} has`], [/\b[Ii]['’]m\b/g, `${s} is`], [/\b[Ii] am\b/g, `${s} is`], [/\b[Ii]['’]ll\b/g, `${s} will`],
    [/\b[Ii]['’]ve\b/g, `${s} has`], [/\b[Ii]['’]d\b/g, `${s} would`], [/\b[Ii]\b/g, s],
    [/\bmyself\b/gi, SELF], [/\bmine\b/gi, `${s}'s`], [/\bmy\b/gi, `${s}'s`], [/\bme\b/gi, s],
    ...youAgree, [/\byou['’]re\b/gi, `${a} ${aVerb}`], [/\byou['’]ll\b/gi, `${a} will`], [/\byou['’]d\b/gi, `${a} would`],
    [/\byou['’]ve\b/gi, `${a} ${who.addressees.length > 1 ? 'have' : 'has'}`], [/\byourself\b/gi, a], [/\byours\b/gi, `${a}'s`],
    [/\byour\b/gi, `${a}'s`], [/(?<!\bthank-)\byou\b/gi, a], // a "thank-you card" thanks nobody in particular
    [/\bwe['’]re\b/gi, `${both} are`], [/\bwe['’]ll\b/gi, `${both} will`], [/\bwe['’]ve\b/gi, `${both} have`],
    [/\bwe['’]d\b/gi, `${both} would`], [/\bwe\b/gi, both], [/\bour\b/gi, `${both}'s`], [/\bus\b/gi, both],
  ];
  let out = text;
  // A capital at the start of what was replaced stays ("Do you…" -> "Does Melanie…").
  for (const [re, rep] of rules) out = out.replace(re, (m) => (/^[A-Z]/.test(m) ? rep.charAt(0).toUpperCase() + rep.slice(1) : rep));
  // Once named, the speaker's later possessives read "their": "Tom hurt their back", not "Tom's back".
  const first = out.indexOf(s);
  if (first >= 0) {
    const head = out.slice(0, first + s.length);
    // "Tom did their own tax return" would read as someone else's: "Tom's own" stays.
    const possessive = new RegExp(`${`${s}'s`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?! own\\b)`, 'g');
    out = head + out.slice(head.length).replace(possessive, 'their');
  }
  // "I did it myself": "themselves" once the speaker is named before it, the name otherwise ("myself and Ben").
  const named = out.indexOf(s);
  out = out.replace(new RegExp(SELF, 'g'), (_m, at: number) => (named >= 0 && named < at ? 'themselves' : s));
  return out;
}

/** Stands for "myself" until the speaker's first mention is known. */
const SELF = '\u0000self\u0000';

/** Third-person present form of a verb: like -> likes, watch -> watches, study -> studies. */
export function thirdPerson(verb: string): string {
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}
