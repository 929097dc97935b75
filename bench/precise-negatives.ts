/**
 * False memories on ordinary sentences (issue #16, rules 35): every sentence of `bench/data/precise-negatives.jsonl`
 * through the embedded extractor, this build and, with `--baseline DIR` (another build's dist/, e.g. main's, built in a
 * scratch copy), that build in the same process. A sentence is a false memory when any of its facts is one of the kinds
 * its line forbids (`not`; absent: all three):
 * - `job`: an `occupation` or `works_at` slot ("I'm a mess this week" is no job);
 * - `preference`: a preference fact or a `preference:*`, `favourite:*` or `sport:*` slot ("for now I like the plan");
 * - `end`: a fact with an end of its own (`validUntil`);
 * or when the extractor throws on it. Reports the share of false memories per split with its 95 % bootstrap interval and,
 * with a baseline, the paired difference (this build − baseline). `--show` prints each sentence of the split and what
 * was wrong with it; choose rules on `--split dev` only. `--file bench/data/precise-negatives-2.jsonl`: a second set
 * (rules 36: an activity on one thing, a bare "I'm a X" of no trade, a holiday end in a later clause), written before any
 * build was run on it.
 *
 *   npm run build && node dist/bench/precise-negatives.js [--split dev|test|all] [--baseline DIR] [--file F] [--show]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../pipelines/memory/extractor.js';
import { argString } from './lib/cli.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { loadExtractor, type ExtractorClass } from './lib/locomo-extract.js';

type Wrong = 'job' | 'preference' | 'end';
/**
 * One sentence that must give no false memory: `not` the kinds it must not give (absent: all three); `added` says why a
 * line was written after the first run (dev lines only), or, in the second set, when.
 */
interface Negative { id: number; text: string; split: 'dev' | 'test'; time: string; not?: Wrong[]; added?: string }

const FILE = argString('file', path.join(repoRoot(), 'bench', 'data', 'precise-negatives.jsonl'));
const split = argString('split', 'all');
if (!['dev', 'test', 'all'].includes(split)) throw new Error('--split is dev, test or all');
const baselineDir = argString('baseline', '');
const show = process.argv.includes('--show');

/** The kinds of false memory among `facts`. */
function wrongIn(facts: readonly ExtractedFact[]): Set<Wrong> {
  const out = new Set<Wrong>();
  for (const f of facts) {
    if (f.slot === 'occupation' || f.slot === 'works_at') out.add('job');
    if (f.kind === 'preference' || /^(?:preference|favourite|sport):/.test(f.slot ?? '')) out.add('preference');
    if (f.validUntil) out.add('end');
  }
  return out;
}

/** What went wrong with each sentence under one build: the forbidden kinds it gave, `error` when it threw. */
async function run(Extractor: ExtractorClass, items: readonly Negative[]): Promise<string[][]> {
  const extractor = new Extractor();
  const out: string[][] = [];
  for (const item of items) {
    const current = { id: `n${item.id}`, sessionId: 'precise', speakerId: 'ana', addresseeIds: ['tom'], text: item.text,
      startMs: null, endMs: null, time: item.time, confidence: null, audioRef: null, seq: 1 };
    try {
      const { facts } = await extractor.extract({ current, previous: [], names: { ana: 'Ana', tom: 'Tom' } });
      const forbidden = new Set(item.not ?? ['job', 'preference', 'end']);
      out.push([...wrongIn(facts)].filter((w) => forbidden.has(w)).map((w) => `${w}: ${facts.map((f) => `${f.slot ?? '-'}=${f.value ?? '-'}${f.validUntil ? ` until ${f.validUntil.slice(0, 10)}` : ''}`).join('; ')}`));
    } catch (err) {
      out.push([`error: ${(err as Error).message}`]);
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
  const rate = (runs: string[][]): number[] => at.map((i) => (runs[i]!.length > 0 ? 1 : 0));
  console.log(`\n${s}: ${at.length} sentences`);
  console.log(`  this build: false memories ${pct(bootstrapMean(rate(mine)))}`);
  if (base) {
    console.log(`  baseline (${baselineDir}): false memories ${pct(bootstrapMean(rate(base)))}`);
    console.log(`  this build − baseline: ${pct(bootstrapDelta(rate(mine), rate(base)), true)}`);
  }
  if (!show) continue;
  for (const i of at) {
    const wrong = [...(base ? [`baseline ${base[i]!.join(' | ') || 'ok'}`] : []), `this build ${mine[i]!.join(' | ') || 'ok'}`];
    console.log(`  ${items[i]!.id} "${items[i]!.text}"\n    ${wrong.join('\n    ')}`);
  }
}
