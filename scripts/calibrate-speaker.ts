/**
 * Calibrate the statistics embedder's thresholds on the TRAINING speakers only, and write them into
 * pipelines/speaker/params/stats-lda-v2.json (`thresholds`, `calibration`).
 *
 *   npm run build --silent && node dist/scripts/calibrate-speaker.js [--merge-only] [--features stats|moonshine-l1]
 *
 * `--features moonshine-l1`: the same for the Moonshine-tiny layer-1 embedder (folds refitted on its features,
 * bench/lib/speaker-feature-kinds.ts), written into pipelines/speaker/params/moonshine-l1-v2.json.
 *
 * Cross-fitting: the training speakers (LibriSpeech LIBRI_TRAIN, TTS_TRAIN_VOICES) are split into three
 * folds; for each fold an LDA is fitted on the other two (as `train-speaker-embedder.ts` fits the shipped
 * one) and the fold's speakers are embedded with it, so every calibration score is one of a voice its
 * projection never saw, as in production. The evaluation speakers (LIBRI_HELDOUT, SpeechBrain, held-out
 * TTS voices) are not read at all: `bench/speaker-eval.ts` evaluates on them.
 */
import { writeFileSync } from 'node:fs';
import { arrangeSessions, scoreAttributions, shufflePerSpeaker, withinSessionAccuracy } from '../bench/lib/speaker-scores.js';
import { emptyTally, runSessions, type EvalUtterance, type MergeTally } from '../bench/lib/speaker-sessions.js';
import { FOLDS, outOfFoldEmbedders } from '../bench/lib/speaker-folds.js';
import { featureKindArg, loadSpeakerFeatures } from '../bench/lib/speaker-feature-kinds.js';
import { hasSharedSpeech } from '../pipelines/speaker/eval-corpus.js';
import { equalErrorRate, pairScores } from '../pipelines/speaker/eval-metrics.js';
import type { SpeakerThresholds } from '../pipelines/speaker/stats-lda-params.js';

if (!hasSharedSpeech()) {
  console.error('calibrate-speaker: ../shared/data/speech is absent (set PARLEY_SHARED_DATA); nothing calibrated');
  process.exit(1);
}
/** `--merge-only`: keep the shipped tracker and asker thresholds, recalibrate only the merge threshold. */
const MERGE_ONLY = process.argv.includes('--merge-only');
const features = await loadSpeakerFeatures(featureKindArg());
const params = features.loadParams();
if (MERGE_ONLY && !params.thresholds) throw new Error('--merge-only needs shipped thresholds');
const { train, embedderOf } = await outOfFoldEmbedders(params, features);
// Fold by fold, as the sessions below are arranged in this order.
const outOfFold: (EvalUtterance & { source: string })[] = [];
for (const u of FOLDS.flatMap((fold) => train.filter((x) => fold.includes(x.speaker))))
  outOfFold.push({ speaker: u.speaker, source: u.source, vector: await embedderOf.get(u.speaker)!.embed(u.audio), seconds: u.audio.length / 16_000 });
