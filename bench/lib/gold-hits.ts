import type { MemoryItem } from '../../graph/core/events.js';
import { bootstrapDelta, bootstrapMean, pct } from './bootstrap.js';

/** How an answer's items meet the gold turns: the first item (top-1), any item, and what the first item says. */
export interface GoldHits {
  top1: number;
  any: number;
  /** The first item's source words (a fact's `source_text`), else its text; "(none)" for an empty answer. */
  got: string;
}

/** Score an answer against the gold utterance ids: an item hits when one of its source turns (`refer_ids`) is gold. */
export function goldHits(items: readonly MemoryItem[], gold: ReadonlySet<string>): GoldHits {
  const hit = items.map((i) => i.refer_ids.some((r) => gold.has(r)));
  return { top1: hit[0] ? 1 : 0, any: hit.some(Boolean) ? 1 : 0, got: items[0]?.source_text ?? items[0]?.text ?? '(none)' };
}

/** One question's hits under each of two systems (same order as the systems). */
export interface PairedRow { kind: string; q: string; top1: number[]; any: number[]; got: string[] }

/** Add one system's hits to a question's row (systems in order). */
export function addHits(row: PairedRow, hits: GoldHits): void {
  row.top1.push(hits.top1);
  row.any.push(hits.any);
  row.got.push(hits.got);
}

/**
 * Print the two systems side by side, overall and per kind: top-1 (`top1Label`) and any@k (`anyLabel`), each with its 95 %
 * bootstrap interval and the paired difference; with `show`, every question the second system gets wrong or changes.
 */
export function printPaired(systems: readonly [string, string], rows: readonly PairedRow[], top1Label: string, anyLabel: string, show: boolean): void {
  console.log(`| questions | n | measure | ${systems[0]} | ${systems[1]} | difference (paired) |`);
  console.log('|---|---|---|---|---|---|');
  for (const kind of ['all', ...new Set(rows.map((r) => r.kind))]) {
    const rs = rows.filter((r) => kind === 'all' || r.kind === kind);
    if (rs.length === 0) continue;
    for (const m of ['top1', 'any'] as const) {
      const [a, b] = [0, 1].map((s) => rs.map((r) => r[m][s] as number)) as [number[], number[]];
      console.log(`| ${kind} | ${rs.length} | ${m === 'top1' ? top1Label : anyLabel} | ${pct(bootstrapMean(a))} | ${pct(bootstrapMean(b))} | ${pct(bootstrapDelta(b, a), true)} |`);
    }
  }
  if (!show) return;
  for (const r of rows) {
    if (r.top1[0] !== r.top1[1] || r.top1[1] === 0) console.log(`  [${r.kind}] ${r.q}: before ${r.top1[0] ? 'right' : 'wrong'} ("${r.got[0]}"), after ${r.top1[1] ? 'right' : 'wrong'} ("${r.got[1]}")`);
  }
}
