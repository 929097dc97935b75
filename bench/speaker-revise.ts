/**
 * The first turn of a new voice (issue #17 item 2): the first-turn revision (pipelines/speaker/first-turn-revision.ts,
 * tracker option `revise`) against the tracker without it ("off": the calibrated decision, cosine merge, fixed
 * stay prior, as bench/speaker-meeting.ts's "main" rows), in the same runs.
 *
 *   npm run bench:speaker-revise -- [--windows 16 --margins -1 --contiguous 0,1 --window-seconds none,3
 *     --min-stay none,0.3 --cache FILE]          (choice: TRAINING speakers, out of fold, seeds 1–10)
 *   npm run bench:speaker-revise -- --heldout --window 16 --margin -1 [--contiguous 1 ...]   (held-out, once)
 *
 * Training: the LibriSpeech training speakers, each embedded by the fold embedder that never saw it
 * (bench/lib/speaker-training.ts), clean / phone / far-field, meeting and round-robin sessions. Objective: the
 * mean Δ across-session utterance accuracy over those six, pooled over their runs, with a 95 % paired bootstrap.
 * Held-out: LIBRI_HELDOUT and SpeechBrain speakers, stats-lda-v2 as shipped, bench/speaker-meeting.ts's audio and
 * seeds, with one id per session beside it. Moved turns: "right" when the founding turn's speaker spoke them.
 */
import { argNumber, argString } from './lib/cli.js';
import { bootstrapDelta } from './lib/bootstrap.js';
import { scoreRuns, type RunFigures } from './lib/speaker-meeting-runs.js';
import { sessionScenarios } from './lib/speaker-revise-data.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import type { FirstTurnRevision } from '../pipelines/speaker/first-turn-revision.js';

skipWithoutSharedSpeech('speaker-revise');
const heldOut = process.argv.includes('--heldout');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
const list = (name: string, fallback: string): (number | null)[] => argString(name, fallback).split(',').map((x) => (x === 'none' ? null : Number(x)));

const { modelId, off, scen } = await sessionScenarios(heldOut, seeds, argString('cache', '') || null);

const variants: FirstTurnRevision[] = [];
const flag = (name: string, fallback: string): boolean[] => argString(name, fallback).split(',').map((x) => x === '1');
for (const window of heldOut ? [argNumber('window', 16)] : list('windows', '16'))
  for (const margin of heldOut ? [argNumber('margin', -1)] : list('margins', '-1'))
    for (const contiguous of flag('contiguous', '0'))
      for (const windowSeconds of list('window-seconds', 'none'))
        for (const minStayRate of list('min-stay', 'none')) variants.push({ window: window!, margin: margin!, contiguous, windowSeconds, minStayRate });

const offFigures: RunFigures[][] = [];
for (const s of scen) offFigures.push(await scoreRuns(s.runs, modelId, off));
const pooled = (f: RunFigures[][], g: (x: RunFigures) => number): number[] => f.flatMap((runs) => runs.map(g));
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const p = (v: number): string => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}`;
const ci = (x: { mean: number; lo: number; hi: number }): string => `${p(x.mean)} [${p(x.lo)}, ${p(x.hi)}]`;
console.log(`${heldOut ? 'HELD-OUT' : 'training (out of fold)'}; ${RUNS} seeded runs per scenario; scenarios: ${scen.map((s) => s.name).join(', ')}`);
console.log(`off: utt ${scen.map((s, k) => `${s.name} ${(100 * mean(offFigures[k]!.map((x) => x.utterance))).toFixed(1)} / ${(100 * mean(offFigures[k]!.map((x) => x.withinUtterance))).toFixed(1)}`).join('; ')}`);
if (heldOut) {
  const one: RunFigures[][] = [];
  for (const s of scen) one.push(await scoreRuns(s.runs, modelId, null));
  console.log(`one id per session: utt ${scen.map((s, k) => `${s.name} ${(100 * mean(one[k]!.map((x) => x.utterance))).toFixed(1)} / ${(100 * mean(one[k]!.map((x) => x.withinUtterance))).toFixed(1)}`).join('; ')}`);
}
const results: { v: FirstTurnRevision; objective: number }[] = [];
for (const v of variants) {
  const on: RunFigures[][] = [];
  for (const s of scen) on.push(await scoreRuns(s.runs, modelId, { ...off, revise: v }));
  const objective = mean(scen.map((_, k) => mean(on[k]!.map((x) => x.utterance)) - mean(offFigures[k]!.map((x) => x.utterance))));
  results.push({ v, objective });
  console.log(`\n${JSON.stringify(v)}: objective (mean Δ utt over scenarios) ${p(objective)}; pooled Δ utt ${ci(bootstrapDelta(pooled(on, (x) => x.utterance), pooled(offFigures, (x) => x.utterance)))}, Δ within utt ${ci(bootstrapDelta(pooled(on, (x) => x.withinUtterance), pooled(offFigures, (x) => x.withinUtterance)))}`);
  for (const [k, s] of scen.entries()) {
    const d = (g: (x: RunFigures) => number): string => ci(bootstrapDelta(on[k]!.map(g), offFigures[k]!.map(g)));
    const moved = on[k]!.reduce((n, x) => n + x.revisions.moved, 0);
    const right = on[k]!.reduce((n, x) => n + x.revisions.right, 0);
    const ids = (f: RunFigures[]): string => mean(f.map((x) => x.ids)).toFixed(1);
    console.log(`  ${s.name.padEnd(22)} on utt ${(100 * mean(on[k]!.map((x) => x.utterance))).toFixed(1)} / within ${(100 * mean(on[k]!.map((x) => x.withinUtterance))).toFixed(1)}, ids ${ids(offFigures[k]!)} → ${ids(on[k]!)}:${on[k]![0]!.speakers}; Δ utt ${d((x) => x.utterance)}; Δ within utt ${d((x) => x.withinUtterance)}; Δ within time ${d((x) => x.withinTime)}; moved ${moved} (${right} right)`);
  }
}
results.sort((a, b) => b.objective - a.objective);
console.log('\nby objective:');
for (const r of results) console.log(`  ${p(r.objective)}  ${JSON.stringify(r.v)}`);
