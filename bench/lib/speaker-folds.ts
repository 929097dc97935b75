import { segments } from '../../pipelines/speaker/eval-metrics.js';
import { LIBRI_TRAIN, loadLibriSpeech, loadTts, TTS_TRAIN_VOICES, type LabelledUtterance } from '../../pipelines/speaker/eval-corpus.js';
import { fitLda, type LabelledVector } from '../../pipelines/speaker/lda-trainer.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import type { StatsLdaParams } from '../../pipelines/speaker/stats-lda-params.js';
import { degrade, TRAIN_CHANNELS } from './far-field.js';
import type { SpeakerFeatures } from './speaker-feature-kinds.js';

/** Folds of training speakers; a TTS voice and its pitch-shifted copy stay in one fold. */
export const FOLDS: string[][] = [
  ['libri-367', 'libri-533', 'tts-flite-awb', 'tts-flite-awb-up300'],
  ['libri-1998', 'libri-1688', 'tts-flite-rms', 'tts-flite-rms-down250'],
  ['libri-2033', 'libri-2414', 'tts-flite-kal16', 'tts-flite-kal16-up400', 'tts-festival-kal', 'tts-festival-kal-down300'],
];

/**
 * Cross-fitting on the training speakers (LIBRI_TRAIN, TTS_TRAIN_VOICES): for each fold an LDA is fitted
 * on the other two folds, from the same samples the shipped projection was fitted on (each clip, its
 * channel copies, 3 s segments), so every training speaker has an embedder that never saw its voice.
 * `features` are the kind the projection `params` was fitted on. The evaluation speakers are not read.
 */
export async function outOfFoldEmbedders(
  params: StatsLdaParams, features: SpeakerFeatures,
): Promise<{ train: LabelledUtterance[]; embedderOf: Map<string, SpeakerEmbedder> }> {
  const { thresholds: _t, calibration: _c, ...base } = params;
  const dims = params.projection.length;
  const train = [...loadLibriSpeech(LIBRI_TRAIN), ...loadTts(TTS_TRAIN_VOICES)];
  const augment = params.training.augmentation !== undefined;
  const stats: { u: LabelledUtterance; segs: Float64Array[] }[] = [];
  for (const [n, u] of train.entries()) {
    const clips = [u.audio, ...(augment ? TRAIN_CHANNELS.map((c, k) => degrade(u.audio, 1000 * k + n + 1, c)) : [])];
    const segs: Float64Array[] = [];
    for (const a of clips.flatMap((clip) => [clip, ...segments(clip, 3, 1.5)])) {
      const x = await features.extract(a);
      if (x) segs.push(x);
    }
    stats.push({ u, segs });
  }
  const embedderOf = new Map<string, SpeakerEmbedder>();
  for (const fold of FOLDS) {
    const inFold = new Set(fold);
    const samples: LabelledVector[] = stats.filter((s) => !inFold.has(s.u.speaker)).flatMap((s) => s.segs.map((x) => ({ label: s.u.speaker, x })));
    const e = features.embedder({ ...base, ...fitLda(samples, dims, features.shrinkage), modelId: 'fold' });
    for (const spk of fold) embedderOf.set(spk, e);
  }
  return { train, embedderOf };
}
