/**
 * A secret given as a plain word ("my password is sunshine", "the code word is pineapple"; rules 56), read with its
 * part of speech: a noun or a name is a value, an adjective, a participle, an adverb, a preposition, a determiner or a
 * pronoun is none ("the password is wrong / expired / mine"). What the transcript stores in place of a secret's value
 * with a digit in it (`withSecretsRedacted`). Secrets shaped as one (digits, symbols, a number said) are found by graph/spoken-secrets.ts.
 */
import type { WinkMethods } from 'wink-nlp';
import { REDACTED_MARK, secretSpans, type SecretSpan } from '../../graph/spoken-secrets.js';

export { REDACTED_MARK };

/** Tags of a word that names a value: a noun, a name, a word the tagger does not know. */
const VALUE_TAGS = new Set(['NOUN', 'PROPN', 'X']);
/** Past participles written as their verb ("the password is set / reset / shut"): no value, though tagged a bare verb. */
const SAME_PARTICIPLE = new Set(['set', 'reset', 'shut', 'cut', 'put', 'hit', 'hurt', 'split', 'read', 'upset', 'let', 'quit', 'spread']);

/**
 * Whether the plain word ending `upTo` (the text up to a secret's value) names a value: tagged a noun or a name, or a
 * bare verb that is no participle ("monkey" after "is" is tagged a verb; "expired", "gone", "set" are participles).
 */
function namesValue(nlp: WinkMethods, upTo: string): boolean {
  const tokens = nlp.readDoc(upTo).tokens();
  const words = tokens.out() as string[];
  const tags = tokens.out(nlp.its.pos) as string[];
  const lemmas = tokens.out(nlp.its.lemma as unknown as typeof nlp.its.value) as string[];
  const i = words.length - 1;
  const word = words[i]?.toLowerCase() ?? '';
  if (VALUE_TAGS.has(tags[i] ?? '')) return true;
  return tags[i] === 'VERB' && lemmas[i]?.toLowerCase() === word && !/(?:ed|en|ing)$/.test(word) && !SAME_PARTICIPLE.has(word);
}

/** Every secret's value `text` gives (`secretSpans`), a plain word only where it names a value (`namesValue`). */
export function secretValues(nlp: WinkMethods, text: string): SecretSpan[] {
  return secretSpans(text).filter((s) => !s.plain || namesValue(nlp, text.slice(0, s.end)));
}

/** Whether `sentence` gives a secret: no memory keeps it, in a fact's words or a profile value. */
export function givesSecret(nlp: WinkMethods, sentence: string): boolean {
  return secretValues(nlp, sentence).length > 0;
}

/**
 * `sentence` without the clause that gives a secret, and what follows it: "I repair lighthouse lenses and my gate code is
 * 5512." keeps "I repair lighthouse lenses." (before, the whole sentence gave no memory). The clause opens after the last
 * ", " / "; " / "and" / "but" / "so" before the secret's value; with no such break, or one word before it ("Okay, my PIN
 * is 4421"), nothing is kept (empty string). The same string when it gives no secret.
 */
export function withoutSecretClause(nlp: WinkMethods, sentence: string): string {
  const first = secretValues(nlp, sentence)[0];
  if (!first) return sentence;
  const before = sentence.slice(0, first.start);
  const breaks = [...before.matchAll(/(?:[,;]\s+|\s+(?:and|but|so)\s+)/gi)];
  const last = breaks[breaks.length - 1];
  if (!last) return '';
  const kept = before.slice(0, last.index).replace(/[\s,;]+$/, '');
  return kept.split(/\s+/).filter((w) => /\w/.test(w)).length >= 2 ? `${kept}.` : '';
}

/**
 * `text` with each secret's value it gives that holds a digit ("4421", "hunter2", "double seven three one") replaced by
 * {@link REDACTED_MARK}; the same string when it gives none. A value without a digit ("sunshine", "p@ss") is kept as
 * said: it gives no memory (`givesSecret`), but a false redaction would lose the user's words.
 */
export function withSecretsRedacted(nlp: WinkMethods, text: string): string {
  let out = text;
  for (const s of secretValues(nlp, text).filter((v) => v.digits).reverse()) out = out.slice(0, s.start) + REDACTED_MARK + out.slice(s.end);
  return out;
}
