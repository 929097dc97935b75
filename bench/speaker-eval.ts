/**
 * Speaker identity benchmark: utterance attribution accuracy (greedy one-to-one id mapping),
 * fragmentation (ids per true speaker) and cross-session re-identification over simulated
 * multi-session conversations of held-out speakers, per embedder, beside a baseline.
 *
 *   npx tsc -p . && node dist/bench/speaker-eval.js
 *
 * Evaluation utterances: held-out LibriSpeech 6–10, SpeechBrain 4–6, held-out TTS sentences 7–12
 * (thresholds were calibrated on the other utterances of the same held-out speakers). Two
 * utterances per speaker per session, turn-taking order, prototypes persisted across sessions.
 */
import { existsSync } from 'node:fs';
import { hasSharedSpeech, LIBRI_HELDOUT, loadLibriSpeech, loadSpeechBrain, loadTts, TTS_HELDOUT_VOICES, type LabelledUtterance } from '../pipelines/speaker/eval-corpus.js';
import { equalErrorRate, pairScores } from '../pipelines/speaker/eval-metrics.js';
import { arrangeSessions, scoreTracker } from '../pipelines/speaker/eval-sessions.js';
import { defaultWespeakerPath, OnnxSpeakerEmbedder } from '../pipelines/speaker/onnx-speaker-embedder.js';
import type { SpeakerEmbedder } from '../pipelines/speaker/speaker-embedder.js';
import { thresholdsFor } from '../pipelines/speaker/speaker-thresholds.js';
import { MfccMeanSpeakerEmbedder, StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';

if (!hasSharedSpeech()) {
  console.log('speaker-eval: skipped, ../shared/data/speech is absent (set PARLEY_SHARED_DATA)');
  process.exit(0);
}
const split = (xs: LabelledUtterance[], from: number): LabelledUtterance[] => {
  const seen = new Map<string, number>();
  return xs.filter((x) => {
    const k = (seen.get(x.speaker) ?? 0) + 1;
    seen.set(x.speaker, k);
    return k > from;
  });
};
const calib = [...split(loadLibriSpeech(LIBRI_HELDOUT), 0).filter((_, i) => i % 10 < 5), ...loadSpeechBrain().filter((_, i) => i % 6 < 3), ...loadTts(TTS_HELDOUT_VOICES, 6, 0)];
const scenarios: Record<string, LabelledUtterance[]> = {
  'real (4 Libri + 2 SB)': [...split(loadLibriSpeech(LIBRI_HELDOUT), 5), ...split(loadSpeechBrain(), 3)],
  'tts (4 voices)': loadTts(TTS_HELDOUT_VOICES, 6, 6),
};
scenarios['mixed (all 10)'] = [...scenarios['real (4 Libri + 2 SB)']!, ...scenarios['tts (4 voices)']!];

const embedders: { name: string; e: SpeakerEmbedder; tuneHere: boolean }[] = [
  { name: 'stats-lda-v1', e: new StatsLdaSpeakerEmbedder(), tuneHere: false },
  { name: 'baseline mfcc mean+std cosine', e: new MfccMeanSpeakerEmbedder(), tuneHere: true },
];
if (existsSync(defaultWespeakerPath())) embedders.push({ name: 'wespeaker-resnet34 (ECAPA defaults)', e: await OnnxSpeakerEmbedder.create(), tuneHere: false });
else console.log(`(wespeaker-resnet34 not installed at ${defaultWespeakerPath()}: ONNX row skipped)`);

const rows: string[][] = [['embedder', 'scenario', 'utts', 'spk', 'tau_match', 'accuracy', 'ids/spk', 're-id', 'EER', 'embed ms per s audio']];
for (const { name, e, tuneHere } of embedders) {
  const embedAll = async (us: LabelledUtterance[]): Promise<{ speaker: string; vector: Float32Array }[]> => Promise.all(us.map(async (u) => ({ speaker: u.speaker, vector: await e.embed(u.audio) })));
  let t = thresholdsFor(e.modelId);
  if (tuneHere) {
    // The baseline gets the same calibration treatment: best tau on the calibration split.
    const cal = arrangeSessions(await embedAll(calib), 2);
    let best = { tau: 0, acc: -1 };
    for (let tau = 0.5; tau <= 0.995; tau += 0.01) {
      const s = await scoreTracker(cal, e.modelId, { tauMatch: tau, tauUpdate: Math.min(tau + 0.01, 0.999), alpha: 0.1 });
      if (s.accuracy > best.acc) best = { tau, acc: s.accuracy };
    }
    t = { ...t, tauMatch: best.tau, tauUpdate: Math.min(best.tau + 0.01, 0.999), alpha: 0.1 };
  }
  for (const [scen, us] of Object.entries(scenarios)) {
    const t0 = performance.now();
    const items = await embedAll(us);
    const ms = performance.now() - t0;
    const seconds = us.reduce((a, u) => a + u.audio.length / 16_000, 0);
    const s = await scoreTracker(arrangeSessions(items, 2), e.modelId, t);
    const { same, diff } = pairScores(items);
    rows.push([name, scen, String(s.utterances), String(s.speakers), t.tauMatch.toFixed(2), pct(s.accuracy), s.fragmentation.toFixed(2), pct(s.reidentification), pct(equalErrorRate(same, diff).eer), (ms / seconds).toFixed(1)]);
  }
}
const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((x, c) => x.padEnd(widths[c]!)).join('  '));
console.log('Paper anchor (ECAPA-TDNN tracker, reference boundaries): IEMOCAP 95.0 %, AMI 87.9 % attribution accuracy.');

function pct(x: number): string {
  return Number.isNaN(x) ? 'n/a' : `${(x * 100).toFixed(1)}%`;
}
