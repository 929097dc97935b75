/** Lower-case words without punctuation, for scoring. */
export function normaliseForWer(text: string): string[] {
  return text.toLowerCase().replace(/[^a-z0-9' ]+/g, ' ').split(/\s+/).filter((w) => w.length > 0);
}

/** Word edit distance between a reference and a hypothesis (substitutions + deletions + insertions). */
export function wordErrors(reference: string, hypothesis: string): { errors: number; words: number } {
  const ref = normaliseForWer(reference);
  const hyp = normaliseForWer(hypothesis);
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const cur = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const sub = (prev[j - 1] ?? 0) + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      cur[j] = Math.min(sub, (prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1);
    }
    prev = cur;
  }
  return { errors: prev[hyp.length] ?? 0, words: ref.length };
}

/** Word error rate over pairs: total errors / total reference words. */
export function wordErrorRate(pairs: { reference: string; hypothesis: string }[]): number {
  let errors = 0, words = 0;
  for (const p of pairs) {
    const r = wordErrors(p.reference, p.hypothesis);
    errors += r.errors;
    words += r.words;
  }
  return words === 0 ? 0 : errors / words;
}
