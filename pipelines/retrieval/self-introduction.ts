/**
 * A self-introduction ("Hi, I'm Sarah": the fact "Sarah introduced themself", of slot `name`) answers only a question
 * about names. Once the name is known it tells nothing more, so it takes no place among the memories served for any
 * other question or turn (the memory layer's `namesAsked`; the end-of-turn `memory.context`, fix9 issue #16 F6).
 */
import type { Fact } from '../../graph/memory-store.js';

/** A question about names: the one a self-introduction answers. */
export const ASKS_NAME = /\b(?:name|names|named|call|called|introduce|introduced|introduces|introduction)\b/i;

/** True for a self-introduction's fact (slot `name`). */
export function isSelfIntroduction(f: Pick<Fact, 'slot'>): boolean {
  return f.slot === 'name';
}
