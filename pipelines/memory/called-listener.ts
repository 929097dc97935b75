/**
 * "Eve, I promise to water your plants": a turn that calls someone by a name no one present holds, and is addressed to
 * no one the interaction graph knows. The facts read "you" as the person called ("Dora will water Eve's plants"), not
 * as "the listener"; the graph records no addressee (no participant answers to the name yet: the name stays evidence for
 * naming whoever answers, see pipelines/interaction/session-naming.ts), and a fact about the person called alone is not
 * kept (it would have no participant to be about).
 */
import { edgeVocatives, namesCalledIn } from '../speaker/vocatives.js';
import type { ExtractionInput, ExtractionResult } from './extractor.js';
import { findDates } from './relative-date.js';
import { apologyCalls } from './apology-call.js';

/** Ids given to the people called for the rules' perspective only; never stored. */
const CALLED = '~called:';

/** Names called vocatively in a turn addressed to no one, other than the speaker's own. */
export function calledNames(input: ExtractionInput): string[] {
  const u = input.current;
  if (u.addresseeIds.length > 0) return [];
  const own = (input.names[u.speakerId] ?? '').toLowerCase();
  // "Sunday, I went to the market": a day or a month opening a sentence is when, not whom.
  // "i am sorry james i will…": unpunctuated, the name after an apology is called too (fix7b).
  // "Done Tom, your repair is booked": the name an acknowledgement calls (trial11 F5).
  return [...new Set([...namesCalledIn(u.text), ...apologyCalls(u.text)])].filter((name) => name.toLowerCase() !== own && findDates(name, u.time).length === 0);
}

/** Runs `extract` with the people called as the turn's listeners, and takes them out of what it returns. */
export async function withCalledListeners(
  input: ExtractionInput, extract: (input: ExtractionInput) => Promise<ExtractionResult>,
): Promise<ExtractionResult> {
  const called = calledNames(input);
  if (called.length === 0) return extract(input);
  const ids = called.map((name) => `${CALLED}${name}`);
  const result = await extract({
    ...input,
    current: { ...input.current, addresseeIds: ids },
    names: { ...input.names, ...Object.fromEntries(ids.map((id, k) => [id, called[k]!])) },
  });
  const real = (id: string): boolean => !id.startsWith(CALLED);
  return {
    facts: result.facts.filter((f) => real(f.subjectId)).map((f) => ({ ...f, addresseeIds: f.addresseeIds.filter(real) })),
    profileUpdates: result.profileUpdates.filter((p) => real(p.participantId)),
  };
}

/**
 * `sentence` without the name of a person it is said to, called at its start or its end ("Ben, my sister moved to
 * Leeds", "I'll bring the tent, Ben"): a fact tells what was said, not whom it was called to (the graph records that).
 * The name stays where it is part of what is said ("Ben is a great cook", "thanks Ben!" alone). Unpunctuated speech
 * loses the call too ("ben can you send me the draft", "thanks ben see you friday"; rules 68).
 */
export function withoutVocative(sentence: string, listeners: readonly string[]): string {
  let out = sentence;
  // A call and nothing else ("Thanks Ben!") is what is said: kept.
  for (const { start, end, at } of edgeVocatives(sentence, listeners).reverse()) if (at !== 'whole') out = out.slice(0, start) + out.slice(end);
  return /\p{L}/u.test(out) ? out : sentence;
}

/**
 * `sentence` without an acknowledgement that opens it before a comma ("No problem, the new address is…", "Done, …",
 * "Sure, …"; trial11 F5): the agent's reply to a request is no part of what it tells. "No, …", "Yes, …" and "Okay, …" are
 * left to the rules that read them (a correction, an answer).
 */
export function withoutAcknowledgement(sentence: string): string {
  const out = sentence.replace(/^\s*(?:no problem|done|sure|certainly|of course|noted|got it|perfect|great|alright|all right)\s*,\s+(?=\S)/i, '');
  return /\p{L}/u.test(out) ? out : sentence;
}
