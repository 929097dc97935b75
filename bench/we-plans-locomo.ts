/**
 * Plans said with "we" on real chat: every LoCoMo turn of a split goes through the embedded extractor
 * (no consolidation, no store), one turn at a time with its speaker and addressee, and the shared
 * plans it returns ("we'll…", "let's…") are collected. Dev = conversations 1–5, test = 6–10.
 *
 * - `--split dev` prints every accepted "we" plan (turn id, sentence-level fact); with `--labels FILE`
 *   (JSON lines `{dia_id, conv_id, content, concrete}` written by hand) it reports the precision of the
 *   accepted plans by those labels, with a 95 % bootstrap interval, and lists unlabelled ones.
 * - `--split test` prints only counts (held out), unless `--sample N` asks for N accepted plans drawn at
 *   random (seeded), to be labelled once after the rules are final.
 * - `--own` collects the speaker's own plans instead (plan facts not shared: "I'm going to…", "I need to…"),
 *   for the obligation and leave-taking rules; `--labels` stays for "we" plans.
 * - `--baseline DIR` (the dist/ folder of another build) runs that build's extractor over the same
 *   turns and reports its counts (and precision by the labels) alongside; with `--dropped` it lists
 *   the turns whose plan the baseline accepted and this build does not (on test: once, rules final).
 *
 *   node dist/bench/we-plans-locomo.js [--split dev|test] [--own] [--labels FILE] [--sample N [--seed S]] [--baseline DIR [--dropped]]
 */
import { readFileSync } from 'node:fs';
import { EmbeddedExtractor } from '../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../pipelines/memory/extractor.js';
import { bootstrapMean, pct } from './lib/bootstrap.js';
import { argNumber, argString } from './lib/cli.js';
import { loadLocomoTurns, type LocomoTurn } from './lib/locomo.js';
import { extractLocomo, loadExtractor, type ExtractorClass } from './lib/locomo-extract.js';
import { seededRandom } from './lib/seeded-random.js';

/** One accepted "we" plan: the turn it came from and the fact's text. */
interface Accepted { conv_id: string; dia_id: string; text: string; content: string }
/** A hand label of one accepted plan: does it name a concrete action (a time, place, event or object)? */
interface Label { conv_id: string; dia_id: string; content: string; concrete: boolean }

const split = argString('split', 'dev');
if (split !== 'dev' && split !== 'test') throw new Error('--split is dev (conversations 1–5) or test (6–10)');
const labelsFile = argString('labels', '');
if (labelsFile && split !== 'dev') throw new Error('--labels is for the dev split (the test split is held out)');
const sample = argNumber('sample', 0);
const baselineDir = argString('baseline', '');
const own = process.argv.includes('--own');
if (own && labelsFile) throw new Error('--labels are for "we" plans, not --own');

/** Whether a fact is a plan the addressees share (a "we" plan). */
const isShared = (f: ExtractedFact): boolean => f.kind === 'plan' && f.planObject?.shared === true;
/** Whether a fact is a plan of the speaker's own (not shared). */
const isOwn = (f: ExtractedFact): boolean => f.kind === 'plan' && f.planObject?.shared !== true;
const collected = own ? isOwn : isShared;
const what = own ? 'own' : '"we"';

/** Every turn of `convs` through one build's extractor; the shared (or, with `--own`, own) plans it returned. */
async function run(Extractor: ExtractorClass, convs: LocomoTurn[][]): Promise<Accepted[]> {
  return (await extractLocomo(Extractor, convs)).flatMap(({ turn: t, facts }) =>
    facts.filter(collected).map((f) => ({ conv_id: t.conv_id, dia_id: t.dia_id, text: t.text, content: f.content })));
}

const key = (a: { conv_id: string; dia_id: string; content: string }): string => `${a.conv_id}|${a.dia_id}|${a.content}`;

