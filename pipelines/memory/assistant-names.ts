/**
 * The names the assistant listening is called by (fix9, issue #16 F4, a home-robot trial: "Robot, we are going to
 * grandma's on Saturday" became "Sarah and Robot are going to grandma's…"). The assistant is no member of the family:
 * a turn called to it by name ("Robot, …", "hey computer, …") is told to no one, its "we" is the speaker's own people
 * ("Sarah and others are going…"), and the name is no part of the fact's text. Set by `PARLEY_ASSISTANT_NAMES` (default
 * `DEFAULT_ASSISTANT_NAMES`, in `pipelines/interaction/non-person-labels.ts`, the vocabulary of labels naming no person).
 */
import type { ExtractionInput } from './extractor.js';

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Words that may open a call by name: "hey robot, …", "ok computer, …", "thanks Alexa". */
const OPENERS = '(?:hi|hey|hello|thanks|thank you|ok|okay|so|well|yes|yeah|no|sorry|right|oh)';

/** True when `name` is one of `assistants` (case and spaces aside). */
export function isAssistantName(name: string | null | undefined, assistants: readonly string[]): boolean {
  const n = (name ?? '').trim().toLowerCase();
  return n.length > 0 && assistants.some((a) => a.trim().toLowerCase() === n);
}

/**
 * `text` without the assistant called by name at the start or the end of a sentence ("Robot, we are going…", "…on
 * Saturday, robot."); the name stays where it is what is talked about ("the robot is charging").
 */
export function withoutAssistantCall(text: string, assistants: readonly string[]): string {
  const names = assistants.map((a) => a.trim()).filter((a) => a.length > 1).map(esc);
  if (names.length === 0) return text;
  const name = `(?:${names.join('|')})`;
  const opening = new RegExp(`(^|[.!?]\\s+)(?:${OPENERS}[\\s,]+)?${name}\\s*[,:!]\\s+(?=\\S)`, 'gi');
  const closing = new RegExp(`\\s*,\\s*(?:${OPENERS}\\s+)?${name}(?=\\s*[.!?]*(?:\\s|$))`, 'gi');
  const out = text.replace(opening, '$1').replace(closing, '');
  return /\p{L}/u.test(out) ? out : text;
}

/**
 * `input` with the assistant taken out of the turn: not among its addressees (a participant named like it, where the
 * assistant's own turns are stored under its name) and not called by name in its text.
 */
export function withoutAssistant(input: ExtractionInput, assistants: readonly string[]): ExtractionInput {
  if (assistants.length === 0) return input;
  const u = input.current;
  const addresseeIds = u.addresseeIds.filter((id) => !isAssistantName(input.names[id], assistants));
  const text = withoutAssistantCall(u.text, assistants);
  if (addresseeIds.length === u.addresseeIds.length && text === u.text) return input;
  return { ...input, current: { ...u, addresseeIds, text } };
}
