import type { MemoryItem } from '../../graph/core/events.js';

/**
 * One item per source turn, as `query.result` serves them: items best first; a turn and a fact drawn
 * from it are one memory, served once, as the fact (it carries the turn's words in `source_text`)
 * at the better of the two scores and in the better place. A fact or turn whose source turns are all
 * served already by a better-ranked item is left out (two facts of one turn take one place); one
 * with a source turn not yet served keeps its own place. A superseded fact never stands in for a
 * current turn, and persona nodes are not turns: both keep their own places.
 */
export function onePerSourceTurn(items: readonly MemoryItem[]): MemoryItem[] {
  const out: MemoryItem[] = [];
  /** Source turn id → index in `out` of the item serving it. */
  const servedBy = new Map<string, number>();
  for (const item of items) {
    const sources = item.layer === 'persona' ? [] : item.layer === 'interaction' ? [item.id] : item.refer_ids;
    if (sources.length === 0 || sources.some((r) => !servedBy.has(r))) {
      for (const r of sources) if (!servedBy.has(r)) servedBy.set(r, out.length);
      out.push(item);
      continue;
    }
    const at = servedBy.get(sources[0] as string) as number;
    const held = out[at] as MemoryItem;
    // A fact of exactly the turn served as a turn takes the turn's place.
    const standsIn = held.layer === 'interaction' && item.layer !== 'interaction' && sources.length === 1 && (!item.superseded || held.superseded);
    if (standsIn) out[at] = { ...item, score: Math.max(item.score, held.score) };
  }
  return out;
}
