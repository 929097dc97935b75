/**
 * Speaker identity on voices the embedder and its thresholds never saw: attribution accuracy
 * (utterances and speech time, best one-to-one id ↔ speaker mapping), ids per true speaker,
 * cross-session re-identification and the end-of-session merge, beside same-run baselines.
 *
 *   npm run bench:speaker            (PARLEY_SPEAKER_RUNS=10 shuffled orders by default)
 *
 * Split: the LDA (scripts/train-speaker-embedder.ts) was fitted on LIBRI_TRAIN + TTS_TRAIN_VOICES (with
 * channel copies of another room and SNR than the far-field condition here), and
 * the thresholds (scripts/calibrate-speaker.ts) were chosen on out-of-fold embeddings of those same
 * training speakers. Evaluated here: LIBRI_HELDOUT (4 speakers × 10) and SpeechBrain (2 × 6), clean and
 * phone band, far-field (reverb, phone band, noise at 15 dB SNR), and 4 held-out TTS voices. A session is a
 * round-robin "meeting" of four utterances per speaker; prototypes persist across sessions (real SQLite).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../pipelines/models/repo-root.js';
import { loadStatsLdaParams } from '../pipelines/speaker/stats-lda-params.js';
import { degrade, FAR_FIELD, PHONE_BAND } from './lib/far-field.js';
import { arrangeSessions, scoreAttributions, shufflePerSpeaker, type AttributionScore } from './lib/speaker-scores.js';
import { emptyTally, oneIdPerSession, runSessions, type EvalUtterance, type MergeTally, type RunOptions } from './lib/speaker-sessions.js';
import { hasTts, LIBRI_HELDOUT, LIBRI_TRAIN, loadLibriSpeech, loadSpeechBrain, loadTts, TTS_HELDOUT_VOICES, type LabelledUtterance } from '../pipelines/speaker/eval-corpus.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import { defaultWespeakerPath, OnnxSpeakerEmbedder } from '../pipelines/speaker/onnx-speaker-embedder.js';
import type { SpeakerEmbedder } from '../pipelines/speaker/speaker-embedder.js';
import { ECAPA_THRESHOLDS, SHORT_TURN_MS, thresholdsFor } from '../pipelines/speaker/speaker-thresholds.js';
import { MfccMeanSpeakerEmbedder, StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';
import { decisionFor } from '../pipelines/speaker/speaker-decision.js';
import { calibratedMerge, sessionRulesFor } from '../pipelines/speaker/session-rules.js';

skipWithoutSharedSpeech('speaker-eval');
const RUNS = Number(process.env.PARLEY_SPEAKER_RUNS ?? 10);
/** Utterances per speaker per session, as in the calibration. */
const PER_SESSION = 4;
/**
 * The setup before issue #17 (kept in bench/lib/params): stats-lda-v1, no channel augmentation, thresholds
 * calibrated on the evaluation speakers' first utterances, merge on online prototypes.
 */
const v1 = loadStatsLdaParams(path.join(repoRoot(), 'bench', 'lib', 'params', 'stats-lda-v1.json'));
const PREVIOUS = v1.thresholds!;
/**
 * stats-lda-v1's thresholds from scripts/calibrate-speaker.ts (training speakers, cross-fitted), run on
 * the v1 projection at 2026-12-01 02:11 UTC before v2 was trained: the v1 embedder calibrated honestly.
 */
const V1_CROSS_FITTED = { tauMatch: 0.7, tauUpdate: 0.8, alpha: 0.1, mergeTau: 0.9592 };

const real = [...loadLibriSpeech(LIBRI_HELDOUT), ...loadSpeechBrain()];
const scenarios: Record<string, LabelledUtterance[]> = {
  'real held-out (4 Libri + 2 SB), clean': real,
  'real held-out, phone band only': real.map((u, i) => ({ ...u, audio: degrade(u.audio, i + 1, PHONE_BAND) })),
  'real held-out, far-field (reverb, phone band, 15 dB SNR noise)': real.map((u, i) => ({ ...u, audio: degrade(u.audio, i + 1, FAR_FIELD) })),
};
if (hasTts()) scenarios['tts held-out (4 voices)'] = loadTts(TTS_HELDOUT_VOICES, 10, 0);
else console.log('(flite/festival/sox missing: TTS scenario skipped)');

