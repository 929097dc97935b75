/**
 * Which of "he" or "she" a person named in the conversation is told with (rules 49), from what the conversation itself
 * says: a kin word naming them ("my sister Nora", "Ben, my brother") or a pronoun told of them in a sentence naming
 * no one else ("Ben called, he said…"). The project holds no list of names by gender, so a name alone tells nothing.
 * An opening "She…" is not resolved to a person told as "he" (opening-pronouns.ts).
 */

/** The pronoun a person is told with. */
export type Gender = 'he' | 'she';

const HE_KIN = String.raw`brother|father|dad|daddy|husband|boyfriend|son|uncle|nephew|grandfather|grandpa|grandad|granddad|grandson|fianc[eé]|brother-in-law|father-in-law|stepfather|stepdad|stepson|landlord`;
const SHE_KIN = String.raw`sister|mother|mom|mum|mummy|mommy|wife|girlfriend|daughter|aunt|auntie|niece|grandmother|grandma|granny|gran|granddaughter|fianc[eé]e|sister-in-law|mother-in-law|stepmother|stepmum|stepmom|stepdaughter|landlady`;
const OWNER = String.raw`(?:my|our|your|his|her|their)`;

/** The gender a pronoun tells ("she", "Her" → she; "him" → he), or null ("they", any other word). */
export function pronounGender(word: string): Gender | null {
  if (/^(?:he|him|his|himself)$/i.test(word)) return 'he';
  if (/^(?:she|her|hers|herself)$/i.test(word)) return 'she';
  return null;
}

function escaped(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The gender `texts` give the person `name`: every cue agrees, else null (none, or cues that disagree). A sentence
 * naming another capitalised person besides gives no pronoun cue ("Ben told Nora she…" tells nothing of Ben).
 */
export function genderIn(name: string, texts: readonly string[]): Gender | null {
  const n = escaped(name);
  const cues = new Set<Gender>();
  const kin = (words: string, g: Gender): void => {
    if (new RegExp(String.raw`\b${OWNER}\s+(?:${words}),?\s+${n}\b|\b${n},\s+${OWNER}\s+(?:${words})\b`, 'i').test(joined)) cues.add(g);
  };
  const joined = texts.join(' \n ');
  kin(HE_KIN, 'he');
  kin(SHE_KIN, 'she');
  for (const sentence of joined.split(/(?<=[.!?\n])\s+/)) {
    const at = sentence.search(new RegExp(String.raw`\b${n}\b`));
    if (at < 0) continue;
    // Another name in the sentence (a capitalised word not opening it, not "I"): its pronouns may be theirs.
    const others = [...sentence.matchAll(/(?<=\s)[A-Z][a-z'-]+/g)].filter((m) => m[0] !== name && !/^I(?:['’]\w+)?$/.test(m[0]));
    if (others.length > 0) continue;
    const after = /\b(he|him|his|she|her|hers)\b/i.exec(sentence.slice(at + name.length));
    const g = after ? pronounGender(after[1]!) : null;
    if (g) cues.add(g);
  }
  return cues.size === 1 ? [...cues][0]! : null;
}
