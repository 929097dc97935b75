/**
 * Two facts about the speaker in one sentence ("I live in Oslo and I work as a nurse"), read as sentences of their own
 * (rules 39). Read whole, the sentence gave the first slot only: the rules that find a job said in other words ("work
 * as") read a sentence that no other rule gave a slot.
 */
import { hasVerb } from './told-tense.js';

/**
 * A first-person clause that tells where one lives, what one does or where one is from, or that ends one of those or a
 * diet: "I don't work at Google anymore", "I'm not vegetarian anymore", "I quit my job", "I stopped eating meat" (rules 40:
 * "I no longer eat meat and I don't work at Google anymore" read whole ended one of the two). "I'm a…" with its "'m" joined
 * to the "I" (rules 42: "I'm not a nurse now, I'm a midwife" was read whole, and withdrew the midwife with the nurse).
 */
const FACT_START = String.raw`I(?:\s+(?:now|currently|also|still))?\s+(?:live|work|teach|study|moved|am\s+(?:a|an|from))\b|I['’]m\s+(?:now\s+|also\s+|still\s+)?(?:a|an|from)\b`
  + String.raw`|I\s+(?:don['’]t|do\s+not|no\s+longer)\s+(?:live|work|eat)\b|I(?:['’]m|\s+am)\s+(?:not|no\s+longer)\s+(?:a|an|vegan|vegetarian|pescatarian)\b`
  + String.raw`|I(?:['’]ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:quit|left|stopped\s+eating|given\s+up|gave\s+up)\s+(?:my\s+job|meat|[A-Z])`
  // "I don't work at Initech anymore, I joined Globex": the new employer its own sentence (rules 44).
  + String.raw`|I\s+(?:just\s+)?joined\s+[A-Z]`;
/** Where such a clause starts after one of its own: after "and", ", and", ", but", "but" or a comma. */
const FACT_CLAUSE = new RegExp(String.raw`(?:\s*[,;]\s*(?:(?:and|but)\s+)?|\s+(?:and|but)\s+)(?=(?:${FACT_START}))`, 'g');
/** The sentence opens with a first-person clause ("I live in Oslo", "Well, I'm from Lyon"). */
const OPENS_FIRST_PERSON = /^(?:\w+,\s*)?(?:I|I['’](?:m|ve|ll|d))\b/;

/**
 * `sentence` cut before each first-person fact clause (`FACT_START`) that follows a first-person clause of its own,
 * each piece a sentence; `[sentence]` when there is none.
 */
export function factClauses(sentence: string): string[] {
  if (!OPENS_FIRST_PERSON.test(sentence)) return [sentence];
  const cuts = [...sentence.matchAll(FACT_CLAUSE)];
  if (cuts.length === 0) return [sentence];
  const pieces: string[] = [];
  let from = 0;
  for (const m of cuts) {
    const piece = sentence.slice(from, m.index).trim();
    // "I, and I alone, …": a piece with no verb of its own stays with the next.
    if (!hasVerb(piece)) continue;
    pieces.push(piece);
    from = (m.index ?? 0) + m[0].length;
  }
  pieces.push(sentence.slice(from).trim());
  return pieces.map((p, i) => (i < pieces.length - 1 && !/[.!?]$/.test(p) ? `${p}.` : p));
}
