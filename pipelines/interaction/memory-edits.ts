import { ParleyError } from '../../graph/core/errors.js';
import type { Fact } from '../../graph/memory-store.js';

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
  const at = fact.content.toLowerCase().indexOf(old.toLowerCase());
  if (at >= 0) {
    const before = fact.content.slice(0, at);
    const after = fact.content.slice(at + old.length);
    if (text.length > before.length + after.length && text.startsWith(before) && text.endsWith(after)) {
      const replaced = text.slice(before.length, text.length - after.length).trim();
      if (replaced) return replaced;
    }
  }
  if (text.toLowerCase().includes(old.toLowerCase())) return undefined;
  throw new ParleyError('PARLEY_ERR_BAD_REQUEST',
    `this memory fills ${fact.slot} with "${old}", which the new text no longer says: give its new value as \`value\` too`);
}
