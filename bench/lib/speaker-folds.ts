import { segments } from '../../pipelines/speaker/eval-metrics.js';
import { LIBRI_TRAIN, loadLibriSpeech, loadTts, TTS_TRAIN_VOICES, type LabelledUtterance } from '../../pipelines/speaker/eval-corpus.js';
import { fitLda, type LabelledVector } from '../../pipelines/speaker/lda-trainer.js';
import { fitBackEnd, type BackEndChoice, type ProjectedSample } from '../../pipelines/speaker/projection-back-end.js';
import type { SpeakerEmbedder } from '../../pipelines/speaker/speaker-embedder.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';
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
  const { train, stats } = await trainingSamples(features, params.training.augmentation !== undefined);
  const embedderOf = new Map<string, SpeakerEmbedder>();
  for (const fold of FOLDS) {
    const samples = samplesOutside(stats, fold);
    const e = features.embedder(foldParams(params, samples, features.shrinkage));
    for (const spk of fold) embedderOf.set(spk, e);
  }
  return { train, embedderOf };
}

/** One training utterance's samples: each clip (channel 0 = as recorded, k = TRAIN_CHANNELS[k − 1]) whole and in 3 s segments. */
export interface UtteranceSamples {
  u: LabelledUtterance;
  segs: { x: Float64Array; whole: boolean; channel: number }[];
}

/** The training utterances and their samples, as the shipped projection is fitted on (channel copies when `augment`). */
export async function trainingSamples(features: SpeakerFeatures, augment: boolean): Promise<{ train: LabelledUtterance[]; stats: UtteranceSamples[] }> {
  const train = [...loadLibriSpeech(LIBRI_TRAIN), ...loadTts(TTS_TRAIN_VOICES)];
  const stats: UtteranceSamples[] = [];
  for (const [n, u] of train.entries()) {
    const clips = [u.audio, ...(augment ? TRAIN_CHANNELS.map((c, k) => degrade(u.audio, 1000 * k + n + 1, c)) : [])];
    const segs: UtteranceSamples['segs'] = [];
    for (const [channel, clip] of clips.entries())
      for (const [k, a] of [clip, ...segments(clip, 3, 1.5)].entries()) {
        const x = await features.extract(a);
        if (x) segs.push({ x, whole: k === 0, channel });
      }
    stats.push({ u, segs });
  }
  return { train, stats };
}

/** Every sample of the speakers not in `fold`. */
export function samplesOutside(stats: readonly UtteranceSamples[], fold: readonly string[]): LabelledVector[] {
  return stats.filter((s) => !fold.includes(s.u.speaker)).flatMap((s) => s.segs.map(({ x }) => ({ label: s.u.speaker, x })));
}

/** The speakers a back end may be centred on: every training voice, or the real (LibriSpeech) ones only. */
export const POPULATIONS = {
  all: { name: 'all', has: (_label: string): boolean => true },
  real: { name: 'real', has: (label: string): boolean => label.startsWith('libri-') },
} as const;

/**
 * A projection fitted on `samples` as `params` was (its dimension; its back end's kind and population, refitted
 * on the same samples, when `params` has one; or `backEnd` when given, null for none), under the model id `fold`.
 */
export function foldParams(params: StatsLdaParams, samples: LabelledVector[], shrinkage: number, backEnd: BackEndChoice | null | undefined = params.backEnd): StatsLdaParams {
  const { thresholds: _t, calibration: _c, backEnd: _b, ...base } = params;
  const fitted: StatsLdaParams = { ...base, ...fitLda(samples, params.projection.length, shrinkage), modelId: 'fold' };
  return backEnd ? { ...fitted, backEnd: fitBackEnd(projectSamples(fitted, samples), backEnd.kind, populationOf(backEnd.centredOn)) } : fitted;
}

/** The population named `name` (absent: all voices, as in files written before populations were named). */
export function populationOf(name: string | undefined): (typeof POPULATIONS)[keyof typeof POPULATIONS] {
  if (name === undefined) return POPULATIONS.all;
  if (!(name in POPULATIONS)) throw new Error(`unknown back-end population ${JSON.stringify(name)}: one of ${Object.keys(POPULATIONS).join(', ')}`);
  return POPULATIONS[name as keyof typeof POPULATIONS];
}

/** Labelled raw samples projected by `params` (its back end left out): what `fitBackEnd` takes. */
export function projectSamples(params: StatsLdaParams, samples: readonly LabelledVector[]): ProjectedSample[] {
  const { backEnd: _b, ...raw } = params;
  const lda = new StatsLdaSpeakerEmbedder(raw);
  return samples.map((s) => ({ label: s.label, y: lda.projectOnly(s.x) }));
}

/**
 * What `scripts/train-speaker-embedder.ts` writes of a fit: standardisation, LDA (`dims`, `shrinkage`) and, when
 * `backEnd` is given, the back end fitted on the same samples projected by the rounded projection; every number
 * to 6 significant digits.
 */
export function fitProjection(
  samples: LabelledVector[], dims: number, shrinkage: number, backEnd: BackEndChoice | null,
): Pick<StatsLdaParams, 'mean' | 'std' | 'projection' | 'eigenvalues' | 'backEnd'> {
  const fit = fitLda(samples, dims, shrinkage);
  const rounded = { mean: fit.mean.map(round6), std: fit.std.map(round6), projection: fit.projection.map((r) => r.map(round6)), eigenvalues: fit.eigenvalues.map(round6) };
  if (!backEnd) return rounded;
  const asParams: StatsLdaParams = { ...rounded, modelId: 'fit', featureNames: [], training: { speakers: [], heldOut: [], utterances: 0, segments: samples.length, createdAt: '' } };
  const b = fitBackEnd(projectSamples(asParams, samples), backEnd.kind, populationOf(backEnd.centredOn));
  return { ...rounded, backEnd: { kind: b.kind, centredOn: b.centredOn, centre: b.centre.map(round6), whiten: b.whiten.map((r) => r.map(round6)) } };
}

function round6(x: number): number {
  return Number(x.toPrecision(6));
}
