/**
 * Speaker attribution in meetings where one voice dominates (issue #17 item 2), on held-out real voices:
 * the calibrated open-set decision (pipelines/speaker/speaker-decision.ts) with the calibrated end-of-session
 * merge and the per-session stay prior (pipelines/speaker/session-rules.ts), each alone, the decision as
 * shipped before them (cosine merge, fixed stay prior), the cosine-threshold tracker and one id per
 * session, in the same runs. Paired differences carry a 95 % bootstrap interval over the runs.
 *
 *   npm run bench:speaker-meeting            (PARLEY_SPEAKER_RUNS=10 seeded orders by default)
 *
 * Speakers: LIBRI_HELDOUT (4) and SpeechBrain (2); the embedder, its thresholds and the decision were
 * fitted and chosen on the training speakers only (scripts/calibrate-speaker-decision.ts). Conditions:
 * clean, phone band, far-field (bench/lib/far-field.ts). Scenarios: the meeting generator
 * (bench/lib/speaker-meeting.ts: 3–5 speakers, one holding ~75 % of the turns, a third of the turns cut
 * into 0.75 s fragments) and the round-robin sessions of bench/speaker-eval.ts (4 whole utterances per
 * speaker per session). Prototypes persist across a run's sessions (real SQLite); turns under
 * SHORT_TURN_MS go through assignShort and every session ends with the end-of-session merge, as in production.
 */
import { degrade, FAR_FIELD, PHONE_BAND } from './lib/far-field.js';
import { cutChunks, embedChunks, MEETING, meetingSessions } from './lib/speaker-meeting.js';
import { scoreRuns, spread, type RunFigures } from './lib/speaker-meeting-runs.js';
import { arrangeSessions, shufflePerSpeaker } from './lib/speaker-scores.js';
import type { EvalUtterance, RunOptions } from './lib/speaker-sessions.js';
import { requireDataOrSkip } from './lib/cli.js';
import { hasSharedSpeech, LIBRI_HELDOUT, loadLibriSpeech, loadSpeechBrain } from '../pipelines/speaker/eval-corpus.js';
import { decisionFor } from '../pipelines/speaker/speaker-decision.js';
import { calibratedMerge, sessionRulesFor } from '../pipelines/speaker/session-rules.js';
import { bootstrapDelta } from './lib/bootstrap.js';
import { SHORT_TURN_MS, thresholdsFor } from '../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';

