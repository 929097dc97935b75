/**
 * Do pooled Moonshine-tiny encoder states separate voices nobody trained on better than the shipped
 * statistics embedder (stats-lda-v2)? Speaker verification on held-out real speakers, side by side in one run.
 *
 *   npm run build --silent && node dist/bench/speaker-features.js [--probe last|layers] [--rounds 500] [--per-utterance 3]
 *
 * Training (same protocol as scripts/train-speaker-embedder.ts): LIBRI_TRAIN + TTS_TRAIN_VOICES, every clip
 * also through TRAIN_CHANNELS (phone band; another room at 10 dB SNR), the whole clip and its 3 s windows
 * every 1.5 s. Projections fitted here on those samples only: LDA (speakers − 1 = 13 dims) or WCCN on the
 * Moonshine features (mean and std over voiced frames of the encoder's last hidden states, 576 values), on
 * Moonshine + statistics, and the statistics LDA refitted in this run (a check that this run's protocol
 * gives what the shipped file gives). Evaluated: LIBRI_HELDOUT (4 × 10) and SpeechBrain (2 × 6), clean,
 * phone band and far-field (bench/speaker-eval.ts's seeds), each utterance cut into up to
 * `--per-utterance` consecutive windows of 1, 3 or 6 s; a trial is any two windows of different utterances.
 * EER and minDCF (P_target 0.05) with 95 % bootstrap intervals over utterances, and each system's EER minus
 * stats-lda-v2's on the same resamples. CPU: ms per second of audio of each feature extractor, one thread.
 * `--probe layers`: the same with every transformer layer's residual stream pooled instead of the last hidden
 * state (pipelines/asr/moonshine-encoder-graph.ts adds them as outputs of a temporary copy of the encoder), LDA
 * (shrinkage 0.5) per layer and on layer + statistics; first, the same candidates scored on the training speakers alone
 * (two folds of disjoint speakers, bench/lib/speaker-layer-choice.ts), where a layer may honestly be chosen;
 * `--train-only` stops after that.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { MoonshineEncoder } from '../pipelines/asr/moonshine-encoder.js';
import { MOONSHINE_FILES } from '../pipelines/asr/moonshine-model.js';
import { modelsDir } from '../pipelines/models/repo-root.js';
import {
  hasSharedSpeech, hasTts, LIBRI_HELDOUT, LIBRI_TRAIN, loadLibriSpeech, loadSpeechBrain, loadTts, TTS_TRAIN_VOICES, type LabelledUtterance,
} from '../pipelines/speaker/eval-corpus.js';
import { P_TARGET, segments } from '../pipelines/speaker/eval-metrics.js';
import { fitLda, fitWccn, type LabelledVector, type LdaFit } from '../pipelines/speaker/lda-trainer.js';
import { poolVoiced } from '../pipelines/speaker/moonshine-features.js';
import { utteranceStats } from '../pipelines/speaker/stats-features.js';
import { loadStatsLdaParams, type StatsLdaParams } from '../pipelines/speaker/stats-lda-params.js';
import { StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';
import { argNumber, argString, requireDataOrSkip } from './lib/cli.js';
import { degrade, FAR_FIELD, PHONE_BAND, TRAIN_CHANNELS } from './lib/far-field.js';
import { encoderWithLayerOutputs, layerOutput } from '../pipelines/asr/moonshine-encoder-graph.js';
import { crossFitCandidates } from './lib/speaker-layer-choice.js';
import { compareOnTrials, type Interval, type TrialWindow } from './lib/speaker-trials.js';

if (!hasSharedSpeech() || !hasTts()) {
  requireDataOrSkip('the shared speech data (../shared/data/speech) and flite/festival/sox');
  console.log('speaker-features: skipped, needs ../shared/data/speech (PARLEY_SHARED_DATA) and flite, festival, sox');
  process.exit(0);
}
const ROUNDS = argNumber('rounds', 500);
const PER_UTTERANCE = argNumber('per-utterance', 3);
const PROBE = argString('probe', 'last');
if (PROBE !== 'last' && PROBE !== 'layers') throw new Error(`--probe must be last or layers, not ${PROBE}`);
const encoderFile = path.join(modelsDir(), 'moonshine-tiny', MOONSHINE_FILES.encoder);
const layered = PROBE === 'layers' ? encoderWithLayerOutputs(encoderFile) : null;
const encoder = await MoonshineEncoder.load(layered?.file ?? encoderFile, 'run `npm run models -- fetch moonshine-tiny`');
/** Encoder outputs pooled: the last hidden state, or every layer's residual stream. */
const OUTPUTS = layered ? Array.from({ length: layered.layers }, (_, n) => layerOutput(n)) : ['last_hidden_state'];

