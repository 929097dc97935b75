/**
 * Calibrate the statistics embedder's thresholds on held-out speakers and write them into
 * pipelines/speaker/params/stats-lda-v1.json (`thresholds`, `calibration`).
 *
 *   npx tsc -p . && node dist/scripts/calibrate-speaker.js
 *
 * Calibration split: held-out LibriSpeech utterances 1–5, SpeechBrain 1–3, held-out TTS sentences
 * 1–6. `bench/speaker-eval.ts` evaluates on the other utterances of the same held-out speakers.
 */
import { writeFileSync } from 'node:fs';
import { hasSharedSpeech, LIBRI_HELDOUT, loadLibriSpeech, loadSpeechBrain, loadTts, TTS_HELDOUT_VOICES } from '../pipelines/speaker/eval-corpus.js';
import { equalErrorRate, pairScores } from '../pipelines/speaker/eval-metrics.js';
import { arrangeSessions, scoreTracker } from '../pipelines/speaker/eval-sessions.js';
import { StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';
import { loadStatsLdaParams, statsLdaParamsPath, type SpeakerThresholds } from '../pipelines/speaker/stats-lda-params.js';

if (!hasSharedSpeech()) {
  console.error('calibrate-speaker: ../shared/data/speech is absent (set PARLEY_SHARED_DATA); nothing calibrated');
  process.exit(1);
}
const params = loadStatsLdaParams();
const embedder = new StatsLdaSpeakerEmbedder(params);
const bySpeakerHead = <T extends { speaker: string }>(xs: T[], n: number): T[] => {
  const seen = new Map<string, number>();
  return xs.filter((x) => {
    const k = (seen.get(x.speaker) ?? 0) + 1;
    seen.set(x.speaker, k);
    return k <= n;
  });
};
const utts = [...bySpeakerHead(loadLibriSpeech(LIBRI_HELDOUT), 5), ...bySpeakerHead(loadSpeechBrain(), 3), ...loadTts(TTS_HELDOUT_VOICES, 6, 0)];
const items = await Promise.all(utts.map(async (u) => ({ speaker: u.speaker, vector: await embedder.embed(u.audio) })));
const { same, diff } = pairScores(items);
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const eer = equalErrorRate(same, diff);
const sessions = arrangeSessions(items, 2);
let best = null as { tau: number; acc: number; reid: number; frag: number } | null;
const sweep: { tauMatch: number; accuracy: number; fragmentation: number; reidentification: number }[] = [];
for (let tau = 0.2; tau <= 0.9001; tau += 0.05) {
  const t = { tauMatch: tau, tauUpdate: Math.min(tau + 0.1, 0.97), alpha: 0.1 };
  const s = await scoreTracker(sessions, params.modelId, t);
  sweep.push({ tauMatch: round(tau), accuracy: round(s.accuracy), fragmentation: round(s.fragmentation), reidentification: round(s.reidentification) });
  console.log(`tauMatch ${tau.toFixed(2)}  accuracy ${(s.accuracy * 100).toFixed(1)}%  ids/speaker ${s.fragmentation.toFixed(2)}  re-id ${(s.reidentification * 100).toFixed(1)}%`);
}
// Pick the centre of the best neighbourhood (mean accuracy with both neighbours), not a lone spike.
sweep.forEach((row, i) => {
  const win = sweep.slice(Math.max(0, i - 1), i + 2);
  const acc = win.reduce((a, r) => a + r.accuracy, 0) / win.length;
  if (!best || acc > best.acc + 1e-9) best = { tau: row.tauMatch, acc, reid: row.reidentification, frag: row.fragmentation };
});
const askerHigh = round(Math.max(quantile(diff, 0.995), eer.threshold));
const thresholds: SpeakerThresholds = {
  tauMatch: round(best!.tau),
  tauUpdate: round(Math.min(best!.tau + 0.1, 0.97)),
  alpha: 0.1,
  askerHigh,
  // The ECAPA defaults' 0.02 margin at 0.40 (speaker-thresholds.ts) scaled to this embedder's score range.
  askerMargin: round(0.02 * (askerHigh / 0.4)),
  askerLow: round(Math.min(askerHigh, eer.threshold)),
  mergeTau: round(Math.max(best!.tau + 0.1, quantile(diff, 0.999))),
};
params.thresholds = thresholds;
params.calibration = {
  split: 'held-out speakers, first utterances (LibriSpeech 1-5, SpeechBrain 1-3, TTS sentences 1-6)',
  pairs: { same: same.length, diff: diff.length },
  eer: round(eer.eer),
  eerThreshold: round(eer.threshold),
  diffQuantiles: { q97: round(quantile(diff, 0.97)), q995: round(quantile(diff, 0.995)), q999: round(quantile(diff, 0.999)) },
  trackerSweep: sweep,
  createdAt: new Date().toISOString(),
};
writeFileSync(statsLdaParamsPath(), JSON.stringify(params) + '\n');
console.log('thresholds', thresholds, `EER ${(eer.eer * 100).toFixed(1)}%`);

function round(x: number): number {
  return Number(x.toFixed(4));
}