interface System { name: string; e: SpeakerEmbedder | null; run: RunOptions | null }
const lda = new StatsLdaSpeakerEmbedder();
const t = thresholdsFor(lda.modelId);
const decision = decisionFor(lda.modelId);
const rules = sessionRulesFor(lda.modelId);
const SHORT_S = SHORT_TURN_MS / 1000;
const systems: System[] = [
  { name: 'stats-lda-v2, calibrated decision, calibrated merge (session rules)', e: lda, run: { thresholds: t, mergeTau: t.mergeTau, shortSeconds: SHORT_S, decision, mergeCalibrated: rules ? calibratedMerge(rules.merge) : null } },
  { name: '  same, cosine merge (main before the session rules)', e: lda, run: { thresholds: t, mergeTau: t.mergeTau, shortSeconds: SHORT_S, decision } },
  { name: 'stats-lda-v2, thresholds from training speakers, merge by session clustering', e: lda, run: { thresholds: t, mergeTau: t.mergeTau } },
  { name: '  same, no end-of-session merge', e: lda, run: { thresholds: t, mergeTau: null } },
  { name: 'previous: stats-lda-v1, thresholds saw eval speakers, merge on prototypes', e: new StatsLdaSpeakerEmbedder(v1), run: { thresholds: PREVIOUS, mergeTau: PREVIOUS.mergeTau, mergeOn: 'prototype' } },
  { name: 'stats-lda-v1, thresholds from training speakers, merge on session means', e: new StatsLdaSpeakerEmbedder(v1), run: { thresholds: V1_CROSS_FITTED, mergeTau: V1_CROSS_FITTED.mergeTau, mergeOn: 'session-mean' } },
  { name: 'baseline: mfcc mean+std cosine, tau tuned on training speakers', e: new MfccMeanSpeakerEmbedder(), run: null },
  { name: 'baseline: one id per session', e: null, run: null },
];
if (existsSync(defaultWespeakerPath())) {
  systems.push({ name: 'wespeaker-resnet34, ECAPA defaults (uncalibrated)', e: await OnnxSpeakerEmbedder.create(), run: { thresholds: ECAPA_THRESHOLDS, mergeTau: ECAPA_THRESHOLDS.mergeTau } });
} else console.log(`(wespeaker-resnet34 not installed at ${defaultWespeakerPath()}: ONNX row skipped)`);

const embedAll = async (e: SpeakerEmbedder, us: LabelledUtterance[]): Promise<EvalUtterance[]> =>
  Promise.all(us.map(async (u) => ({ speaker: u.speaker, vector: await e.embed(u.audio), seconds: u.audio.length / 16_000 })));

// The MFCC baseline gets a calibration of its own, on the training speakers (it has no training).
const mfcc = systems.find((s) => s.name.startsWith('baseline: mfcc'))!;
{
  const cal = await embedAll(mfcc.e!, loadLibriSpeech(LIBRI_TRAIN));
  let best = { tau: 0, acc: -1 };
  for (let tau = 0.5; tau <= 0.995; tau += 0.01) {
    const th = { tauMatch: tau, tauUpdate: Math.min(tau + 0.01, 0.999), alpha: 0.1 };
    const s = scoreAttributions((await runSessions(arrangeSessions(cal, PER_SESSION), mfcc.e!.modelId, { thresholds: th, mergeTau: null })).attributions);
    if (s.accuracy > best.acc) best = { tau, acc: s.accuracy };
  }
  mfcc.run = { thresholds: { tauMatch: best.tau, tauUpdate: Math.min(best.tau + 0.01, 0.999), alpha: 0.1 }, mergeTau: null };
}

