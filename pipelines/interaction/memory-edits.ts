import { ParleyError } from '../../graph/core/errors.js';
import type { Fact } from '../../graph/memory-store.js';

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `needle` last occurs in `hay` as whole words, case aside; -1 when it does not. Whole words, so value "Rome"
 * is not found inside "Jerome"; the last, because a slot's value closes its sentence ("Jerome lives in Rome").
 * `inflected`: the last word may go on ("love" is said by "Ben loves sushi"), for checks that the text still says
 * a value, never to choose where a new value is written.
 */
function find(hay: string, needle: string, inflected = false): number {
  const end = inflected ? '' : '(?![\\p{L}\\p{N}])';
  const word = new RegExp(`(?<![\\p{L}\\p{N}])${escaped(needle.trim())}${end}`, 'giu');
  let at = -1;
  for (const m of hay.matchAll(word)) at = m.index;
  return at;
}

/**
 * The text and slot value a memory holds after a correction (`PATCH /v1/memories/{id}`), so that the two never
 * contradict each other; a field left undefined is unchanged.
 * - `text` alone: the value follows it (see {@link valueAfterEdit}).
 * - `value` alone: the text is rewritten with the new value in the old one's place ("Ana lives in Oslo",
 *   value Bergen: "Ana lives in Bergen").
 * - both: the text must say the value.
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` when they would disagree: `value` alone on a memory whose text does
 * not say its old value (give `text` too), both given with a text that does not say the value, or a text that
 * drops the value with no `value`; nothing is changed then.
 */
export function memoryEdit(
  fact: Pick<Fact, 'content' | 'slot' | 'value'>, text: string | undefined, value: string | undefined,
): { content?: string; value?: string } {
  if (value === undefined) {
    const next = valueAfterEdit(fact, text, undefined);
    return { ...(text !== undefined ? { content: text } : {}), ...(next !== undefined ? { value: next } : {}) };
  }
  const nextValue = valueAfterEdit(fact, text, value)!;
  if (text !== undefined) {
    if (find(text, nextValue) < 0) {
      throw new ParleyError('PARLEY_ERR_BAD_REQUEST', `the new text does not say the new value "${nextValue}": a memory's text and value must agree`);
    }
    return { content: text, value: nextValue };
  }
  const at = fact.value === null ? -1 : find(fact.content, fact.value);
  if (fact.value === null || at < 0) {
    throw new ParleyError('PARLEY_ERR_BAD_REQUEST',
      `this memory's text does not say its value${fact.value === null ? '' : ` "${fact.value}"`}, so it cannot be rewritten with the new one: give the new \`text\` too`);
  }
  const content = `${fact.content.slice(0, at)}${nextValue}${fact.content.slice(at + fact.value.length)}`;
  return { content, value: nextValue };
}

/**
 * The slot value a memory holds after its text is corrected to `text`, when the request gave none: the words
 * that took the old value's place ("Ana lives in Oslo" → "Ana lives in Bergen": `Bergen`), else the old value
 * while the new text still says it. Undefined when nothing changes (no slot, no value, or no new text).
 * @throws ParleyError `PARLEY_ERR_BAD_REQUEST` when the new text no longer says the value and no other words took
 * its place: the request must give `value` itself, so no stale value outlives the text it came from.
 */
export function valueAfterEdit(fact: Pick<Fact, 'content' | 'slot' | 'value'>, text: string | undefined, value: string | undefined): string | undefined {
  if (value !== undefined) {
    if (fact.slot === null) throw new ParleyError('PARLEY_ERR_BAD_REQUEST', 'this memory fills no slot: it has no value to set');
    return value.trim();
  }
  if (text === undefined || fact.slot === null || fact.value === null || text === fact.content) return undefined;
  const old = fact.value;
  const at = find(fact.content, old, true);
  if (at >= 0) {
    const before = fact.content.slice(0, at);
    const after = fact.content.slice(at + old.length);
    if (text.length > before.length + after.length && text.startsWith(before) && text.endsWith(after)) {
      const replaced = text.slice(before.length, text.length - after.length).trim();
      if (replaced) return replaced;
    }
  }
  if (find(text, old, true) >= 0) return undefined;
  throw new ParleyError('PARLEY_ERR_BAD_REQUEST',
    `this memory fills ${fact.slot} with "${old}", which the new text no longer says: give its new value as \`value\` too`);
}
