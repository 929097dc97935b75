/**
 * Choosing a feature (an encoder layer) on the training speakers only: two folds of disjoint training speakers
 * (each real speaker and each TTS base voice, with its pitch-shifted copy, in one fold), a projection fitted on
 * one fold and scored on the other's whole clips (every channel copy; pairs of one utterance's copies excluded).
 */
import { fitLda, type LabelledVector } from '../../pipelines/speaker/lda-trainer.js';
import { StatsLdaSpeakerEmbedder } from '../../pipelines/speaker/stats-lda-speaker-embedder.js';
import { compareOnTrials, type TrialReport, type TrialWindow } from './speaker-trials.js';

/** A training sample: its speaker, source utterance, whether it is a whole clip, and its candidate features. */
export interface FoldSample { speaker: string; utterance: number; whole: boolean; features: Float64Array[] }

/** Fold of a training speaker: the first fold holds these real speakers and TTS base voices (and their shifted copies). */
const FIRST_FOLD = ['libri-367', 'libri-533', 'libri-1998', 'tts-flite-awb', 'tts-flite-rms'];
const foldOf = (speaker: string): 0 | 1 => (FIRST_FOLD.some((s) => speaker === s || speaker.startsWith(`${s}-`)) ? 0 : 1);

/** Per fold held out: the trial report of every candidate (LDA fitted on the other fold, `shrinkage`). */
export function crossFitCandidates(samples: FoldSample[], candidates: number, shrinkage: number, rounds: number): TrialReport[] {
  return ([0, 1] as const).map((held) => {
    const fit = samples.filter((s) => foldOf(s.speaker) !== held);
    const test = samples.filter((s) => foldOf(s.speaker) === held && s.whole);
    const embedders = Array.from({ length: candidates }, (_, c) => {
      const lda = fitLda(fit.map((s): LabelledVector => ({ label: s.speaker, x: s.features[c]! })), 24, shrinkage);
      return new StatsLdaSpeakerEmbedder({ modelId: `candidate-${c}`, featureNames: [], ...lda, training: { speakers: [], heldOut: [], utterances: 0, segments: fit.length, createdAt: '' } });
    });
    const windows: TrialWindow[] = test.map((s) => ({ speaker: s.speaker, utterance: s.utterance, vectors: embedders.map((e, c) => e.project(s.features[c]!)) }));
    return compareOnTrials(windows, candidates, rounds);
  });
}
