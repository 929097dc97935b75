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
 *
 * `--embedder moonshine-l1`: instead, that embedder (with its own calibrated thresholds and decision) beside
 * stats-lda-v2 as shipped (main), their cosine-threshold trackers and one id per session, on the same runs (both
 * embed every piece; one either refuses is dropped for both: bench/lib/speaker-meeting-embedders.ts), with the
 * paired differences, each embedder's CPU ms per second of audio embedded and the RSS the other embedder adds.
 * Several, comma-separated (`--embedder moonshine-l1,moonshine-l1-v1`: the shipped projection and the previous
 * one), each beside stats-lda-v2 and the first against each later one.
 *
 * `--server-default`: instead, the tracker and end-of-session passes as the server runs them with this environment's
 * speaker settings (none set: the shipped default; bench/lib/speaker-server-default.ts), the decision with EMA
 * prototypes and the cosine merge (the 2026-12-03 default) and one id per session, with both paired differences.
 */
import { degrade, FAR_FIELD, PHONE_BAND } from './lib/far-field.js';
import { cutChunks, embedChunks, MEETING, meetingSessions } from './lib/speaker-meeting.js';
import { scoreRuns, spread, type RunFigures } from './lib/speaker-meeting-runs.js';
import { arrangeSessions, shufflePerSpeaker } from './lib/speaker-scores.js';
import type { EvalUtterance, RunOptions } from './lib/speaker-sessions.js';
import { LIBRI_HELDOUT, loadLibriSpeech, loadSpeechBrain } from '../pipelines/speaker/eval-corpus.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import { decisionFor } from '../pipelines/speaker/speaker-decision.js';
import { calibratedMerge, sessionRulesFor } from '../pipelines/speaker/session-rules.js';
import { bootstrapDelta } from './lib/bootstrap.js';
import { SHORT_TURN_MS, thresholdsFor } from '../pipelines/speaker/speaker-thresholds.js';
import { StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';
import type { SpeakerEmbedder } from '../pipelines/speaker/speaker-embedder.js';
import { argString } from './lib/cli.js';
import { jointEmbedders, loadBenchSpeakerEmbedder, type BenchEmbedder } from './lib/speaker-meeting-embedders.js';
import { serverRunOptions, speakerSettingsOf } from './lib/speaker-server-default.js';

skipWithoutSharedSpeech('speaker-meeting');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
const lda = new StatsLdaSpeakerEmbedder();
const t = thresholdsFor(lda.modelId);
const decision = decisionFor(lda.modelId);
if (!decision) throw new Error('no calibrated decision for stats-lda-v2: run scripts/calibrate-speaker-decision.ts');
const rules = sessionRulesFor(lda.modelId);
if (!rules) throw new Error('no session rules for stats-lda-v2: run scripts/calibrate-speaker-session.ts');
const mergeCalibrated = calibratedMerge(rules.merge);
const base: RunOptions = { thresholds: t, mergeTau: t.mergeTau, shortSeconds: SHORT_TURN_MS / 1000 };
const OTHER = argString('embedder', '').split(',').filter((x) => x !== '');
const rssMb = (): number => process.memoryUsage().rss / 2 ** 20;
const rssBefore = rssMb();
const others: BenchEmbedder[] = [];
for (const name of OTHER) others.push(await loadBenchSpeakerEmbedder(name));
const rssLoaded = rssMb();
let rssPeak = rssLoaded;
const joint = others.length > 0 ? jointEmbedders([lda, ...others.map((o) => o.embedder)]) : null;
/** The embedders whose vectors the systems use (index 0: stats-lda-v2), each as the runs see it. */
const embedders: SpeakerEmbedder[] = joint ? joint.views : [lda];
const serverDefault = process.argv.includes('--server-default');
if (serverDefault && others.length > 0) throw new Error('--server-default and --embedder cannot be combined');
/** Each system: its name, its tracker options (null: one id per session) and the embedder it runs on. */
const systems: [string, RunOptions | null, number][] = serverDefault ? serverSystems() : others.length > 0 ? otherSystems(others) : [
  ['decision + calibrated merge + online stay prior', { ...base, decision, mergeCalibrated, stay: rules.stay }, 0],
  ['decision + calibrated merge', { ...base, decision, mergeCalibrated }, 0],
  ['decision + online stay prior (cosine merge)', { ...base, decision, stay: rules.stay }, 0],
  ['main: decision, cosine merge, fixed stay prior', { ...base, decision }, 0],
  ['cosine-threshold tracker', base, 0],
  ['baseline: one id per session', null, 0],
];
const MAIN = 3;
const ONE_ID = 5;
/** Paired rows: [system a, system b, label]. */
const deltas: [number, number, string][] = serverDefault ? [[0, 2, 'Δ server default − one id'], [0, 1, 'Δ server default − EMA']] : others.length > 0 ? otherDeltas(others.map((o) => o.embedder.modelId)) : [[0, MAIN, 'Δ merge+stay − main'], [1, MAIN, 'Δ merge − main'], [2, MAIN, 'Δ stay − main'], [0, ONE_ID, 'Δ merge+stay − one id']];
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
  const seeds = Array.from({ length: RUNS }, (_, i) => i + 1);
  // Per embedder: the runs of each scenario, from its vectors of the same pieces.
  const byEmbedder: [string, EvalUtterance[][][]][][] = [];
  for (const e of embedders) {
    const chunks = await embedChunks(e, cutChunks(us));
    const whole: EvalUtterance[] = [];
    for (const u of us) {
      const vector = await e.embed(u.audio).catch(() => null);
      if (vector) whole.push({ speaker: u.speaker, vector, seconds: u.audio.length / 16_000 });
    }
    byEmbedder.push([
      ['meeting', seeds.map((s) => meetingSessions(chunks, 100 + s))],
      ['round-robin', seeds.map((s) => arrangeSessions(shufflePerSpeaker(whole, s), 4))],
    ]);
    rssPeak = Math.max(rssPeak, rssMb());
  }
  for (const [k, scenarios] of byEmbedder.entries()) if (!sameTurns(scenarios, byEmbedder[0]!)) throw new Error(`embedder ${k}'s sessions differ from stats-lda-v2's`);
  for (const [scen, runs] of byEmbedder[0]!) {
    const turns = runs.reduce((n, r) => n + r.reduce((m, s) => m + s.length, 0), 0) / runs.length;
    const all: RunFigures[][] = [];
    for (const [name, run, k] of systems) {
      const runsOfK = byEmbedder[k]!.find(([x]) => x === scen)![1];
      const f: RunFigures[] = await scoreRuns(runsOfK, embedders[k]!.modelId, run);
      all.push(f);
      rows.push([cond, `${scen} (${turns.toFixed(0)} turns/run)`, name, spread(f.map((x) => x.utterance)), spread(f.map((x) => x.time)),
        spread(f.map((x) => x.withinUtterance)), spread(f.map((x) => x.withinTime)), `${spread(f.map((x) => x.ids), false)}:${f[0]!.speakers}`, mergeCount(f)]);
    }
    // Paired over the same runs (95 % bootstrap over runs).
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
if (joint) {
  joint.costs.forEach((c, k) => console.log(`CPU ${embedders[k]!.modelId}: ${(c.ms / c.seconds).toFixed(1)} ms per s of audio embedded (${c.seconds.toFixed(0)} s, one process, wall time of embed)`));
  console.log(`RSS: ${rssBefore.toFixed(0)} MB before loading ${OTHER.join(', ')}, ${rssLoaded.toFixed(0)} MB after (+${(rssLoaded - rssBefore).toFixed(0)}), ${rssPeak.toFixed(0)} MB peak while embedding`);
  for (const o of others) await o.embedder.close?.();
}

/**
 * The systems of `--server-default`: the tracker and session passes as the server runs them with this environment's
 * speaker settings (bench/lib/speaker-server-default.ts; with no `PARLEY_SPEAKER_*` set, what ships), the decision with
 * EMA prototypes and the cosine merge (the 2026-12-03 "main", the last system whose absolute speech time was printed)
 * and one id per session.
 */
function serverSystems(): [string, RunOptions | null, number][] {
  const settings = speakerSettingsOf(process.env);
  if (settings.speakerEmbedder !== 'stats-lda') throw new Error(`--server-default runs stats-lda-v2; PARLEY_SPEAKER_EMBEDDER is ${settings.speakerEmbedder}`);
  const run = serverRunOptions(settings, lda.modelId);
  console.log(`server default: ${JSON.stringify({ ...run, decision: run.decision ? 'calibrated' : null, mergeCalibrated: run.mergeCalibrated ? run.mergeCalibrated.threshold : null })}`);
  return [
    ['server default', run, 0],
    ['EMA: decision, cosine merge, fixed stay prior (2026-12-03 main)', { ...base, decision: decision! }, 0],
    ['baseline: one id per session', null, 0],
  ];
}

/**
 * The systems of `--embedder`: stats-lda-v2 as shipped (0), each other embedder k with its own calibration
 * (1 + 2k) and its cosine-threshold tracker (2 + 2k), stats-lda-v2's tracker, one id per session (last).
 */
function otherSystems(list: readonly BenchEmbedder[]): [string, RunOptions | null, number][] {
  return [
    ['stats-lda-v2 main: decision, cosine merge, fixed stay prior (production default)', { ...base, decision: decision! }, 0],
    ...list.flatMap(({ embedder: e, thresholds: ot, decision: od }, k): [string, RunOptions | null, number][] => {
      const ob: RunOptions = { thresholds: ot, mergeTau: ot.mergeTau, shortSeconds: SHORT_TURN_MS / 1000 };
      return [
        [`${e.modelId}: ${od ? 'its decision, cosine merge, fixed stay prior' : 'no calibrated decision: its thresholds'}`, od ? { ...ob, decision: od } : ob, k + 1],
        [`${e.modelId}: cosine-threshold tracker`, ob, k + 1],
      ];
    }),
    ['stats-lda-v2: cosine-threshold tracker', base, 0],
    ['baseline: one id per session', null, 0],
  ];
}

/** Paired rows of `otherSystems`: each other − stats-lda-v2 (main and trackers), each − one id, and the first other − each later one. */
function otherDeltas(ids: readonly string[]): [number, number, string][] {
  const statsTracker = 1 + 2 * ids.length;
  const oneId = statsTracker + 1;
  return [
    ...ids.flatMap((id, k): [number, number, string][] => [[1 + 2 * k, 0, `Δ ${id} − stats-lda-v2 (main)`], [2 + 2 * k, statsTracker, `Δ trackers: ${id} − stats`]]),
    ...ids.map((id, k): [number, number, string] => [1 + 2 * k, oneId, `Δ ${id} − one id`]),
    [0, oneId, 'Δ stats-lda-v2 − one id'],
    ...ids.slice(1).map((id, k): [number, number, string] => [1, 3 + 2 * k, `Δ ${ids[0]} − ${id} (main)`]),
  ];
}

/** Whether two embedders' scenarios hold the same sessions of the same turns (speaker and length). */
function sameTurns(a: [string, EvalUtterance[][][]][], b: [string, EvalUtterance[][][]][]): boolean {
  const shape = (x: [string, EvalUtterance[][][]][]): string => JSON.stringify(x.map(([n, runs]) => [n, runs.map((r) => r.map((s) => s.map((u) => `${u.speaker}:${u.seconds}`)))]));
  return shape(a) === shape(b);
}

function mergeCount(f: readonly RunFigures[]): string {
  const fired = f.reduce((n, x) => n + x.merges.correctMerges + x.merges.wrongMerges, 0);
  return `${fired} (${f.reduce((n, x) => n + x.merges.wrongMerges, 0)})`;
}

function ci(x: { mean: number; lo: number; hi: number }): string {
  const p = (v: number): string => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}`;
  return `${p(x.mean)} [${p(x.lo)}, ${p(x.hi)}]`;
}
