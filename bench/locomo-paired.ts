/**
 * Paired comparison of two LoCoMo runs over the same questions, from their `--dump` files (for
 * example the same code on stores built by two versions of consolidation): per metric, each run's
 * mean and the paired difference B − A with its 95 % bootstrap interval over questions (categories 1–4 together and
 * each on its own, category 5 apart).
 *
 *   node dist/bench/locomo-paired.js --a DUMP_A --b DUMP_B [--system NAME] [--system-b NAME]
 *
 * `--system` names the row of `scores` to compare (default: the first key of the first line, the
 * Parley row or the reference variant); `--system-b` another name for run B (default: the same).
 */
import { readFileSync } from 'node:fs';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

type Scores = Record<string, number>;
interface Line { conv: string; question: string; category: number; scores: Record<string, Scores> }

const read = (file: string): Line[] => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
const fileA = arg('a');
const fileB = arg('b');
if (!fileA || !fileB) throw new Error('--a DUMP_A and --b DUMP_B are required');
const a = read(fileA);
const b = read(fileB);
const sysA = arg('system') ?? Object.keys(a[0]?.scores ?? {})[0] ?? '';
const sysB = arg('system-b') ?? sysA;

// A question may be asked twice in one conversation: the n-th occurrence pairs with the n-th.
const keyed = (lines: Line[]): Map<string, Line> => {
  const seen = new Map<string, number>();
  return new Map(lines.map((l) => {
    const k = `${l.conv}\u0000${l.question}`;
    const n = (seen.get(k) ?? 0) + 1;
    seen.set(k, n);
    return [`${k}\u0000${n}`, l] as const;
  }));
};
const byA = keyed(a);
const byB = keyed(b);
const pairs = [...byA].flatMap(([k, l]) => (byB.has(k) ? [[l, byB.get(k) as Line] as const] : []));
console.log(`${pairs.length} questions in both (${a.length} in A, ${b.length} in B); A = ${fileA} [${sysA}], B = ${fileB} [${sysB}]`);
console.log('| metric | A | B | B − A (paired) |\n|---|---|---|---|');
const rows = (cats: number[]) => pairs.filter(([x]) => cats.includes(x.category));
for (const [label, cats, metric] of [['any@5 cat 1–4', [1, 2, 3, 4], 'any'], ['all@5 cat 1–4', [1, 2, 3, 4], 'all'],
  ['ans@1 cat 1–4', [1, 2, 3, 4], 'ans1'], ['ans@3 cat 1–4', [1, 2, 3, 4], 'ans3'],
  ['ans@1 with the item\'s date, cat 1–4', [1, 2, 3, 4], 'ans1d'], ['ans@1 with date, cat 2 (temporal)', [2], 'ans1d'], ['ans@1 cat 2', [2], 'ans1'], ['any@5 cat 5', [5], 'any'], ['all@5 cat 5', [5], 'all'],
  ['ans@1 cat 5', [5], 'ans1'], ['ans@3 cat 5', [5], 'ans3'],
  ...[1, 2, 3, 4].flatMap((c) => [[`any@5 cat ${c}`, [c], 'any'], [`all@5 cat ${c}`, [c], 'all']] as const)] as const) {
  // A dump written before a metric existed has none: say so rather than count it as 0.
  if (pairs.some(([x, y]) => x.scores[sysA]?.[metric] === undefined || y.scores[sysB]?.[metric] === undefined)) {
    console.log(`| ${label} | not in both dumps | | |`);
    continue;
  }
  const xa = rows([...cats]).map(([x]) => x.scores[sysA]?.[metric] ?? 0);
  const xb = rows([...cats]).map(([, y]) => y.scores[sysB]?.[metric] ?? 0);
  console.log(`| ${label} (n ${xa.length}) | ${pct(bootstrapMean(xa))} | ${pct(bootstrapMean(xb))} | ${pct(bootstrapDelta(xb, xa), true)} |`);
}
