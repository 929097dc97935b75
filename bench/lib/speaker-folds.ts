import { segments } from '../../pipelines/speaker/eval-metrics.js';
import { LIBRI_TRAIN, loadLibriSpeech, loadTts, TTS_TRAIN_VOICES, type LabelledUtterance } from '../../pipelines/speaker/eval-corpus.js';
import { fitLda, type LabelledVector } from '../../pipelines/speaker/lda-trainer.js';
import type { StatsLdaParams } from '../../pipelines/speaker/stats-lda-params.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';
import { utteranceStats } from '../../pipelines/speaker/stats-features.js';
import { degrade, TRAIN_CHANNELS } from './far-field.js';

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
 * The evaluation speakers are not read.
 */
export function outOfFoldEmbedders(params: StatsLdaParams): { train: LabelledUtterance[]; embedderOf: Map<string, StatsLdaSpeakerEmbedder> } {
  const { thresholds: _t, calibration: _c, ...base } = params;
  const dims = params.projection.length;
  const train = [...loadLibriSpeech(LIBRI_TRAIN), ...loadTts(TTS_TRAIN_VOICES)];
  const augment = params.training.augmentation !== undefined;
  const stats = train.map((u, n) => ({
    u,
    segs: [u.audio, ...(augment ? TRAIN_CHANNELS.map((c, k) => degrade(u.audio, 1000 * k + n + 1, c)) : [])]
      .flatMap((clip) => [clip, ...segments(clip, 3, 1.5)]).map((a) => utteranceStats(a)).filter((x) => x !== null),
  }));
  const embedderOf = new Map<string, StatsLdaSpeakerEmbedder>();
  for (const fold of FOLDS) {
    const inFold = new Set(fold);
    const samples: LabelledVector[] = stats.filter((s) => !inFold.has(s.u.speaker)).flatMap((s) => s.segs.map((x) => ({ label: s.u.speaker, x })));
    const e = new StatsLdaSpeakerEmbedder({ ...base, ...fitLda(samples, dims, 0.1), modelId: 'fold' });
    for (const spk of fold) embedderOf.set(spk, e);
  }
  return { train, embedderOf };
}
