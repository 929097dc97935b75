/**
 * Two sets of speaker parameters (stats-lda-v2.json, -decision.json, -session.json) in the same runs on
 * held-out real voices: the production system (calibrated decision, calibrated end-of-session merge, stay
 * prior; turns under SHORT_TURN_MS through assignShort) of each, and their paired difference with a 95 %
 * bootstrap interval over the runs. Used to judge a refit of the parameters against the shipped ones.
 *
 *   npm run build --silent && node dist/bench/speaker-params.js --a DIR --b DIR   (PARLEY_SPEAKER_RUNS=10)
 *
 * Scenarios and seeds are bench/speaker-meeting.ts's (meeting generator seeds 101…, round-robin 1…),
 * speakers LIBRI_HELDOUT and SpeechBrain, conditions clean / phone band / far-field.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { bootstrapDelta } from './lib/bootstrap.js';
import { argString } from './lib/cli.js';
import { degrade, FAR_FIELD, PHONE_BAND } from './lib/far-field.js';
import { cutChunks, embedChunks, meetingSessions } from './lib/speaker-meeting.js';
import { scoreRuns, spread, type RunFigures } from './lib/speaker-meeting-runs.js';
import { arrangeSessions, shufflePerSpeaker } from './lib/speaker-scores.js';
import type { EvalUtterance, RunOptions } from './lib/speaker-sessions.js';
import { LIBRI_HELDOUT, loadLibriSpeech, loadSpeechBrain } from '../pipelines/speaker/eval-corpus.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import { validateDecision, type SpeakerDecisionParams } from '../pipelines/speaker/speaker-decision.js';
import { calibratedMerge, validateSessionRules, type SessionRules } from '../pipelines/speaker/session-rules.js';
import { SHORT_TURN_MS } from '../pipelines/speaker/speaker-thresholds.js';
import type { StatsLdaParams } from '../pipelines/speaker/stats-lda-params.js';
import { StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';

skipWithoutSharedSpeech('speaker-params');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);

/** One parameter set: its embedder and the production run options it implies. */
function load(dir: string): { embedder: StatsLdaSpeakerEmbedder; run: RunOptions } {
  const read = <T>(name: string): T => {
    const file = path.join(dir, name);
    if (!existsSync(file)) throw new Error(`speaker-params: ${file} is missing`);
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  };
  const params = read<StatsLdaParams>('stats-lda-v2.json');
  const t = params.thresholds;
  if (!t) throw new Error(`speaker-params: ${dir}/stats-lda-v2.json has no thresholds (run scripts/calibrate-speaker.ts)`);
  const decision = read<SpeakerDecisionParams>('stats-lda-v2-decision.json');
  validateDecision(decision);
  const rules = read<SessionRules>('stats-lda-v2-session.json');
  validateSessionRules(rules);
  const run: RunOptions = { thresholds: t, mergeTau: t.mergeTau, shortSeconds: SHORT_TURN_MS / 1000, decision, mergeCalibrated: calibratedMerge(rules.merge), stay: rules.stay };
  return { embedder: new StatsLdaSpeakerEmbedder(params), run };
}

const dirs = { a: argString('a', ''), b: argString('b', '') };
if (!dirs.a || !dirs.b) {
  console.error('usage: node dist/bench/speaker-params.js --a DIR --b DIR (each with stats-lda-v2.json, -decision.json, -session.json)');
  process.exit(2);
}
const sets = [load(dirs.a), load(dirs.b)];
console.log(`A: ${dirs.a}\nB: ${dirs.b}`);
const real = [...loadLibriSpeech(LIBRI_HELDOUT), ...loadSpeechBrain()];
const conditions = { clean: null, 'phone band': PHONE_BAND, 'far-field': FAR_FIELD } as const;
const header = ['condition', 'scenario', 'system', 'utt acc', 'time acc', 'within utt', 'within time', 'ids:spk'];
const rows: string[][] = [header];
const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
for (const [cond, d] of Object.entries(conditions)) {
  // The same degraded audio as bench/speaker-meeting.ts (seed = index + 1).
  const us = real.map((u, i) => ({ ...u, audio: d ? degrade(u.audio, i + 1, d) : u.audio }));
  const byScenario = new Map<string, RunFigures[][]>();
  for (const { embedder, run } of sets) {
    const chunks = await embedChunks(embedder, cutChunks(us));
    const whole: EvalUtterance[] = us.map((u) => ({ speaker: u.speaker, vector: embedder.embedSync(u.audio), seconds: u.audio.length / 16_000 }));
    const scenarios: [string, EvalUtterance[][][]][] = [
      ['meeting', seeds.map((s) => meetingSessions(chunks, 100 + s))],
      ['round-robin', seeds.map((s) => arrangeSessions(shufflePerSpeaker(whole, s), 4))],
    ];
    for (const [scen, runs] of scenarios) byScenario.set(scen, [...(byScenario.get(scen) ?? []), await scoreRuns(runs, embedder.modelId, run)]);
  }
  for (const [scen, [fa, fb]] of byScenario) {
    for (const [name, f] of [['A', fa!], ['B', fb!]] as const)
      rows.push([cond, scen, name, spread(f.map((x) => x.utterance)), spread(f.map((x) => x.time)), spread(f.map((x) => x.withinUtterance)),
        spread(f.map((x) => x.withinTime)), `${spread(f.map((x) => x.ids), false)}:${f[0]!.speakers}`]);
    const delta = (g: (x: RunFigures) => number): string => ci(bootstrapDelta(fb!.map(g), fa!.map(g)));
    rows.push([cond, scen, 'Δ B − A', delta((x) => x.utterance), delta((x) => x.time), delta((x) => x.withinUtterance), delta((x) => x.withinTime), '']);
  }
}
const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((x, c) => x.padEnd(widths[c]!)).join('  '));
console.log(`${RUNS} seeded runs per row; mean [min–max] over runs; Δ: mean [95 % bootstrap interval over runs], points. utt/time acc: across sessions; within: per session.`);

function ci(x: { mean: number; lo: number; hi: number }): string {
  const p = (v: number): string => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}`;
  return `${p(x.mean)} [${p(x.lo)}, ${p(x.hi)}]`;
}
