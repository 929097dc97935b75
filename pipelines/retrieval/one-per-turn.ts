import type { MemoryItem } from '../../graph/core/events.js';

/** How `oncePerSourceTurn` reads and places items; only `sources` is required. */
export interface OncePerTurnOptions<T> {
  /** The source turn ids an item stands for (a turn: its own id); an item with none is never left out. */
  sources: (item: T) => readonly string[];
  /**
   * Whether an item whose source turns are all served may be left out, given the kept item serving its first
   * source turn; default: every such item is.
   */
  skippable?: (item: T, held: T) => boolean;
  /**
   * An item left out may stand in for the kept item serving its first source turn: return what takes
   * that place, or undefined to leave it be. Default: the kept item stays.
   */
  standIn?: (item: T, held: T) => T | undefined;
  /** Stop once this many items are kept; default: no limit. */
  limit?: number;
  /**
   * Put an item off (given the items kept so far): it is offered again, in order, only after every
   * other item, to fill places left. Default: nothing is put off.
   */
  defer?: (item: T, kept: readonly T[]) => boolean;
}

/**
 * Serve each source turn once: items best first; an item whose source turns are all served already
 * by a better-ranked kept item is left out (or stands in for it, `standIn`); one with a source turn
 * not yet served keeps its own place and serves it. Returns the kept items, in order.
 */
export function oncePerSourceTurn<T>(items: Iterable<T>, o: OncePerTurnOptions<T>): T[] {
  const kept: T[] = [];
  const deferred: T[] = [];
  /** Source turn id → index in `kept` of the item serving it. */
  const servedBy = new Map<string, number>();
  const limit = o.limit ?? Infinity;
  const offer = (item: T, mayDefer: boolean): void => {
    const sources = o.sources(item);
    const at = sources.length > 0 && sources.every((r) => servedBy.has(r)) ? servedBy.get(sources[0] as string) as number : -1;
    if (at >= 0 && (o.skippable?.(item, kept[at] as T) ?? true)) {
      const put = o.standIn?.(item, kept[at] as T);
      if (put !== undefined) kept[at] = put;
      return;
    }
    if (mayDefer && o.defer?.(item, kept)) {
      deferred.push(item);
      return;
    }
    for (const r of sources) if (!servedBy.has(r)) servedBy.set(r, kept.length);
    kept.push(item);
  };
  for (const item of items) {
    if (kept.length >= limit) break;
    offer(item, true);
  }
  for (const item of deferred) {
    if (kept.length >= limit) break;
    offer(item, false);
  }
  return kept;
}

/**
 * One item per source turn, as `query.result` serves them: items best first; a turn and a fact drawn
 * from it are one memory, served once, as the fact (it carries the turn's words in `source_text`)
 * at the better of the two scores and in the better place. A fact or turn whose source turns are all
 * served already by a better-ranked item is left out (two facts of one turn take one place); one
 * with a source turn not yet served keeps its own place. A superseded fact never stands in for a
 * current turn, nor does it leave out a current item of its turn (that item keeps its own place: a
 * client that hides superseded items still gets it); persona nodes are not turns and keep their places.
 */
export function onePerSourceTurn(items: readonly MemoryItem[]): MemoryItem[] {
  return oncePerSourceTurn(items, {
    sources: (item) => (item.layer === 'persona' ? [] : item.layer === 'interaction' ? [item.id] : item.refer_ids),
    skippable: (item, held) => !(held.superseded && !item.superseded),
    // A fact of exactly the turn served as a turn takes the turn's place.
    standIn: (item, held) => (held.layer === 'interaction' && item.layer !== 'interaction' && item.refer_ids.length === 1 &&
      (!item.superseded || held.superseded) ? { ...item, score: Math.max(item.score, held.score) } : undefined),
  });
}
