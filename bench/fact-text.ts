/**
 * Fact text a person would not write (issue #16 item 2, text5): every turn of a set through the embedded extractor (with
 * its previous turns, where the line gives them) and the persona target of its words (`affectTarget`), this build and,
 * with `--baseline DIR` (another build's dist/), that build in the same process. A turn is defective when any of its
 * facts, or its persona target, has a defect of bench/lib/fact-defects.ts (a name said twice, a discourse tag at a
 * clause's edge, an opening bare pronoun, a greeting or generic noun as a target). Reports the share of defective turns
 * with its 95 % bootstrap interval, the paired difference (this build − baseline), each defect's count and the number of
 * facts (a build that drops facts to avoid defects shows it there). `--show` prints every turn's facts and defects.
 *
 * Sets: `bench/data/fact-text.jsonl` (default; 26 held-out turns, all `test`, written before any build ran on them) and
 * any precise-negatives set (`--file bench/data/precise-negatives[-N].jsonl`; one turn each, no previous turns).
 *
 * Adoption rule (text5, committed before any build ran on the held-out set): the changes stay if, on the held-out set
 * run once after the code is final, defective turns fall against main, and on every precise-negatives set (1–7, both
 * splits) no turn gains a defect, and the precise-negatives bench itself (false memories, missed memories, wrong
 * wording) gets no worse on any set; a regression is fixed or the change dropped, not tuned around.
 *
 *   npm run build && node dist/bench/fact-text.js [--file F] [--split dev|test|all] [--baseline DIR] [--show]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import { affectTarget } from '../pipelines/affect/attribution.js';
import type { Utterance } from '../graph/types.js';
import { argString } from './lib/cli.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';
import { loadExtractor, type ExtractorClass } from './lib/locomo-extract.js';
import { badTarget, factDefects, type Defect } from './lib/fact-defects.js';

/** One turn: its words, the speaker (`ana` or `tom`; default `ana`) and the turns said before it in the session. */
interface Line {
  id: number; text: string; split: 'dev' | 'test'; time: string; speaker?: string;
  previous?: { speaker: string; text: string }[];
}

/** One build's extractor and persona-target reader. */
interface Build { Extractor: ExtractorClass; target: (text: string) => string | null }

/** What one turn came to under one build. */
interface Scored { defects: Defect[]; facts: string[] }

const FILE = argString('file', path.join(repoRoot(), 'bench', 'data', 'fact-text.jsonl'));
const split = argString('split', 'all');
if (!['dev', 'test', 'all'].includes(split)) throw new Error('--split is dev, test or all');
const baselineDir = argString('baseline', '');
const show = process.argv.includes('--show');
const NAMES = { ana: 'Ana', tom: 'Tom' };

function utterance(id: string, speakerId: string, text: string, time: string, seq: number): Utterance {
  return { id, sessionId: 'fact-text', speakerId, addresseeIds: [speakerId === 'ana' ? 'tom' : 'ana'], text,
    startMs: null, endMs: null, time, confidence: null, audioRef: null, seq };
}

async function run(build: Build, lines: readonly Line[]): Promise<Scored[]> {
  const extractor = new build.Extractor();
  const out: Scored[] = [];
  for (const line of lines) {
    const previous = (line.previous ?? []).map((p, i) => utterance(`p${line.id}-${i}`, p.speaker, p.text, line.time, i + 1));
    const current = utterance(`c${line.id}`, line.speaker ?? 'ana', line.text, line.time, previous.length + 1);
    const { facts } = await extractor.extract({ current, previous, names: NAMES });
    const defects = facts.flatMap((f) => factDefects(f, line.text));
    const target = build.target(line.text);
    if (target !== null && badTarget(target, line.text)) defects.push('target');
    out.push({ defects, facts: [...facts.map((f) => `${f.slot ?? f.kind}: "${f.content}"`), `persona target: ${target}`] });
  }
  return out;
}

async function baseline(dir: string): Promise<Build> {
  const mod = (await import(pathToFileURL(path.resolve(dir, 'pipelines/affect/attribution.js')).href)) as { affectTarget: Build['target'] };
  return { Extractor: await loadExtractor(dir), target: mod.affectTarget };
}

const all = readFileSync(FILE, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Line);
const lines = all.filter((l) => split === 'all' || l.split === split);
const mine = await run({ Extractor: EmbeddedExtractor, target: affectTarget }, lines);
const base = baselineDir ? await run(await baseline(baselineDir), lines) : null;
const KINDS: Defect[] = ['name', 'tag', 'pronoun', 'target'];
for (const s of split === 'all' ? ['dev', 'test'] : [split]) {
  const at = lines.map((l, i) => [l, i] as const).filter(([l]) => l.split === s).map(([, i]) => i);
  if (at.length === 0) continue;
  const rate = (runs: Scored[]): number[] => at.map((i) => (runs[i]!.defects.length > 0 ? 1 : 0));
  const summary = (runs: Scored[]): string => {
    const kinds = KINDS.map((k) => `${k} ${at.filter((i) => runs[i]!.defects.includes(k)).length}`).join(', ');
    const facts = at.reduce((n, i) => n + runs[i]!.facts.length - 1, 0);
    return `defective turns ${rate(runs).reduce((a, b) => a + b, 0)}/${at.length} ${pct(bootstrapMean(rate(runs)))} (${kinds}); facts ${facts}`;
  };
  console.log(`\n${path.basename(FILE)} ${s}: ${at.length} turns`);
  console.log(`  this build: ${summary(mine)}`);
  if (base) {
    console.log(`  baseline (${baselineDir}): ${summary(base)}`);
    console.log(`  this build − baseline: ${pct(bootstrapDelta(rate(mine), rate(base)), true)}`);
    const gained = at.filter((i) => mine[i]!.defects.length > 0 && base[i]!.defects.length === 0).map((i) => lines[i]!.id);
    console.log(`  turns that gained a defect: ${gained.length > 0 ? gained.join(', ') : 'none'}`);
  }
  if (!show) continue;
  for (const i of at) {
    const said = (r: Scored): string => `[${r.defects.join(', ') || 'ok'}] ${r.facts.join('; ')}`;
    console.log(`  ${lines[i]!.id} "${lines[i]!.text}"\n    ${base ? `baseline ${said(base[i]!)}\n    ` : ''}this build ${said(mine[i]!)}`);
  }
}
