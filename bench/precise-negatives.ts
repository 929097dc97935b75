/**
 * False memories on ordinary sentences (issue #16, rules 35): every sentence of `bench/data/precise-negatives.jsonl`
 * through the embedded extractor, this build and, with `--baseline DIR` (another build's dist/, e.g. main's, built in a
 * scratch copy), that build in the same process. A sentence is a false memory when any of its facts is one of the kinds
 * its line forbids (`not`; absent: all three):
 * - `job`: an `occupation` or `works_at` slot ("I'm a mess this week" is no job);
 * - `preference`: a preference fact or a `preference:*`, `favourite:*` or `sport:*` slot ("for now I like the plan");
 * - `end`: a fact with an end of its own (`validUntil`);
 * or when the extractor throws on it. The third set (`--file bench/data/precise-negatives-3.jsonl`: spoken, lower-case
 * sentences on jobs, homes, stays, likings, plans, health, family, commitments done or cancelled, written by precise6
 * before any build ran on it) adds the kinds `home`, `plan`, `outcome`, `any` (bench/lib/precise-expect.ts) and lines
 * that should leave a memory (`expect`): one is missed when no fact has the expected shape (slot, kind, settles), worded
 * wrong when no such fact says the expected words cleanly (no filler, no "I / my" left, an end where one was said).
 * Reports the share of false memories (and, in the third set, of missed memories and wrong wording) per split with its 95 % bootstrap interval and,
 * with a baseline, the paired difference (this build − baseline). `--show` prints each sentence of the split and what
 * was wrong with it; choose rules on `--split dev` only. `--file bench/data/precise-negatives-2.jsonl`: a second set
 * (rules 36: an activity on one thing, a bare "I'm a X" of no trade, a holiday end in a later clause), written before any
 * build was run on it. `--file bench/data/precise-negatives-6.jsonl` (rules 42): 30 held-out sentences, all `test`, of
 * jobs changed in other words, habits and likings given up, "we" homes and liked phrases, written before any build ran on
 * them.
 *
 *   npm run build && node dist/bench/precise-negatives.js [--split dev|test|all] [--baseline DIR] [--file F] [--show]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import { argString } from './lib/cli.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { loadExtractor, type ExtractorClass } from './lib/locomo-extract.js';
import { judge, type Expected, type Verdict, type Wrong } from './lib/precise-expect.js';

/**
 * One sentence: `not` the kinds of false memory it must not give (absent, and no `expect`: job, preference and end);
 * `expect` the memories it should leave (third set); `added` says why a line was written after the first run (dev lines
 * only), or, in the later sets, when.
 */
interface Negative { id: number; text: string; split: 'dev' | 'test'; time: string; not?: Wrong[]; expect?: Expected[]; added?: string }

const FILE = argString('file', path.join(repoRoot(), 'bench', 'data', 'precise-negatives.jsonl'));
const split = argString('split', 'all');
if (!['dev', 'test', 'all'].includes(split)) throw new Error('--split is dev, test or all');
const baselineDir = argString('baseline', '');
const show = process.argv.includes('--show');

/** Each sentence's verdict under one build; a throw is a false memory, and a miss where a memory was expected. */
async function run(Extractor: ExtractorClass, items: readonly Negative[]): Promise<Verdict[]> {
  const extractor = new Extractor();
  const out: Verdict[] = [];
  for (const item of items) {
    const current = { id: `n${item.id}`, sessionId: 'precise', speakerId: 'ana', addresseeIds: ['tom'], text: item.text,
      startMs: null, endMs: null, time: item.time, confidence: null, audioRef: null, seq: 1 };
    try {
      const { facts } = await extractor.extract({ current, previous: [], names: { ana: 'Ana', tom: 'Tom' } });
      out.push(judge(facts, item.not, item.expect));
    } catch (err) {
      const error = [`error: ${(err as Error).message}`];
      out.push({ falseMemory: error, missed: item.expect ? error : [], wrong: [] });
    }
  }
  return out;
}

const all = readFileSync(FILE, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Negative);
const items = all.filter((n) => split === 'all' || n.split === split);
const mine = await run(EmbeddedExtractor, items);
const base = baselineDir ? await run(await loadExtractor(baselineDir), items) : null;
for (const s of split === 'all' ? ['dev', 'test'] : [split]) {
  const at = items.map((n, i) => [n, i] as const).filter(([n]) => n.split === s).map(([, i]) => i);
  // False memories over the sentences that forbid something; misses and wrong wording over those that expect a memory.
  const shares: [string, (n: Negative) => boolean, (v: Verdict) => string[]][] = [
    ['false memories', (n) => n.not !== undefined || n.expect === undefined, (v) => v.falseMemory],
    ['missed memories', (n) => n.expect !== undefined, (v) => v.missed],
    ['wrong wording', (n) => n.expect !== undefined, (v) => v.wrong],
  ];
  console.log(`\n${s}: ${at.length} sentences`);
  for (const [name, counts, field] of shares) {
    const over = at.filter((i) => counts(items[i]!));
    if (over.length === 0) continue;
    const rate = (runs: Verdict[]): number[] => over.map((i) => (field(runs[i]!).length > 0 ? 1 : 0));
    const n = (runs: Verdict[]): string => `${rate(runs).reduce((a, b) => a + b, 0)}/${over.length}`;
    console.log(`  this build: ${name} ${n(mine)} ${pct(bootstrapMean(rate(mine)))}`);
    if (!base) continue;
    console.log(`  baseline (${baselineDir}): ${name} ${n(base)} ${pct(bootstrapMean(rate(base)))}`);
    console.log(`  this build − baseline: ${pct(bootstrapDelta(rate(mine), rate(base)), true)}`);
  }
  if (!show) continue;
  const said = (v: Verdict): string => [...v.falseMemory, ...v.missed.map((m) => `missed ${m}`), ...v.wrong.map((w) => `wording ${w}`)].join(' | ') || 'ok';
  for (const i of at) {
    const wrong = [...(base ? [`baseline ${said(base[i]!)}`] : []), `this build ${said(mine[i]!)}`];
    console.log(`  ${items[i]!.id} "${items[i]!.text}"\n    ${wrong.join('\n    ')}`);
  }
}
