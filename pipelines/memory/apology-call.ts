/**
 * "i am sorry james i will process your refund": the name called after an apology is the listener's. Said to one
 * listener no one has named yet, the facts of the turn read "you" as that name ("Tom will process James's refund");
 * said to no one, the name is a person called (`calledNames`).
 */
import { apologyCall } from './call-phrases.js';
import type { ExtractionInput } from './extractor.js';

/** The names called after an apology opening a sentence of `text` ("sorry james, …", "… . I'm sorry Ana, I'll…"). */
export function apologyCalls(text: string): string[] {
  return [...new Set(text.split(/(?<=[.!?])\s+/).map(apologyCall).filter((n): n is string => n !== null))];
}

/** `input` with its one unnamed listener named as the apology calls them; else `input` itself. */
export function withApologyCall(input: ExtractionInput): ExtractionInput {
  const [listener, ...others] = input.current.addresseeIds;
  if (!listener || others.length > 0 || input.names[listener]) return input;
  const [called, ...more] = apologyCalls(input.current.text);
  if (!called || more.length > 0 || called.toLowerCase() === (input.names[input.current.speakerId] ?? '').toLowerCase()) return input;
  return { ...input, names: { ...input.names, [listener]: called } };
}
