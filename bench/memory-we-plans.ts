/**
 * Plans said with "we": bench/data/we-plans.jsonl (48 lines written for this bench before any rule:
 * 32 plans said with "we'll", "we're going to", "we plan to", "we should", "let's", "shall we", "we
 * want to"…, 16 that are not plans: habits, past events, questions without agreement, a generic "we").
 * Lena says each line to Ben (or to Ben and Cy) in a tenant of its own, through the real consolidation
 * handler (embedded extractor, USE-lite, SQLite). Reported:
 * - plan detection: a line counts as detected when one of its stored facts is a plan or commitment;
 *   precision, recall and accuracy over all lines;
 * - who: of the plans, the share whose plan fact names everyone it is for ("Lena and Ben");
 * - closure: a line with `then` is followed a month later, in another session, by an outcome or a
 *   cancellation said by Lena (`self`) or by Ben (`other`, to Lena); right when the line's facts (of any
 *   kind) are closed as expected (superseded = UPDATE, closed = DELETE).
 * The whole file is held out. `--baseline DIR` (the dist/ folder of another build) runs every line
 * through that build too, in the same process, and reports the paired differences (95 % bootstrap).
 *
 *   npm run bench:memory-we-plans [-- --baseline DIR] [--show]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UseLiteEmbedder } from '../pipelines/embeddings/use-lite-embedder.js';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { consolidationRig, loadBuild, thisBuild, type MemoryBuild } from './lib/memory-build.js';
import { bootstrapDelta, bootstrapMean, pct } from './lib/bootstrap.js';

interface Line {
  id: number;
  /** Who Lena speaks to: "Ben", or "Ben" and "Cy". */
  to: string[];
  text: string;
  plan: boolean;
  /** Everyone the plan is for, as the fact must name them. */
  for?: string[];
  then?: { by: 'self' | 'other'; text: string; expect: 'UPDATE' | 'DELETE' };
}
interface Result { line: Line; detected: boolean; named: boolean; closed: 'UPDATE' | 'DELETE' | null; contents: string[] }

const PLAN_KINDS = new Set(['plan', 'commitment']);

/** Every line through one build's consolidation, each in a tenant of its own. */
async function runLines(build: MemoryBuild, embedder: UseLiteEmbedder, lines: Line[]): Promise<Result[]> {
  const { db, graph, memory, handler } = consolidationRig(build, embedder);
  const results: Result[] = [];
  for (const line of lines) {
    const tenant = `w${line.id}`;
    const ids: Record<string, string> = {};
    for (const name of ['Lena', 'Ben', 'Cy']) ids[name] = (await graph.createParticipant(tenant, { name })).id;
    const say = async (session: string, time: string, speaker: string, to: string[], text: string): Promise<string> => {
      await graph.openSession(tenant, session, time);
      const [u] = await graph.addUtterances(tenant, [{ sessionId: session, speakerId: ids[speaker]!, addresseeIds: to.map((n) => ids[n]!),
        text, startMs: null, endMs: null, time, confidence: null, audioRef: null }]);
      await handler({ id: `${tenant}-${u!.id}`, name: 'memory.consolidate', attempt: 1, data: { tenant, sessionId: session, utteranceId: u!.id } },
        new AbortController().signal);
      return u!.id;
    };
    const said = await say('s1', '2026-10-01T10:00:00.000Z', 'Lena', line.to, line.text);
    const factsOf = async () => memory.listFacts(tenant, { ids: (await memory.processedFacts(tenant, said)) ?? [], includeHistory: true });
    const plans = (await factsOf()).filter((f) => PLAN_KINDS.has(f.kind));
    const everyone = line.for ?? [];
    const named = plans.some((f) => everyone.every((n) => new RegExp(`\\b${n}\\b`).test(f.content)));
    let closed: Result['closed'] = null;
    if (line.then) {
      const [speaker, to] = line.then.by === 'self' ? ['Lena', line.to] : ['Ben', ['Lena', ...line.to.filter((n) => n !== 'Ben')]];
      await say('s2', '2026-11-01T10:00:00.000Z', speaker, to, line.then.text);
      // Whatever the line was stored as (a plan, or a plain statement read as an intention) counts as closed.
      const after = await factsOf();
      closed = after.some((f) => f.validTo !== null && f.supersededBy !== null) ? 'UPDATE' : after.some((f) => f.validTo !== null) ? 'DELETE' : null;
    }
    results.push({ line, detected: plans.length > 0, named, closed, contents: plans.map((f) => f.content) });
  }
  db.close();
  return results;
}