/** Raw features of one piece of audio: the statistics (76) and the pooled states (576) of each output; null if any cannot. */
interface Raw { stats: Float64Array; ms: Float64Array[] }
async function raw(audio: Float32Array): Promise<Raw | null> {
  const stats = utteranceStats(audio);
  if (!stats) return null;
  const ms = (await encoder.states(audio, OUTPUTS)).map((s) => poolVoiced(audio, s));
  return ms.every((x) => x !== null) ? { stats, ms: ms as Float64Array[] } : null;
}
const concat = (r: Raw): Float64Array => Float64Array.from([...r.ms[0]!, ...r.stats]);

// Training samples, exactly as scripts/train-speaker-embedder.ts builds them.
const started = performance.now();
const train = [...loadLibriSpeech(LIBRI_TRAIN), ...loadTts(TTS_TRAIN_VOICES)];
const samples: { label: string; r: Raw; utterance: number; whole: boolean }[] = [];
for (const [n, u] of train.entries())
  for (const clip of [u.audio, ...TRAIN_CHANNELS.map((c, k) => degrade(u.audio, 1000 * k + n + 1, c))])
    for (const seg of [clip, ...segments(clip, 3, 1.5)]) {
      const r = await raw(seg);
      if (r) samples.push({ label: u.speaker, r, utterance: n, whole: seg === clip });
    }
console.log(`training: ${new Set(train.map((u) => u.speaker)).size} speakers, ${train.length} utterances, ${samples.length} samples (${((performance.now() - started) / 1000).toFixed(0)} s to extract)`);

