/**
 * No fact opens with a bare pronoun (text5, issue #16 item 2): "She did, but she failed the second part" or "He said
 * he's moving to Canada" read alone tell of no one. The pronoun takes the one person the previous turns of the
 * conversation name (not a participant: they are "I" and "you"); with none, or more than one, the fact is kept as said
 * (dropping it lost outcomes that settle plans). "It was great, we went to the lake": the opening judgement is no memory,
 * the clause after it is.
 */
import type { WinkMethods } from 'wink-nlp';
import { PEOPLE } from './grammar.js';
import { pronounGender, type Gender } from './pronoun-gender.js';
import { MONTH_NAME, WEEKDAY_NAME } from './months.js';

/** A person pronoun opening a fact: a subject or object ("he", "them") or a possessive ("her", "their"). */
const PERSON_PRONOUN = /^(he|she|they|him|them|his|her|their)\b/i;
/** "It was great", "That's so nice,": a judgement of what was just said, alone or before a clause of its own. */
const JUDGEMENT = /^(?:it|this|that)(?:['’]s|\s+(?:is|was|has\s+been|had\s+been))\s+(?:(?:so|really|very|pretty|quite|just|absolutely|totally)\s+)*([\p{L}-]+)\s*(?:,\s*(?:and\s+|but\s+|so\s+)?|$)/iu;
/** Words that are no one's name though capitalised or after a kin word ("my brother was…"); "I'm" is none (text6: "I'm's full of potholes"). */
const NO_NAME = new RegExp(String.raw`^(?:i(?:['’](?:m|ve|ll|d))?|yesterday|today|tonight|tomorrow|${WEEKDAY_NAME}|${MONTH_NAME}|christmas|easter)$`, 'i');

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * The people `texts` name, not counting `participants`: capitalised words the tagger reads as proper nouns (not the
 * first word of a sentence, which may be capitalised for that alone, unless it is one inside another), and a word after
 * a kin word in speech written lower-case ("how's your brother mark doing").
 */
export function namedPeople(nlp: WinkMethods, texts: readonly string[], participants: readonly string[]): string[] {
  const found = new Set<string>();
  const skip = new Set(participants.map((p) => p.toLowerCase()));
  for (const text of texts) {
    for (const sentence of nlp.readDoc(text).sentences().out()) {
      const tokens = nlp.readDoc(sentence).tokens();
      const words = tokens.out();
      const pos = tokens.out(nlp.its.pos);
      words.forEach((w, i) => {
        const capitalName = pos[i] === 'PROPN' && /^[A-Z][a-z'-]+$/.test(w) && i > 0;
        const afterKin = i > 0 && PEOPLE.has(words[i - 1]!.toLowerCase()) && /^[a-z]{2,}$/.test(w) && ['PROPN', 'NOUN'].includes(pos[i] ?? '');
        if ((capitalName || afterKin) && !NO_NAME.test(w) && !PEOPLE.has(w.toLowerCase()) && !skip.has(w.toLowerCase())) found.add(capitalise(w));
      });
    }
  }
  return [...found];
}

/**
 * `content` told of the one person `named` gives where it opens with a person pronoun ("She did…" → "Nora did…", "Her
 * car…" → "Nora's car…"), after a judgement of the moment left out ("It was great, we went…" → "We went…"); as said when no
 * one, or more than one, is named before; null when it is only a judgement. `genderOf` tells whether a person is told as
 * "he" or "she" in the conversation (null: not known); a pronoun of the other gender is not theirs (rules 49).
 */
export function withoutOpeningPronoun(content: string, named: () => readonly string[], genderOf: (name: string) => Gender | null = () => null): string | null {
  const judged = JUDGEMENT.exec(content);
  const told = judged ? capitalise(content.slice(judged[0].length)) : content;
  if (told.trim() === '') return null;
  const m = PERSON_PRONOUN.exec(told);
  if (!m) return /^(?:it|this|that)\b/i.test(told) && judged ? null : told;
  const people = named();
  // No one, or more than one, named before: kept as said. The memory still counts (an outcome such as "She's picked up
  // the cake" settles a plan; coverage, issue #16 item 4) and its source turns tell who was meant.
  if (people.length !== 1) return told;
  // "She met him…" with Ben named before: not Ben when he is told as "he" (rules 49: it took the one name whatever its
  // gender); not when his gender is unknown either and the sentence tells of both a "he" and a "she" (one of them is
  // someone else, and which is a guess).
  const said = pronounGender(m[1]!);
  const known = genderOf(people[0]!);
  const both = /\b(?:he|him|his|himself)\b/i.test(told) && /\b(?:she|her|hers|herself)\b/i.test(told);
  if (said && (known ? known !== said : both)) return told;
  const possessive = /^(?:his|their)$/i.test(m[1]!) || (/^her$/i.test(m[1]!) && !/^her\s+(?:to|that|about|for|and)\b/i.test(told));
  return `${possessive ? `${people[0]}'s` : people[0]}${told.slice(m[0].length)}`;
}