// Real voices decide the tracker and merge thresholds (the evaluation is on real voices).
const real = outOfFold.filter((x) => x.source === 'librispeech');
const SEEDS = [1, 2, 3, 4, 5];
/** Utterances per speaker per session (a session of 2 leaves a fragmented id 1 utterance: never merged). */
const PER_SESSION = 4;
const orders = SEEDS.map((seed) => arrangeSessions(shufflePerSpeaker(real, seed), PER_SESSION));
const score = async (t: { tauMatch: number; tauUpdate: number; alpha: number }, mergeTau: number | null): Promise<{ acc: number; frag: number; reid: number }> => {
  let acc = 0, frag = 0, reid = 0;
  for (const sessions of orders) {
    const s = scoreAttributions((await runSessions(sessions, 'fold', { thresholds: t, mergeTau })).attributions);
    acc += s.accuracy / orders.length; frag += s.idsPerSpeaker / orders.length; reid += s.reidentification / orders.length;
  }
  return { acc, frag, reid };
};
const tracker = (tau: number): { tauMatch: number; tauUpdate: number; alpha: number } => ({ tauMatch: round(tau), tauUpdate: round(Math.min(tau + 0.1, Math.max(0.97, (1 + tau) / 2))), alpha: 0.1 });
const sweep: { tauMatch: number; accuracy: number; idsPerSpeaker: number; reidentification: number }[] = [];
// Steps of 0.05 to 0.90, then 0.025 to 0.975: an embedder whose cosines crowd near 1 (moonshine-l1) is not cut off at 0.90.
const TAUS = [...Array.from({ length: 15 }, (_, i) => 0.2 + 0.05 * i), 0.925, 0.95, 0.975];
for (const tau of MERGE_ONLY ? [] : TAUS) {
  const s = await score(tracker(tau), null);
  sweep.push({ tauMatch: round(tau), accuracy: round(s.acc), idsPerSpeaker: round(s.frag), reidentification: round(s.reid) });
  console.log(`tauMatch ${tau.toFixed(2)}  accuracy ${(s.acc * 100).toFixed(1)}%  ids/speaker ${s.frag.toFixed(2)}  re-id ${(s.reid * 100).toFixed(1)}%`);
}
// The centre of the best neighbourhood (mean accuracy with both neighbours), not a lone spike.
const smooth = sweep.map((row, i) => ({ row, acc: mean(sweep.slice(Math.max(0, i - 1), i + 2).map((r) => r.accuracy)) }));
const bestTau = MERGE_ONLY ? params.thresholds!.tauMatch : smooth.reduce((a, b) => (b.acc > a.acc + 1e-9 ? b : a)).row.tauMatch;
// Merge threshold: the end-of-session merge is average-linkage clustering over all of a session's
// utterance embeddings (session-clustering.ts), so it is calibrated by running it, out of fold, on two
// kinds of sessions of the training speakers: the tracker at bestTau (the fragments it really leaves),
// and fully fragmented sessions (every utterance its own id: the clustering alone). Scored by accuracy
// within each session (what the merge can change). The threshold: the best mean over both kinds among
// thresholds that join at most MAX_DIFFERENT_JOINED of the different-speaker id pairs (a wrong merge
// fuses two people's memories, a missed one leaves a fragment: the bound comes first).
const FRAGMENTED = { tauMatch: 0.999, tauUpdate: 0.9999, alpha: 0.1 };
const mergeSweep: { mergeTau: number; trackerSessions: number; fragmentedSessions: number; samePairsJoined: string; differentPairsJoined: string }[] = [];
const withinSessions = async (th: { tauMatch: number; tauUpdate: number; alpha: number }, m: number | null): Promise<{ acc: number; tally: MergeTally }> => {
  let acc = 0;
  const tally = emptyTally();
  for (const sessions of orders) {
    const out = await runSessions(sessions, 'fold', { thresholds: th, mergeTau: m });
    acc += withinSessionAccuracy(out.attributions) / orders.length;
    for (const k of Object.keys(tally) as (keyof MergeTally)[]) tally[k] += out.merges[k];
  }
  return { acc, tally };
};
for (let tau = 0.3; tau <= 0.9751; tau += 0.025) {
  const m = round(tau);
  const [tr, fr] = [await withinSessions(tracker(bestTau), m), await withinSessions(FRAGMENTED, m)];
  const same = tr.tally.samePairsJoined + fr.tally.samePairsJoined, sameAll = tr.tally.samePairs + fr.tally.samePairs;
  const diffJ = tr.tally.differentPairsJoined + fr.tally.differentPairsJoined, diffAll = tr.tally.differentPairs + fr.tally.differentPairs;
  mergeSweep.push({ mergeTau: m, trackerSessions: round(tr.acc), fragmentedSessions: round(fr.acc), samePairsJoined: `${same}/${sameAll}`, differentPairsJoined: `${diffJ}/${diffAll}` });
  console.log(`mergeTau ${m.toFixed(3)}  within-session accuracy: tracker sessions ${(tr.acc * 100).toFixed(1)}%, fragmented ${(fr.acc * 100).toFixed(1)}%  ` +
    `same-speaker id pairs joined ${same}/${sameAll}  different ${diffJ}/${diffAll}`);
}
const MAX_DIFFERENT_JOINED = 0.01;
const share = (x: string): number => Number(x.split('/')[0]) / Math.max(1, Number(x.split('/')[1]));
const safe = mergeSweep.filter((r) => share(r.differentPairsJoined) <= MAX_DIFFERENT_JOINED);
if (safe.length === 0) throw new Error('no merge threshold keeps wrong joins within the bound');
const mergeTau = safe.reduce((a, b) => (b.trackerSessions + b.fragmentedSessions > a.trackerSessions + a.fragmentedSessions + 1e-9 ? b : a)).mergeTau;
const [noMergeTr, noMergeFr] = [await withinSessions(tracker(bestTau), null), await withinSessions(FRAGMENTED, null)];
console.log(`mergeTau ${mergeTau}; within-session accuracy without the merge: tracker sessions ${(noMergeTr.acc * 100).toFixed(1)}%, fragmented ${(noMergeFr.acc * 100).toFixed(1)}%`);
const mergeCalibration = {
  on: 'average-linkage clustering of each session\'s utterance embeddings weighted by voiced seconds; within-session accuracy on tracker sessions (at tauMatch) and fully fragmented sessions of the out-of-fold LibriSpeech training speakers',
  rule: `best mean within-session accuracy among thresholds joining at most ${MAX_DIFFERENT_JOINED * 100} % of different-speaker id pairs`,
  sweep: mergeSweep, withoutMerge: { trackerSessions: round(noMergeTr.acc), fragmentedSessions: round(noMergeFr.acc) },
  createdAt: new Date().toISOString(),
};
if (MERGE_ONLY) {
  params.thresholds = { ...params.thresholds!, mergeTau };
  params.calibration = { ...params.calibration, merge: mergeCalibration };
  writeFileSync(features.paramsPath, JSON.stringify(params) + '\n');
  console.log('mergeTau written; the other thresholds kept as shipped', params.thresholds);
  process.exit(0);
}

