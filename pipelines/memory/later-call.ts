/**
 * "Thanks Liam. Chen, can you review the payment pull request today?" (rules 84, a newcomer's stand-up trial): a later
 * sentence of a turn that opens by calling someone else ("Chen, …") is said to them, not to whom the turn was said to
 * first. The turn is read in parts, each from a sentence opening with a call to the next such sentence, each said to
 * the one it calls: an addressee or another participant answering to the name, or, when none does, no one known (the
 * name then is the listener of its facts, as for a turn said to no one: called-listener.ts).
 */
import { answersTo, findVocatives, sentencesOf } from '../speaker/vocatives.js';
import type { ExtractionInput, ExtractionResult } from './extractor.js';
import { findDates } from './relative-date.js';

/** A name opening a sentence before a comma ("Chen, can you…", "Okay Chen, …"): one to three capitalised words. */
const OPENING_CALL = /^\s*(?:(?:and|so|okay|ok|hey|oh)\s+)?([A-Z][\p{L}'’-]*(?:\s+[A-Z][\p{L}'’-]*){0,2})\s*,\s*\S/u;

/**
 * A request to the one called ("can you…", "please…", "send…"): never an aside before the name's own predicate, whatever
 * follows its next comma ("Ben, please update the slides, Marcus wants them…"; rules 93).
 */
const REQUEST = /^(?:can|could|would|will|won['’]t|please|let['’]s|shall|remember|make|send|call|check|go|take|bring|give|tell|look|get|put|keep|update|fix|review)\b/i;
/**
 * An aside closed by a comma, then a predicate of its own ("Sarah, my sister, starts…", "Jordan, I think, is coming…",
 * "Ben, the manager, will ring…": the name is the sentence's subject, not a call; rules 88). Lower-case only: a name after
 * the comma ("…, Marcus wants") is no predicate (rules 93).
 */
const ASIDE_THEN_PREDICATE = /^(?:[^\s,.?!]+\s+){0,4}[^\s,.?!]+,\s*(?:is|are|was|were|has|had|will|would|can|could|should|does|did|(?!(?:thanks|unless|this|thus|plus|yes|less|always|perhaps|towards|besides|afterwards|sometimes|anyways|guys|folks|yours|ours|theirs|hers|its)\b)[a-z]{2,}s)\b/;

/**
 * A statement about the name itself, not told to it: a person's pronoun standing for the name ("Emma, she's seven") or an
 * apposition before its predicate ("Sarah, my sister had her baby"; rules 95). "It" / "that" stand for no person, so
 * "Chen, it's due Friday" is told to Chen (rules 99); "Lisbon, it's my favourite place" stays about Lisbon, a name no
 * participant answers to (`openingCall`).
 */
const ABOUT_THE_NAME = /^(?:(?:he|she|they|his|her|their)\b|(?:my|our)\s+(?:[a-z]+\s+)?(?:sister|brother|mum|mom|mother|dad|father|son|daughter|wife|husband|partner|girlfriend|boyfriend|friend|boss|manager|neighbou?r|cousin|aunt|uncle|niece|nephew|grandma|grandpa|grandmother|grandfather|kid|child|baby|dog|cat|colleague|flatmate|roommate)\b)/i;

/**
 * How what follows a call's comma is said: 'request' (asked of the one called), 'statement' (told to them when they
 * take part: "Chen, the report is due Friday"; rules 93), or null (the name is the sentence's subject: an aside before
 * its own predicate, rules 88; or a statement about the name, rules 95).
 */
function saidToTheOneCalled(rest: string): 'request' | 'statement' | null {
  const after = rest.replace(/^\s*,?\s*/, '');
  if (REQUEST.test(after)) return 'request';
  return ASIDE_THEN_PREDICATE.test(after) || ABOUT_THE_NAME.test(after) ? null : 'statement';
}

/**
 * Whom `sentence` calls at its opening: the ids of `input` answering to the name (an addressee first), `[]` for a name
 * no participant holds, or null when it calls no one (no call, a day or month, the speaker's own name, a name two
 * people answer to, a statement after a name no participant holds: "Rex, the vet says…" is about Rex; rules 95).
 */
function openingCall(sentence: string, input: ExtractionInput): string[] | null {
  const m = OPENING_CALL.exec(sentence);
  const name = m?.[1];
  const said = name ? saidToTheOneCalled(sentence.slice(m.index + m[0].length - 1)) : null;
  if (!name || said === null) return null;
  const first = name.split(/\s+/)[0]!;
  if (!findVocatives(sentence).includes(first) || findDates(name, input.current.time).length > 0) return null;
  const { speakerId, addresseeIds } = input.current;
  const holders = (ids: readonly string[]): string[] => ids.filter((id) => id !== speakerId && answersTo(input.names[id] ?? '', first));
  if (answersTo(input.names[speakerId] ?? '', first)) return null;
  const addressed = holders(addresseeIds);
  if (addressed.length > 0) return addressed.length === 1 ? addressed : null;
  const known = holders(Object.keys(input.names));
  if (known.length === 0 && said === 'statement') return null;
  return known.length <= 1 ? known : null;
}

/**
 * `input`'s turn in parts said to different people (`openingCall` of a sentence after the first), or null when every
 * part would be said to the turn's own addressees.
 */
export function partsCalled(input: ExtractionInput): ExtractionInput[] | null {
  const u = input.current;
  const sentences = sentencesOf(u.text);
  if (sentences.length < 2) return null;
  const parts: { text: string; to: readonly string[] }[] = [{ text: sentences[0]!, to: openingCall(sentences[0]!, input) ?? u.addresseeIds }];
  for (const s of sentences.slice(1)) {
    const to = openingCall(s, input);
    const last = parts[parts.length - 1]!;
    if (to === null || (to.length > 0 && to.join() === last.to.join())) last.text = `${last.text} ${s}`;
    else parts.push({ text: s, to });
  }
  const same = (to: readonly string[]): boolean => to.length === u.addresseeIds.length && to.every((id) => u.addresseeIds.includes(id));
  if (parts.length < 2 || parts.every((p) => same(p.to))) return null;
  return parts.map((p) => ({ ...input, current: { ...u, text: p.text, addresseeIds: [...p.to] } }));
}

/** The facts and profile updates of every part, in order. */
export function joinedParts<T extends ExtractionResult>(results: readonly T[]): ExtractionResult {
  return { facts: results.flatMap((r) => r.facts), profileUpdates: results.flatMap((r) => r.profileUpdates) };
}
