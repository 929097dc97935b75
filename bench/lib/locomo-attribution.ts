/**
 * Which stage a difference between two variants comes from, read from one `--variants` dump: for the questions
 * where variant A and variant B differ on a metric, which of the other variants side with B (an ablation that turns
 * one stage of A off "recovers" A's loss when it scores as B does). Pure functions over dump lines, for
 * `bench/locomo-attribute.ts`.
 */

/** One line of a `--variants` dump (what attribution reads of it). */
export interface DumpLine {
  conv: string;
  question: string;
  category: number;
  gold: string[];
  scores: Record<string, Record<string, number>>;
  items?: Record<string, { refs: string[]; text: string; layer: string }[]>;
}

/** How one other variant sides on the questions where A and B differ. */
export interface Attribution {
  variant: string;
  /** Questions B wins over A where this variant scores as B (the stage it turns off caused A's loss). */
  recovers: number;
  /** Questions A wins over B where this variant scores as B (the stage it turns off earned A's win). */
  gives: number;
  /** Questions where A and B agree and this variant differs from them (its own effect, outside the A/B gap). */
  elsewhere: number;
}

/** The questions B wins over A and those A wins over B on `metric`, among `categories`. */
export function splitDifferences(lines: readonly DumpLine[], a: string, b: string, metric: string, categories: readonly number[]):
{ bWins: DumpLine[]; aWins: DumpLine[] } {
  const score = (l: DumpLine, v: string): number => {
    const s = l.scores[v]?.[metric];
    if (s === undefined) throw new Error(`the dump has no ${metric} for variant ${JSON.stringify(v)} (question ${JSON.stringify(l.question)})`);
    return s;
  };
  const asked = lines.filter((l) => categories.includes(l.category));
  return { bWins: asked.filter((l) => score(l, b) > score(l, a)), aWins: asked.filter((l) => score(l, a) > score(l, b)) };
}

/** Per variant other than A and B, how it sides on the A/B differences (`Attribution`), in the dump's variant order. */
export function attribute(lines: readonly DumpLine[], a: string, b: string, metric: string, categories: readonly number[]): Attribution[] {
  const { bWins, aWins } = splitDifferences(lines, a, b, metric, categories);
  const variants = Object.keys(lines[0]?.scores ?? {}).filter((v) => v !== a && v !== b);
  const asked = lines.filter((l) => categories.includes(l.category));
  const same = (l: DumpLine, v: string, w: string): boolean => l.scores[v]?.[metric] === l.scores[w]?.[metric];
  return variants.map((v) => ({
    variant: v,
    recovers: bWins.filter((l) => same(l, v, b)).length,
    gives: aWins.filter((l) => same(l, v, b)).length,
    elsewhere: asked.filter((l) => same(l, a, b) && !same(l, v, a)).length,
  }));
}

/**
 * What took the gold's places in `loser`'s top k on one question: the items `loser` served that `winner` did not
 * (by their turn references), with their layer, so a loss reads as "a fact / persona node / other turn displaced it".
 */
export function displacers(line: DumpLine, winner: string, loser: string): { layer: string; refs: string[]; text: string }[] {
  const won = new Set((line.items?.[winner] ?? []).flatMap((i) => i.refs));
  return (line.items?.[loser] ?? []).filter((i) => i.refs.length === 0 || i.refs.every((r) => !won.has(r)));
}