if (!hasSharedSpeech()) {
  requireDataOrSkip('the shared speech data (../shared/data/speech)');
  console.log('speaker-meeting: skipped, ../shared/data/speech is absent (set PARLEY_SHARED_DATA)');
  process.exit(0);
}
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
const lda = new StatsLdaSpeakerEmbedder();
const t = thresholdsFor(lda.modelId);
const decision = decisionFor(lda.modelId);
if (!decision) throw new Error('no calibrated decision for stats-lda-v2: run scripts/calibrate-speaker-decision.ts');
const rules = sessionRulesFor(lda.modelId);
if (!rules) throw new Error('no session rules for stats-lda-v2: run scripts/calibrate-speaker-session.ts');
const mergeCalibrated = calibratedMerge(rules.merge);
const base: RunOptions = { thresholds: t, mergeTau: t.mergeTau, shortSeconds: SHORT_TURN_MS / 1000 };
const systems: [string, RunOptions | null][] = [
  ['decision + calibrated merge + online stay prior', { ...base, decision, mergeCalibrated, stay: rules.stay }],
  ['decision + calibrated merge', { ...base, decision, mergeCalibrated }],
  ['decision + online stay prior (cosine merge)', { ...base, decision, stay: rules.stay }],
  ['main: decision, cosine merge, fixed stay prior', { ...base, decision }],
  ['cosine-threshold tracker', base],
  ['baseline: one id per session', null],
];
const MAIN = 3;
const ONE_ID = 5;
const real = [...loadLibriSpeech(LIBRI_HELDOUT), ...loadSpeechBrain()];
const conditions = { clean: null, 'phone band': PHONE_BAND, 'far-field': FAR_FIELD } as const;
console.log(`decision: ${JSON.stringify({ ...decision, chosenOn: undefined })}`);
console.log(`session rules: ${JSON.stringify({ ...rules, chosenOn: undefined })}; merge threshold ${mergeCalibrated.threshold} nats`);
console.log(`meeting spec: ${JSON.stringify(MEETING)}`);
const header = ['condition', 'scenario', 'system', 'utt acc', 'time acc', 'within utt', 'within time', 'ids:spk', 'merges (wrong)'];
const rows: string[][] = [header];
for (const [cond, d] of Object.entries(conditions)) {
  // The same degraded audio as bench/speaker-eval.ts (seed = index + 1).
  const us = real.map((u, i) => ({ ...u, audio: d ? degrade(u.audio, i + 1, d) : u.audio }));
  const chunks = await embedChunks(lda, cutChunks(us));
  const whole: EvalUtterance[] = us.map((u) => ({ speaker: u.speaker, vector: lda.embedSync(u.audio), seconds: u.audio.length / 16_000 }));
  const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
  const scenarios: [string, EvalUtterance[][][]][] = [
    ['meeting', seeds.map((s) => meetingSessions(chunks, 100 + s))],
    ['round-robin', seeds.map((s) => arrangeSessions(shufflePerSpeaker(whole, s), 4))],
  ];
  for (const [scen, runs] of scenarios) {
    const turns = runs.reduce((n, r) => n + r.reduce((m, s) => m + s.length, 0), 0) / runs.length;
    const all: RunFigures[][] = [];
    for (const [name, run] of systems) {
      const f: RunFigures[] = await scoreRuns(runs, lda.modelId, run);
      all.push(f);
      rows.push([cond, `${scen} (${turns.toFixed(0)} turns/run)`, name, spread(f.map((x) => x.utterance)), spread(f.map((x) => x.time)),
        spread(f.map((x) => x.withinUtterance)), spread(f.map((x) => x.withinTime)), `${spread(f.map((x) => x.ids), false)}:${f[0]!.speakers}`, mergeCount(f)]);
    }
    // Paired over the same runs (95 % bootstrap over runs): each new rule minus main, and minus one id per session.
    const deltas: [number, number, string][] = [[0, MAIN, 'Δ merge+stay − main'], [1, MAIN, 'Δ merge − main'], [2, MAIN, 'Δ stay − main'], [0, ONE_ID, 'Δ merge+stay − one id']];
    for (const [a, b, label] of deltas) {
      const d = (g: (x: RunFigures) => number): string => ci(bootstrapDelta(all[a]!.map(g), all[b]!.map(g)));
      rows.push([cond, scen, label, d((x) => x.utterance), d((x) => x.time), d((x) => x.withinUtterance), d((x) => x.withinTime), '', '']);
    }
  }
}
const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((x, c) => x.padEnd(widths[c]!)).join('  '));
console.log(`${RUNS} seeded runs per row; mean [min–max] over runs; Δ rows: mean [95 % bootstrap interval over runs], points. utt/time acc: across sessions (ids must persist); within: per session.`);
console.log('merges (wrong): end-of-session merges fired over all runs, and how many joined ids of different speakers (by majority).');

function mergeCount(f: readonly RunFigures[]): string {
  const fired = f.reduce((n, x) => n + x.merges.correctMerges + x.merges.wrongMerges, 0);
  return `${fired} (${f.reduce((n, x) => n + x.merges.wrongMerges, 0)})`;
}

function ci(x: { mean: number; lo: number; hi: number }): string {
  const p = (v: number): string => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}`;
  return `${p(x.mean)} [${p(x.lo)}, ${p(x.hi)}]`;
}