/**
 * The label of an accepted plan: by turn and content, else (a rewording such as "plan to plan" →
 * "plan") the turn's labels when they all agree; undefined when unlabelled.
 */
function labelOf(a: Accepted, labels: Map<string, Label>): boolean | undefined {
  const exact = labels.get(key(a));
  if (exact) return exact.concrete;
  const turn = [...labels.values()].filter((l) => l.conv_id === a.conv_id && l.dia_id === a.dia_id);
  return turn.length > 0 && turn.every((l) => l.concrete === turn[0]!.concrete) ? turn[0]!.concrete : undefined;
}

/** Precision of `accepted` by the hand labels (unlabelled ones are listed). */
function precision(name: string, accepted: Accepted[], labels: Map<string, Label>): void {
  const known = accepted.filter((a) => labelOf(a, labels) !== undefined);
  const unknown = accepted.filter((a) => labelOf(a, labels) === undefined);
  const ci = bootstrapMean(known.map((a) => (labelOf(a, labels) ? 1 : 0)));
  const concrete = known.filter((a) => labelOf(a, labels)).length;
  console.log(`${name}: precision by labels ${pct(ci)} (${concrete}/${known.length} concrete), ${unknown.length} unlabelled`);
  for (const a of unknown) console.log(`  unlabelled ${a.conv_id} ${a.dia_id}: ${a.content}  <- "${a.text}"`);
}

const byConv = loadLocomoTurns();
if (byConv) {
  const all = [...byConv.values()];
  const convs = split === 'dev' ? all.slice(0, 5) : all.slice(5, 10);
  const turns = convs.reduce((n, c) => n + c.length, 0);
  const mine = await run(EmbeddedExtractor, convs);
  const base = baselineDir ? await run(await loadExtractor(baselineDir), convs) : null;
  console.log(`LoCoMo ${split} split (conversations ${split === 'dev' ? '1–5' : '6–10'}, ${turns} turns): ${mine.length} ${what} plans${base ? `; baseline ${base.length}` : ''}`);
  if (split === 'dev') {
    if (!sample) for (const a of mine) console.log(`${a.conv_id} ${a.dia_id}: ${a.content}  <- "${a.text}"`);
    if (labelsFile) {
      const labels = new Map<string, Label>();
      for (const line of readFileSync(labelsFile, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const l = JSON.parse(line) as Label;
        if (typeof l.concrete !== 'boolean') throw new Error(`${labelsFile}: label without a boolean "concrete": ${line}`);
        labels.set(key(l), l);
      }
      precision('this build', mine, labels);
      if (base) precision('baseline', base, labels);
      // Concrete plans the labels know that this build no longer accepts (recall within the labelled set).
      const kept = new Set(mine.map((a) => `${a.conv_id}|${a.dia_id}`));
      const lost = [...labels.values()].filter((l) => l.concrete && !kept.has(`${l.conv_id}|${l.dia_id}`));
      console.log(`concrete labelled plans no longer accepted: ${lost.length}`);
      for (const l of lost) console.log(`  lost ${l.conv_id} ${l.dia_id}: ${l.content}`);
    }
  }
  if (base && process.argv.includes('--dropped')) {
    // Turns whose plan the baseline accepted and this build does not: to label once, after the rules are final.
    const kept = new Set(mine.map((a) => `${a.conv_id}|${a.dia_id}`));
    for (const a of base.filter((b) => !kept.has(`${b.conv_id}|${b.dia_id}`))) console.log(`dropped ${a.conv_id} ${a.dia_id}: ${a.content}  <- "${a.text}"`);
  }
  if (sample > 0) {
    const next = seededRandom(argNumber('seed', 1));
    const pool = [...mine];
    const drawn: Accepted[] = [];
    while (drawn.length < sample && pool.length > 0) drawn.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
    for (const a of drawn) console.log(`${a.conv_id} ${a.dia_id}: ${a.content}  <- "${a.text}"`);
  }
}
