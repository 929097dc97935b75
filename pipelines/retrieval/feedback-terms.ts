import { isContentWord, tokens } from './question-rewrite.js';

/**
 * Pseudo-relevance feedback (RM3-like, without an index-wide idf): words of the top `feedback`
 * texts, each weighted by its in-text frequency over the text's length and the text's rank
 * (1 / rank), discounted by how many of all `texts` contain it (a background drawn from the same
 * candidate list), minus `exclude`. Returns the best `n` words.
 */
export function feedbackTerms(texts: readonly string[], exclude: ReadonlySet<string>, n = 5, feedback = 3): string[] {
  if (texts.length === 0 || n <= 0) return [];
  const docs = texts.map((t) => tokens(t).filter((w) => w.length > 2 && isContentWord(w) && !exclude.has(w)));
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const weight = new Map<string, number>();
  docs.slice(0, feedback).forEach((d, rank) => {
    if (d.length === 0) return;
    const tf = new Map<string, number>();
    for (const w of d) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const [w, c] of tf) {
      const idf = Math.log(1 + docs.length / (df.get(w) ?? 1));
      weight.set(w, (weight.get(w) ?? 0) + (c / d.length) * idf / (rank + 1));
    }
  });
  return [...weight.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([w]) => w);
}
