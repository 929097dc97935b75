/** Edit distance between `a` and `b`: insertions, deletions, substitutions and swaps of two neighbours (`tiem`: `time`). */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(next[j - 1]! + 1, row[j]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      next[j] = d;
    }
    [before, row] = [row, next];
  }
  return row[b.length]!;
}

/** The candidate nearest to `name` by {@link editDistance}; undefined when there is none. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/** Case, `_` and `-` aside: `sampleRate`, `samplerate` and `sample-rate` all read as `sample_rate`. */
const bare = (name: string): string => name.toLowerCase().replace(/[_-]/g, '');

/**
 * The known field an unknown one was probably meant to be: the same but for case, `_` or `-`, else the nearest
 * within a third of its length (at least 1, at most 3 edits); undefined when nothing is that close.
 */
export function likelyMeant(name: string, known: readonly string[]): string | undefined {
  const same = known.find((k) => bare(k) === bare(name));
  if (same) return same;
  const best = closest(name, known);
  if (best === undefined) return undefined;
  return editDistance(name, best) <= Math.min(3, Math.max(1, Math.floor(name.length / 3))) ? best : undefined;
}