const on = (f: (r: Raw) => Float64Array): LabelledVector[] => samples.map((s) => ({ label: s.label, x: f(s.r) }));
const asParams = (id: string, fit: LdaFit): StatsLdaParams => ({
  modelId: id, featureNames: [], mean: fit.mean, std: fit.std, projection: fit.projection, eigenvalues: fit.eigenvalues,
  training: { speakers: [], heldOut: [], utterances: train.length, segments: samples.length, createdAt: '' },
});
interface System { name: string; embed: (r: Raw) => Float32Array }
const system = (name: string, f: (r: Raw) => Float64Array, fit: LdaFit): System => {
  const e = new StatsLdaSpeakerEmbedder(asParams(name, fit));
  return { name, embed: (r) => e.project(f(r)) };
};
const shipped = new StatsLdaSpeakerEmbedder(loadStatsLdaParams());
const msOnly = (r: Raw): Float64Array => r.ms[0]!;
const layer = (n: number) => (r: Raw): Float64Array => r.ms[n]!;
const layerStats = (n: number) => (r: Raw): Float64Array => Float64Array.from([...r.ms[n]!, ...r.stats]);
const pct = (x: number): string => (100 * x).toFixed(1);
const ci = (x: Interval, signed = false): string => `${signed && x.value >= 0 ? '+' : ''}${pct(x.value)} [${pct(x.lo)}, ${pct(x.hi)}]`;
if (layered) {
  // The choice of layer made on the training speakers alone (two folds of disjoint speakers), to set beside the held-out table.
  const folds = crossFitCandidates(samples.map((s) => ({ speaker: s.label, utterance: s.utterance, whole: s.whole, features: [s.r.stats, ...s.r.ms] })), 1 + OUTPUTS.length, 0.5, 200);
  console.log('\ntraining speakers only, 2 folds (fit on one, score the other\'s whole clips, all channels), LDA s=0.5: EER % [95 % CI]');
  ['statistics', ...OUTPUTS.map((_, n) => `layer ${n + 1}`)].forEach((name, c) =>
    console.log(`  ${name.padEnd(10)} ${folds.map((f, k) => `fold ${k + 1}: ${ci(f.systems[c]!.eer)}${c > 0 ? ` (Δ ${ci(f.systems[c]!.eerDelta!, true)})` : ''}`).join('   ')}`));
  if (process.argv.includes('--train-only')) {
    await encoder.release();
    rmSync(layered.file, { force: true });
    process.exit(0);
  }
}
const t0 = performance.now();
const systems: System[] = layered ? [
  { name: 'stats-lda-v2 (shipped)', embed: (r) => shipped.project(r.stats) },
  ...OUTPUTS.map((_, n) => system(`moonshine layer ${n + 1}/${OUTPUTS.length} lda s=0.5`, layer(n), fitLda(on(layer(n)), 24, 0.5))),
  ...[1, 2, 3].map((n) => system(`moonshine layer ${n + 1} + stats lda s=0.5`, layerStats(n), fitLda(on(layerStats(n)), 24, 0.5))),
] : [
  { name: 'stats-lda-v2 (shipped)', embed: (r) => shipped.project(r.stats) },
  system('stats-lda refit here', (r) => r.stats, fitLda(on((r) => r.stats), 24, 0.1)),
  system('moonshine-lda s=0.1', msOnly, fitLda(on(msOnly), 24, 0.1)),
  system('moonshine-lda s=0.5', msOnly, fitLda(on(msOnly), 24, 0.5)),
  system('moonshine-wccn s=0.5', msOnly, fitWccn(on(msOnly), 0.5)),
  system('moonshine+stats-lda s=0.1', concat, fitLda(on(concat), 24, 0.1)),
  system('moonshine+stats-lda s=0.5', concat, fitLda(on(concat), 24, 0.5)),
];
console.log(`projections fitted in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

const real = [...loadLibriSpeech(LIBRI_HELDOUT), ...loadSpeechBrain()];
const conditions: [string, (u: LabelledUtterance, i: number) => Float32Array][] = [
  ['clean', (u) => u.audio],
  ['phone band', (u, i) => degrade(u.audio, i + 1, PHONE_BAND)],
  ['far-field', (u, i) => degrade(u.audio, i + 1, FAR_FIELD)],
];
const cpu = { stats: 0, ms: 0, seconds: 0 };
console.log(`\nheld-out real speakers: ${real.length} utterances of ${new Set(real.map((u) => u.speaker)).size} speakers; ${ROUNDS} bootstrap rounds over utterances; minDCF at P_target ${P_TARGET}`);
console.log('| condition | window | trials same/diff | system | EER % [95 % CI] | EER − stats-lda-v2 (pp) | minDCF | mean cos same / diff |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [cond, channel] of conditions) {
  const audio = real.map(channel);
  for (const seconds of [1, 3, 6]) {
    const windows: TrialWindow[] = [];
    for (const [i, a] of audio.entries()) {
      const w = Math.round(seconds * 16_000);
      for (let k = 0; k < PER_UTTERANCE && (k + 1) * w <= a.length; k++) {
        const piece = a.subarray(k * w, (k + 1) * w);
        let t = performance.now();
        const stats = utteranceStats(piece);
        cpu.stats += performance.now() - t;
        t = performance.now();
        const ms = (await encoder.states(piece, OUTPUTS)).map((st) => poolVoiced(piece, st));
        cpu.ms += performance.now() - t;
        cpu.seconds += seconds;
        if (stats && ms.every((x) => x !== null)) windows.push({ speaker: real[i]!.speaker, utterance: i, vectors: systems.map((s) => s.embed({ stats, ms: ms as Float64Array[] })) });
      }
    }
    const report = compareOnTrials(windows, systems.length, ROUNDS);
    report.systems.forEach((s, k) => {
      const head = k === 0 ? [cond, `${seconds} s`, `${report.trials.same}/${report.trials.diff}`] : ['', '', ''];
      console.log(`| ${[...head, systems[k]!.name, ci(s.eer), s.eerDelta ? ci(s.eerDelta, true) : '—', `${s.minDcf.value.toFixed(3)} [${s.minDcf.lo.toFixed(3)}, ${s.minDcf.hi.toFixed(3)}]`, `${s.meanSame.toFixed(3)} / ${s.meanDiff.toFixed(3)}`].join(' | ')} |`);
    });
  }
}
console.log(`\nCPU, one thread, over the ${cpu.seconds.toFixed(0)} s of evaluation windows: statistics ${(cpu.stats / cpu.seconds).toFixed(1)} ms per s of audio, Moonshine-tiny encoder + pooling ${(cpu.ms / cpu.seconds).toFixed(1)} ms per s (projection: < 0.1 ms per window)`);
await encoder.release();
if (layered) rmSync(layered.file, { force: true });
