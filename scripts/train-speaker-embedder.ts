/**
 * Train the weight-free speaker embedder (MFCC/pitch statistics + LDA) and write
 * pipelines/speaker/params/stats-lda-v2.json (then run scripts/calibrate-speaker.ts for thresholds).
 * `--features moonshine-l1`: the same protocol on Moonshine tiny's encoder cut after layer 1, pooled
 * (bench/lib/speaker-feature-kinds.ts), LDA shrinkage 0.5, centred (see --back-end), written to pipelines/speaker/params/moonshine-l1-v2.json;
 * it is not scored on the held-out speakers here (bench:speaker-meeting does that, once).
 *
 *   npm run build --silent && node dist/scripts/train-speaker-embedder.js [--features stats|moonshine-l1] [--dims 24] [--shrinkage S] [--back-end none|centred|wccn|whitened [--centre-on all|real]] [--no-augment]
 *
 * `--back-end`: centring and whitening of the projected vectors, fitted on the same training samples and stored
 * as `backEnd` (pipelines/speaker/projection-back-end.ts), centred on all training voices or the real ones
 * (bench/lib/speaker-folds.ts POPULATIONS); default: the feature kind's (none for stats).
 *
 * Trains on 6 LibriSpeech speakers of ../shared/data/speech and 8 flite/festival voices (4 of them
 * pitch-shifted); the other 4 LibriSpeech speakers, both SpeechBrain speakers and 4 TTS voices are
 * held out for evaluation only (calibration uses the training speakers, cross-fitted). Every training
 * clip also enters as channel-degraded copies of the same speaker (v2): a phone band, and a room at
 * 10 dB SNR with other reverb settings than the benchmark's, so the LDA learns to ignore the channel.
 * Needs flite, festival and sox.
 */
import { writeFileSync } from 'node:fs';
import { TRAIN_CHANNELS } from '../bench/lib/far-field.js';
import { parseArgs } from 'node:util';
import {
  hasSharedSpeech, LIBRI_HELDOUT, loadLibriSpeech, loadSpeechBrain, loadTts, TTS_HELDOUT_VOICES,
} from '../pipelines/speaker/eval-corpus.js';
import { equalErrorRate, mean, pairScores } from '../pipelines/speaker/eval-metrics.js';
import type { LabelledVector } from '../pipelines/speaker/lda-trainer.js';
import { BACK_END_KINDS, type BackEndKind } from '../pipelines/speaker/projection-back-end.js';
import { fitProjection, trainingSamples } from '../bench/lib/speaker-folds.js';
import { StatsLdaSpeakerEmbedder, MfccMeanSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';
import type { StatsLdaParams } from '../pipelines/speaker/stats-lda-params.js';
import { FEATURE_KINDS, loadSpeakerFeatures, type FeatureKind } from '../bench/lib/speaker-feature-kinds.js';

const { values } = parseArgs({ options: {
  features: { type: 'string', default: 'stats' }, dims: { type: 'string', default: '24' }, shrinkage: { type: 'string' },
  'back-end': { type: 'string' }, 'centre-on': { type: 'string' }, 'dry-run': { type: 'boolean', default: false }, 'no-augment': { type: 'boolean', default: false },
} });
if (!(FEATURE_KINDS as readonly string[]).includes(values.features)) throw new Error(`--features must be one of ${FEATURE_KINDS.join(', ')}`);

if (!hasSharedSpeech()) {
  console.error('train-speaker-embedder: ../shared/data/speech is absent (set PARLEY_SHARED_DATA); nothing trained');
  process.exit(1);
}
const features = await loadSpeakerFeatures(values.features as FeatureKind);
const channels = values['no-augment'] ? [] : TRAIN_CHANNELS;
// The samples cross-fitting refits on (bench/lib/speaker-folds.ts), so a fold's LDA is this one less its speakers.
const { train, stats } = await trainingSamples(features, channels.length > 0);
const samples: LabelledVector[] = stats.flatMap((s) => s.segs.map(({ x }) => ({ label: s.u.speaker, x })));
const backEnd = values['back-end'] === undefined ? features.backEnd : values['back-end'] === 'none' ? null
  : { kind: backEndArg(values['back-end']), centredOn: values['centre-on'] ?? 'all' };
const params: StatsLdaParams = {
  modelId: channels.length > 0 ? features.modelId : `${features.modelId}-noaug`,
  featureNames: features.featureNames,
  ...fitProjection(samples, Number(values.dims), values.shrinkage === undefined ? features.shrinkage : Number(values.shrinkage), backEnd),
  training: {
    speakers: [...new Set(train.map((u) => u.speaker))],
    heldOut: [...LIBRI_HELDOUT.map((s) => `libri-${s}`), 'sb-spk1', 'sb-spk2', ...TTS_HELDOUT_VOICES.map((v) => `tts-${v.id}`)],
    utterances: train.length,
    segments: samples.length,
    createdAt: new Date().toISOString(),
    ...(channels.length > 0 ? { augmentation: 'each clip also as a 300-3400 Hz phone band, and as sox reverb 30 70 60 + phone band + white noise at 10 dB SNR' } : {}),
  },
  // No thresholds: a retrained projection is a new embedding space; run scripts/calibrate-speaker.ts.
};

const heldOut = features.kind === 'stats' ? [...loadLibriSpeech(LIBRI_HELDOUT), ...loadSpeechBrain(), ...loadTts(TTS_HELDOUT_VOICES)] : [];
const lda = new StatsLdaSpeakerEmbedder(params);
const base = new MfccMeanSpeakerEmbedder();
for (const [name, emb] of heldOut.length > 0 ? [['stats-lda', lda], ['mfcc-baseline', base]] as const : []) {
  const items = await Promise.all(heldOut.map(async (u) => ({ speaker: u.speaker, vector: await emb.embed(u.audio) })));
  for (const src of ['librispeech', 'all']) {
    const sel = items.filter((_, i) => src === 'all' || heldOut[i]!.source === src);
    const { same, diff } = pairScores(sel);
    const e = equalErrorRate(same, diff);
    console.log(`${name.padEnd(14)} held-out ${src.padEnd(11)} same ${mean(same).toFixed(3)} diff ${mean(diff).toFixed(3)} EER ${(e.eer * 100).toFixed(1)}% @ ${e.threshold.toFixed(3)}`);
  }
}
console.log(`trained on ${params.training.speakers.length} speakers, ${samples.length} segments, ${params.projection.length} dims; eigenvalues ${params.eigenvalues.slice(0, 6).join(', ')}…; back end ${params.backEnd?.kind ?? 'none'}`);
if (!values['dry-run']) {
  writeFileSync(features.paramsPath, JSON.stringify(params) + '\n');
  console.log(`wrote ${features.paramsPath}`);
}
await features.release();

function backEndArg(x: string): BackEndKind {
  if (!(BACK_END_KINDS as readonly string[]).includes(x)) throw new Error(`--back-end must be none or one of ${BACK_END_KINDS.join(', ')}`);
  return x as BackEndKind;
}
