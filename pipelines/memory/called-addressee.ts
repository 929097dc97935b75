/**
 * "Tom, I changed your order to size 56", said to Maria and Tom (reviewB #8): a turn said to two people or more that
 * calls one of them by name, opening or closing a sentence ("Tom, …", "…, Tom.", "Done Tom, …"), is said to that one. Its
 * "you" and "your" are theirs for the whole turn, not the group's ("Sam changed Tom's order to size 56"), and so is
 * everything the rules give the listener (a request, a number, an address, a change of a value). "We" still takes the
 * whole room in (`Perspective.room`): "Tom, we should cut the costs" is the group's.
 */
import { edgeVocatives, sentencesOf } from '../speaker/vocatives.js';
import type { ExtractionInput, ExtractionResult } from './extractor.js';

/**
 * The one addressee of `input`'s turn that a sentence of it calls by name at its start or its end, or as all it says
 * ("Hi Tom.", "Tom!"; `edgeVocatives`: the whole name or one word of it, unpunctuated speech too), or null: said to fewer
 * than two, none called, or two called (or one name two addressees answer to).
 */
export function calledAddressee(input: ExtractionInput): string | null {
  const { addresseeIds, text } = input.current;
  if (addresseeIds.length < 2) return null;
  const sentences = sentencesOf(text);
  const called = addresseeIds.filter((id) => {
    const name = input.names[id];
    return Boolean(name) && sentences.some((s) => edgeVocatives(s, [name!]).length > 0);
  });
  return called.length === 1 ? called[0]! : null;
}

/**
 * Runs `extract` on `input` said to the one addressee a vocative calls (`calledAddressee`), with everyone it was said to
 * as `room` (the ids, for "we"); unchanged, with `room` the addressees, when none is called.
 */
export function withCalledAddressee<T extends ExtractionResult>(
  input: ExtractionInput, extract: (input: ExtractionInput, room: readonly string[]) => Promise<T>,
): Promise<T> {
  const room = input.current.addresseeIds;
  const called = calledAddressee(input);
  return extract(called ? { ...input, current: { ...input.current, addresseeIds: [called] } } : input, room);
}