const { same, diff } = pairScores(outOfFold);
const eer = equalErrorRate(same, diff);
const askerHigh = round(Math.max(quantile(diff, 0.995), eer.threshold));
const thresholds: SpeakerThresholds = {
  ...tracker(bestTau),
  askerHigh,
  // The ECAPA defaults' 0.02 margin at 0.40 (speaker-thresholds.ts) scaled to this embedder's score range.
  askerMargin: round(0.02 * (askerHigh / 0.4)),
  askerLow: round(Math.min(askerHigh, eer.threshold)),
  mergeTau,
};
params.thresholds = thresholds;
params.calibration = {
  split: 'training speakers only, cross-fitted: 3 folds, each embedded by an LDA fitted on the other two (evaluation speakers never read)',
  folds: FOLDS,
  trackerOn: 'LibriSpeech training speakers (out-of-fold), 5 shuffled orders, PER_SESSION (4) utterances per speaker per session',
  pairs: { same: same.length, diff: diff.length },
  eer: round(eer.eer),
  eerThreshold: round(eer.threshold),
  diffQuantiles: { q97: round(quantile(diff, 0.97)), q995: round(quantile(diff, 0.995)), q999: round(quantile(diff, 0.999)) },
  trackerSweep: sweep,
  merge: mergeCalibration,
  createdAt: new Date().toISOString(),
};
writeFileSync(features.paramsPath, JSON.stringify(params) + '\n');
console.log('thresholds', thresholds, `EER (out-of-fold, all training voices) ${(eer.eer * 100).toFixed(1)}%`);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
function mean(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
function round(x: number): number {
  return Number(x.toFixed(4));
}
