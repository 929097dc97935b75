/** Third-person agreement for facts rewritten from first person, from wink-nlp POS tags and lemmas. */
import type { WinkMethods } from 'wink-nlp';
import { thirdPerson } from './pronouns.js';

/** Verbs whose past tense is spelled like the base form: left alone ("I hurt my back" is past). */
const SAME_PAST = new Set(['hurt', 'put', 'cut', 'set', 'let', 'hit', 'read', 'quit', 'cost', 'shut', 'spread',
  'bet', 'burst', 'cast', 'split', 'upset', 'broadcast', 'forecast', 'beat']);
const IRREGULAR: Record<string, string> = { have: 'has', do: 'does', go: 'goes', be: 'is' };

/**
 * `I think…` -> `I thinks…` so that replacing "I" by a name reads "Tom thinks…": a present-tense
 * verb right after "I" (adverbs between are skipped) takes the third-person form. Past tenses,
 * modals and auxiliaries handled by the pronoun rules ("I'm", "I'll", "I don't") are left alone.
 */
export function conjugateAfterI(nlp: WinkMethods, text: string): string {
  const its = nlp.its;
  const tokens = nlp.readDoc(text).tokens();
  const values = tokens.out(its.value);
  const pos = tokens.out(its.pos);
  // wink-nlp's typings give `lemma` an add-on signature; at run time it is a token property like `value`.
  const lemmas = tokens.out(its.lemma as unknown as typeof its.value);
  const spaces = tokens.out(its.precedingSpaces);
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== 'I') continue;
    let j = i + 1;
    while (pos[j] === 'ADV' && j < i + 3) j++;
    const word = values[j] ?? '';
    const lower = word.toLowerCase();
    const verb = pos[j] === 'VERB' || (pos[j] === 'AUX' && (lower === 'have' || lower === 'do'));
    if (!verb || lemmas[j] !== lower || SAME_PAST.has(lower) || /^(?:n['’]t|not)$/i.test(values[j + 1] ?? '')) continue;
    values[j] = IRREGULAR[lower] ?? thirdPerson(lower);
  }
  return values.map((v, i) => `${i === 0 ? '' : spaces[i] ?? ''}${v}`).join('');
}

const THIRD_TO_FIRST: Record<string, string> = { is: 'am', has: 'have', does: 'do', was: 'was' };

/**
 * A sentence reporting on a named participant ("Lena moved to Boulder", "Lena is a firefighter
 * now") rewritten in that participant's first person ("I moved to Boulder", "I am a firefighter
 * now"), so the first-person rules read it; null when it does not start with a known name and a verb.
 */
export function reportedAsFirstPerson(
  nlp: WinkMethods, sentence: string, names: Record<string, string | null>, speakerId: string,
): { subjectId: string; text: string } | null {
  const m = sentence.match(/^([A-Z][a-z'-]+)\s+(\S+)(.*)$/s);
  // "Ben is my manager" is about the speaker, not a report on Ben.
  if (!m?.[1] || !m[2] || /\b(?:I|my|me|mine|myself)\b/i.test(m[3] ?? '')) return null;
  const entry = Object.entries(names).find(([id, n]) => id !== speakerId && n !== null && n.split(' ')[0] === m[1]);
  if (!entry) return null;
  const its = nlp.its;
  const tokens = nlp.readDoc(m[2]).tokens();
  const pos = tokens.out(its.pos)[0];
  const lemma = tokens.out(its.lemma as unknown as typeof its.value)[0] ?? m[2];
  const word = m[2].toLowerCase();
  if (pos !== 'VERB' && pos !== 'AUX') return null;
  const verb = THIRD_TO_FIRST[word] ?? (word.endsWith('s') && lemma !== word ? lemma : m[2]);
  return { subjectId: entry[0], text: `I ${verb}${m[3] ?? ''}` };
}

const SUBJECT_START = new Set(['NUM', 'DET', 'PROPN', 'NOUN']);
const PLEASANTRIES = /^(?:thanks|thank|great|good|nice|sure|okay|ok|sorry|hi|hello|hey|bye|welcome|cheers|congrats)\b/i;

/**
 * True for a declarative sentence with a subject of its own and a finite verb ("Eleven kids came
 * to the planting day", "The rain barrels were installed"): first tag a number, determiner or noun,
 * then a verb or auxiliary within the next five tokens. Greetings and replies ("Sure", "Thanks,
 * see you") do not start that way.
 */
export function reportsEvent(nlp: WinkMethods, text: string): boolean {
  if (PLEASANTRIES.test(text)) return false;
  const pos = nlp.readDoc(text).tokens().out(nlp.its.pos);
  if (!SUBJECT_START.has(pos[0] ?? '')) return false;
  return pos.slice(1, 6).some((p) => p === 'VERB' || p === 'AUX');
}