const header = ['scenario', 'system', 'tau', 'utt acc', 'time acc', 'ids/spk', 'ids:spk', 're-id', 'merge fired where must', 'wrong merges'];
const rows: string[][] = [header];
for (const [scen, us] of Object.entries(scenarios)) {
  const vectors = new Map<SpeakerEmbedder, EvalUtterance[]>();
  for (const sys of systems) {
    const items = sys.e ? vectors.get(sys.e) ?? (await embedAll(sys.e, us)) : us.map((u) => ({ speaker: u.speaker, vector: new Float32Array(1), seconds: u.audio.length / 16_000 }));
    if (sys.e) vectors.set(sys.e, items);
    const scores: AttributionScore[] = [];
    const tally = emptyTally();
    for (let r = 1; r <= RUNS; r++) {
      const sessions = arrangeSessions(shufflePerSpeaker(items, r), PER_SESSION);
      if (!sys.run) { scores.push(scoreAttributions(oneIdPerSession(sessions))); continue; }
      const out = await runSessions(sessions, sys.e!.modelId, sys.run);
      scores.push(scoreAttributions(out.attributions));
      for (const k of Object.keys(tally) as (keyof MergeTally)[]) tally[k] += out.merges[k];
    }
    const merged = sys.run?.mergeTau != null;
    rows.push([
      scen, sys.name, sys.run ? sys.run.thresholds.tauMatch.toFixed(2) : '-',
      spread(scores.map((s) => s.accuracy)), spread(scores.map((s) => s.timeAccuracy)),
      spread(scores.map((s) => s.idsPerSpeaker), false), `${avg(scores.map((s) => s.ids)).toFixed(1)}:${scores[0]!.speakers}`,
      spread(scores.map((s) => s.reidentification)),
      merged ? `${tally.firedWhereMust}/${tally.mustMergeSessions} sessions` : '-',
      merged ? `${tally.wrongMerges}/${tally.differentPairs} pairs` : '-',
    ]);
  }
}
const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
for (const r of rows) console.log(r.map((x, c) => x.padEnd(widths[c]!)).join('  '));
console.log(`${RUNS} runs per row (shuffled utterance orders); figures are mean [min–max] over runs.`);

// Short fragments: every real held-out utterance over 2 s is followed, in the same session, by its last
// 0.8 s as a separate short turn (a turn cut at a pause); production attributes turns under
// SHORT_TURN_MS with assignShort. Same shipped embedder and thresholds, with and without that rule.
console.log('\nShort fragments (real held-out clean; each utterance > 2 s split into head + its last 0.8 s as a turn of its own):');
{
  const TAIL = 0.8;
  const pieces = await Promise.all(real.map(async (u) => {
    const whole = { speaker: u.speaker, parts: [{ speaker: u.speaker, vector: await lda.embed(u.audio), seconds: u.audio.length / 16_000 }] };
    if (u.audio.length / 16_000 <= 2) return whole;
    const cut = u.audio.length - Math.round(TAIL * 16_000);
    // A tail with too little speech to embed stays part of its utterance (production keeps the previous voice for it).
    const tail = await lda.embed(u.audio.subarray(cut)).catch(() => null);
    if (!tail) return whole;
    return { speaker: u.speaker, parts: [
      { speaker: u.speaker, vector: await lda.embed(u.audio.subarray(0, cut)), seconds: cut / 16_000 },
      { speaker: u.speaker, vector: tail, seconds: TAIL },
    ] };
  }));
  console.log(`  ${pieces.filter((p) => p.parts.length === 2).length} of ${pieces.length} utterances split`);
  for (const [label, shortSeconds] of [['turns < 1 s by assignShort (production)', SHORT_TURN_MS / 1000], ['every turn by assign', 0]] as const) {
    const scores: AttributionScore[] = [];
    const base: AttributionScore[] = [];
    for (let r = 1; r <= RUNS; r++) {
      const sessions = arrangeSessions(shufflePerSpeaker(pieces, r), PER_SESSION).map((s) => s.flatMap((p) => p.parts));
      scores.push(scoreAttributions((await runSessions(sessions, lda.modelId, { thresholds: t, mergeTau: t.mergeTau, shortSeconds })).attributions));
      base.push(scoreAttributions(oneIdPerSession(sessions)));
    }
    console.log(`  stats-lda-v2, ${label}: utterance acc ${spread(scores.map((s) => s.accuracy))}, speech-time acc ${spread(scores.map((s) => s.timeAccuracy))}, ids/speaker ${spread(scores.map((s) => s.idsPerSpeaker), false)}, re-id ${spread(scores.map((s) => s.reidentification))}`);
    if (shortSeconds === 0) console.log(`  baseline one id per session: utterance acc ${spread(base.map((s) => s.accuracy))}, speech-time acc ${spread(base.map((s) => s.timeAccuracy))}`);
  }
}

// The end-of-session merge on its own (held-out speakers, fragmented sessions): bench/speaker-merge.ts.

function avg(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}
function spread(xs: number[], percent = true): string {
  const f = (x: number): string => (percent ? (x * 100).toFixed(1) : x.toFixed(2));
  return `${f(avg(xs))} [${f(Math.min(...xs))}–${f(Math.max(...xs))}]${percent ? '%' : ''}`;
}