const detectionRight = (r: Result): number => (r.detected === r.line.plan ? 1 : 0);
const namedRight = (r: Result): number => (r.named ? 1 : 0);
const closureRight = (r: Result): number => (r.closed === r.line.then?.expect ? 1 : 0);

function report(label: string, rs: Result[], show: boolean): void {
  const positives = rs.filter((r) => r.line.plan);
  const predicted = rs.filter((r) => r.detected);
  const closures = rs.filter((r) => r.line.then);
  const tp = predicted.filter((r) => r.line.plan);
  console.log(`\n${label}: ${rs.length} lines (${positives.length} plans)`);
  console.log(`  plan recall    ${pct(bootstrapMean(positives.map((r) => (r.detected ? 1 : 0))))} (${tp.length}/${positives.length})`);
  console.log(`  plan precision ${predicted.length ? `${pct(bootstrapMean(predicted.map((r) => (r.line.plan ? 1 : 0))))} (${tp.length}/${predicted.length})` : 'n/a (nothing detected)'}`);
  console.log(`  accuracy       ${pct(bootstrapMean(rs.map(detectionRight)))}`);
  console.log(`  names everyone ${pct(bootstrapMean(positives.map(namedRight)))} of plans`);
  console.log(`  closed right   ${pct(bootstrapMean(closures.map(closureRight)))} (${closures.filter((r) => closureRight(r)).length}/${closures.length})`);
  if (!show) return;
  for (const r of rs) {
    const wrong = !detectionRight(r) || (r.line.plan && !r.named) || (r.line.then && !closureRight(r));
    if (wrong) console.log(`  miss ${r.line.id}: plan ${r.line.plan} detected ${r.detected} named ${r.named} closed ${r.closed ?? '-'} (expect ${r.line.then?.expect ?? '-'}) — ${JSON.stringify(r.contents)}`);
  }
}

function paired(mine: Result[], base: Result[]): void {
  const rows: Array<[string, (r: Result) => number, (r: Result) => boolean]> = [
    ['detection accuracy', detectionRight, () => true],
    ['plan recall', (r) => (r.detected ? 1 : 0), (r) => r.line.plan],
    ['names everyone', namedRight, (r) => r.line.plan],
    ['closed right', closureRight, (r) => r.line.then !== undefined],
  ];
  console.log('\nthis build − baseline, same lines (95 % paired bootstrap):');
  for (const [name, score, keep] of rows) {
    const a = mine.filter((r) => keep(r));
    const b = base.filter((r) => keep(r));
    console.log(`  ${name}: ${pct(bootstrapDelta(a.map(score), b.map(score)), true)} (${a.length} lines)`);
  }
}

async function main(): Promise<void> {
  const arg = (name: string): string | undefined => (process.argv.includes(`--${name}`) ? process.argv[process.argv.indexOf(`--${name}`) + 1] : undefined);
  const file = arg('file') ?? path.join(repoRoot(), 'bench', 'data', 'we-plans.jsonl');
  const baseline = arg('baseline');
  const show = process.argv.includes('--show');
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Line);
  for (const l of lines) {
    if (typeof l.text !== 'string' || typeof l.plan !== 'boolean' || !Array.isArray(l.to) || l.to.length === 0) {
      throw new Error(`${file}: line ${l.id} needs text, plan (true / false) and to (a list of names)`);
    }
    if (l.plan && !l.for?.length) throw new Error(`${file}: plan line ${l.id} needs for (the names it is for)`);
  }
  const embedder = new UseLiteEmbedder();
  const mine = await runLines(thisBuild, embedder, lines);
  if (baseline) {
    const base = await runLines(await loadBuild(baseline), embedder, lines);
    report(`baseline (${baseline})`, base, show);
    report('this build', mine, show);
    paired(mine, base);
  } else {
    report('this build', mine, show);
  }
  await embedder.close();
}

await main();
