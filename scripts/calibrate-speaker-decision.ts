/**
 * Calibrate the tracker's open-set decision (`pipelines/speaker/speaker-decision.ts`) for the statistics
 * embedder on the TRAINING speakers only, and write pipelines/speaker/params/stats-lda-v2-decision.json.
 *
 *   npm run build --silent && node dist/scripts/calibrate-speaker-decision.js [--features stats|moonshine-l1]
 *
 * `--features moonshine-l1`: the Moonshine-tiny layer-1 embedder's decision (pipelines/speaker/params/moonshine-l1-v2-decision.json).
 *
 * 1. Out-of-fold embeddings (bench/lib/speaker-folds.ts) of the LibriSpeech training speakers, clean,
 *    phone band and far-field (other noise seeds than the benchmark), cut into turns and fragments as
 *    bench/lib/speaker-meeting.ts does.
 * 2. Score calibration: every turn and fragment against same- and different-speaker prototypes (the mean
 *    of 1 or 3 other turns), a class-balanced logistic regression on cosine and ln(voiced seconds).
 * 3. Priors and the founding minimum: a grid, scored by across-session utterance accuracy of the meeting
 *    generator in the three conditions (5 seeds each), the tracker run as production runs it (turns under
 *    SHORT_TURN_MS by assignShort, the end-of-session merge). Round-robin sessions are scored and logged
 *    for every row but take no part in the choice (the bench reports what the choice costs there).
 * The evaluation speakers (LIBRI_HELDOUT, SpeechBrain) are not read: bench/speaker-meeting.ts uses them.
 */
import { writeFileSync } from 'node:fs';
import { outOfFoldEmbedders } from '../bench/lib/speaker-folds.js';
import { featureKindArg, loadSpeakerFeatures } from '../bench/lib/speaker-feature-kinds.js';
import { meetingSessions } from '../bench/lib/speaker-meeting.js';
import { calibrationPairs } from '../bench/lib/speaker-calibration-pairs.js';
import { trainingConditions } from '../bench/lib/speaker-training.js';
import { scoreRuns } from '../bench/lib/speaker-meeting-runs.js';
import { arrangeSessions, shufflePerSpeaker } from '../bench/lib/speaker-scores.js';
import type { EvalUtterance, RunOptions } from '../bench/lib/speaker-sessions.js';
import { hasSharedSpeech } from '../pipelines/speaker/eval-corpus.js';
import { decisionParamsPath, fitCalibration, scoreLlr, type SpeakerDecisionParams } from '../pipelines/speaker/speaker-decision.js';
import { SHORT_TURN_MS } from '../pipelines/speaker/speaker-thresholds.js';

if (!hasSharedSpeech()) {
  console.error('calibrate-speaker-decision: ../shared/data/speech is absent (set PARLEY_SHARED_DATA); nothing calibrated');
  process.exit(1);
}
const features = await loadSpeakerFeatures(featureKindArg());
const params = features.loadParams();
const t = params.thresholds!;
const { train, embedderOf } = await outOfFoldEmbedders(params, features);
const SEEDS = [1, 2, 3, 4, 5];

const byCondition = await trainingConditions(train, embedderOf);
for (const [name, { chunks }] of byCondition) console.log(`${name}: ${chunks.length} turns, ${chunks.reduce((n, c) => n + c.fragments.length, 0)} fragments`);

// Score calibration pairs: each turn / fragment against prototypes of its own and of other speakers.
const pairs = calibrationPairs([...byCondition.values()].map((c) => c.chunks));
const calibration = fitCalibration(pairs);
console.log('calibration', calibration, `from ${pairs.length} pairs`);
for (const d of [0.75, 1.5, 3]) console.log(`  LLR at ${d} s: cos 0.3 → ${scoreLlr(calibration, 0.3, d).toFixed(2)}, 0.6 → ${scoreLlr(calibration, 0.6, d).toFixed(2)}, 0.9 → ${scoreLlr(calibration, 0.9, d).toFixed(2)}`);

const meetings: EvalUtterance[][][][] = [];
const roundRobin: EvalUtterance[][][][] = [];
for (const { chunks, whole } of byCondition.values()) {
  meetings.push(SEEDS.map((s) => meetingSessions(chunks, s)));
  roundRobin.push(SEEDS.map((s) => arrangeSessions(shufflePerSpeaker(whole, s), 4)));
}
const base: RunOptions = { thresholds: t, mergeTau: t.mergeTau, shortSeconds: SHORT_TURN_MS / 1000 };
const objective = async (run: RunOptions | null, scenarios = meetings): Promise<number[]> => {
  const out: number[] = [];
  for (const runs of scenarios) {
    const f = await scoreRuns(runs, 'fold', run);
    out.push(f.reduce((a, b) => a + b.utterance, 0) / f.length);
  }
  return out;
};
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (xs: number[]): string => xs.map((x) => (x * 100).toFixed(1)).join(' ');
const current = await objective(base);
console.log(`meetings (clean, phone, far-field): current tracker ${pct(current)}, one id per session ${pct(await objective(null))}`);
console.log(`round-robin: current tracker ${pct(await objective(base, roundRobin))}`);
const sweep: { logPriorNew: number; logPriorPrevious: number; logPriorSession: number; minFoundSeconds: number; accuracy: number; perScenario: number[]; roundRobin: number[] }[] = [];
for (const logPriorNew of [-3, -2, -1, 0, 1, 2, 3])
  for (const logPriorPrevious of [0, 1, 2, 3])
    for (const logPriorSession of [0, 1, 2])
      for (const minFoundSeconds of [0, 1.5, 2.5]) {
        const decision: SpeakerDecisionParams = { modelId: params.modelId, calibration, logPriorNew, logPriorPrevious, logPriorSession, minFoundSeconds };
        const per = await objective({ ...base, decision });
        const rr = await objective({ ...base, decision }, roundRobin);
        sweep.push({ logPriorNew, logPriorPrevious, logPriorSession, minFoundSeconds, accuracy: round(mean(per)), perScenario: per.map(round), roundRobin: rr.map(round) });
      }
sweep.sort((a, b) => b.accuracy - a.accuracy);
for (const r of sweep.slice(0, 8)) console.log(JSON.stringify(r));
const best = sweep[0]!;
const out = {
  modelId: params.modelId,
  calibration: { a: round(calibration.a), b: round(calibration.b), c: round(calibration.c), e: round(calibration.e) },
  logPriorPrevious: best.logPriorPrevious,
  logPriorSession: best.logPriorSession,
  logPriorNew: best.logPriorNew,
  minFoundSeconds: best.minFoundSeconds,
  chosenOn: {
    split: 'LibriSpeech training speakers only, out-of-fold embeddings (bench/lib/speaker-folds.ts); evaluation speakers never read',
    objective: 'mean across-session utterance accuracy of meeting sessions (bench/lib/speaker-meeting.ts), clean / phone band / far-field, 5 seeds each; round-robin logged, not used',
    pairs: pairs.length,
    currentTracker: round(mean(current)),
    top: sweep.slice(0, 5),
    createdAt: new Date().toISOString(),
  },
};
writeFileSync(decisionParamsPath(params.modelId), JSON.stringify(out, null, 1) + '\n');
console.log('written', decisionParamsPath(params.modelId));

function round(x: number): number {
  return Number(x.toFixed(4));
}
