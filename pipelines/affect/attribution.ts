import { wink } from '../wink.js';

/** Words no emotion is about: pronouns and generic nouns ("I love things like that": no thing is named; text5). */
const PRONOUNS = new Set(['i', 'me', 'you', 'it', 'this', 'that', 'he', 'she', 'they', 'them', 'we', 'us', 'everything', 'something',
  'anything', 'thing', 'things', 'stuff', 'lot', 'lots']);
/** Greetings and farewells: with the name said after them ("bye ben", "hello maria") they are no target (text5). */
const GREETING = /^(?:bye|goodbye|hi|hello|hey|morning|night|evening|thanks|cheers|see)$/i;

/**
 * Short-horizon attribution: the noun phrase a turn's emotion is about. Prefers the object of an
 * evaluative verb ("I love my new job" -> "new job"), then the last noun phrase; null when the
 * turn names nothing.
 */
export function affectTarget(text: string): string | null {
  const nlp = wink();
  const doc = nlp.readDoc(text);
  const words = doc.tokens().out(nlp.its.value);
  const pos = doc.tokens().out(nlp.its.pos);
  const phrases: Array<{ start: number; text: string }> = [];
  let cur: string[] = [];
  let start = 0;
  const flush = (): void => {
    // A phrase must end in a noun; leading adjectives are kept ("new job").
    while (cur.length > 0 && !['NOUN', 'PROPN'].includes(pos[start + cur.length - 1] ?? '')) cur.pop();
    const t = cur.join(' ').toLowerCase();
    if (t && !PRONOUNS.has(t)) phrases.push({ start, text: t });
    cur = [];
  };
  for (let i = 0; i < words.length; i++) {
    const p = pos[i] ?? '';
    if (GREETING.test(words[i] ?? '')) {
      // "bye ben": the greeting and the name it addresses both left out.
      flush();
      if (['NOUN', 'PROPN'].includes(pos[i + 1] ?? '')) i++;
      continue;
    }
    if (['ADJ', 'NOUN', 'PROPN'].includes(p) && !PRONOUNS.has((words[i] ?? '').toLowerCase())) {
      if (cur.length === 0) start = i;
      cur.push(words[i] ?? '');
    } else flush();
  }
  flush();
  const verb = words.findIndex((w, i) => pos[i] === 'VERB' && /^(love|like|hate|enjoy|adore|miss|fear|dread|loved|hated|liked|enjoyed)$/i.test(w));
  const after = verb >= 0 ? phrases.find((p) => p.start > verb) : undefined;
  return after?.text ?? phrases[phrases.length - 1]?.text ?? null;
}
