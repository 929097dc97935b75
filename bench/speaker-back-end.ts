/**
 * Which back end after the speaker projection (pipelines/speaker/projection-back-end.ts), chosen on the TRAINING
 * speakers only: for each of the calibration folds (bench/lib/speaker-folds.ts) the projection is fitted on the
 * other two folds as `scripts/train-speaker-embedder.ts` fits it, each back end on the same projected samples, and
 * the fold's whole clips (as recorded and both training channels) are scored: every pair of clips of different
 * utterances is a trial. EER with a 95 % bootstrap interval over utterances, each back end's EER minus the raw
 * projection's on the same resamples, and the different-speaker cosine quantiles (how crowded the scores are).
 * The last system scores the centred vectors with adaptive s-norm against a cohort of the fitted speakers' whole clips
 * (its "cos" quantiles are then normalised scores). The evaluation speakers are not read.
 *
 *   npm run build --silent && node dist/bench/speaker-back-end.js [--features stats|moonshine-l1] [--rounds 200] [--snorm-only]
 */
import { argNumber } from './lib/cli.js';
import { featureKindArg, loadSpeakerFeatures } from './lib/speaker-feature-kinds.js';
import { FOLDS, foldParams, samplesOutside, trainingSamples } from './lib/speaker-folds.js';
import { compareOnTrials, type Interval, type TrialScore, type TrialWindow } from './lib/speaker-trials.js';
import { skipWithoutSharedSpeech } from './lib/shared-speech.js';
import { cosine } from '../pipelines/speaker/speaker-embedder.js';
import { BACK_END_KINDS, type BackEndChoice } from '../pipelines/speaker/projection-back-end.js';
import { StatsLdaSpeakerEmbedder } from '../pipelines/speaker/stats-lda-speaker-embedder.js';

skipWithoutSharedSpeech('speaker-back-end');
const ROUNDS = argNumber('rounds', 200);
/** Adaptive s-norm: each side's score is z-scored against its `COHORT_TOP` highest cosines to the cohort (set a priori, not tuned). */
const COHORT_TOP = 50;
const features = await loadSpeakerFeatures(featureKindArg());
const params = features.loadParams();
const { stats } = await trainingSamples(features, params.training.augmentation !== undefined);
await features.release();
/** `--snorm-only`: the raw projection, centred on all, and s-norm on it (the other back ends left out). */
const ALL_CHOICES: (BackEndChoice | null)[] = [null, ...(['all', 'real'] as const).flatMap((centredOn) => BACK_END_KINDS.map((kind) => ({ kind, centredOn })))];
const CHOICES = process.argv.includes('--snorm-only') ? ALL_CHOICES.slice(0, 2) : ALL_CHOICES;
const SYSTEMS = [...CHOICES.map((c) => (c ? `${c.kind} on ${c.centredOn}` : 'raw projection')), `centred on all + s-norm (top ${COHORT_TOP})`];
/** The s-norm system scores the centred system's vectors (index 1) against the cohort. */
const SNORM = SYSTEMS.length - 1;
const pct = (x: Interval, signed = false): string => {
  const f = (v: number): string => `${signed && v >= 0 ? '+' : ''}${(100 * v).toFixed(1)}`;
  return `${f(x.value)} [${f(x.lo)}, ${f(x.hi)}]`;
};
console.log(`${features.modelId} protocol (shrinkage ${features.shrinkage}, ${params.projection.length} dims), ${ROUNDS} bootstrap rounds over utterances`);
console.log('| fold | voices | system | EER % [95 % CI] | Δ EER vs raw (pp) [CI] | diff-speaker cos q50 / q97 / q99.5 | same-speaker cos q50 |');
console.log('|---|---|---|---|---|---|---|');
for (const [f, fold] of FOLDS.entries()) {
  const fit = samplesOutside(stats, fold);
  const embedders = CHOICES.map((c) => new StatsLdaSpeakerEmbedder(foldParams(params, fit, features.shrinkage, c)));
  const test = stats.filter((s) => fold.includes(s.u.speaker));
  // Cohort: the whole clips (every channel) of the speakers the projection was fitted on, by the centred embedder.
  const cohort = stats.filter((s) => !fold.includes(s.u.speaker)).flatMap((s) => s.segs.filter((x) => x.whole).map((x) => embedders[1]!.project(x.x)));
  const topStats = new WeakMap<TrialWindow, { mean: number; std: number }>();
  const snorm = (x: TrialWindow, y: TrialWindow, k: number): number => {
    if (k !== SNORM) return cosine(x.vectors[k]!, y.vectors[k]!);
    const s = cosine(x.vectors[1]!, y.vectors[1]!);
    const [a, b] = [x, y].map((w) => {
      let t = topStats.get(w);
      if (!t) topStats.set(w, (t = topCohort(w.vectors[1]!, cohort, COHORT_TOP)));
      return t;
    });
    return ((s - a!.mean) / a!.std + (s - b!.mean) / b!.std) / 2;
  };
  for (const voices of ['all', 'librispeech'] as const) {
    const windows: TrialWindow[] = test.flatMap((s, utterance) => voices === 'librispeech' && s.u.source !== 'librispeech' ? [] : s.segs.filter((x) => x.whole)
      .map((x) => {
        const vectors = embedders.map((e) => e.project(x.x));
        return { speaker: s.u.speaker, utterance, vectors: [...vectors, vectors[1]!] };
      }));
    const report = compareOnTrials(windows, SYSTEMS.length, ROUNDS, 1, snorm);
    SYSTEMS.forEach((name, k) => {
      const r = report.systems[k]!;
      const { same, diff } = cosines(windows, k, snorm);
      console.log(`| ${f + 1} | ${voices} | ${name} | ${pct(r.eer)} | ${r.eerDelta ? pct(r.eerDelta, true) : '—'} | ${[0.5, 0.97, 0.995].map((q) => quantile(diff, q).toFixed(3)).join(' / ')} | ${quantile(same, 0.5).toFixed(3)} |`);
    });
  }
}

/** Mean and standard deviation of the `top` highest cosines of `v` to the cohort. */
function topCohort(v: Float32Array, cohort: readonly Float32Array[], top: number): { mean: number; std: number } {
  const best = cohort.map((c) => cosine(v, c)).sort((a, b) => b - a).slice(0, top);
  const mean = best.reduce((a, b) => a + b, 0) / best.length;
  const std = Math.sqrt(best.reduce((a, b) => a + (b - mean) ** 2, 0) / best.length) || 1e-6;
  return { mean, std };
}

function cosines(windows: readonly TrialWindow[], k: number, score: TrialScore): { same: number[]; diff: number[] } {
  const same: number[] = [];
  const diff: number[] = [];
  for (let i = 0; i < windows.length; i++)
    for (let j = i + 1; j < windows.length; j++) {
      if (windows[i]!.utterance === windows[j]!.utterance) continue;
      (windows[i]!.speaker === windows[j]!.speaker ? same : diff).push(score(windows[i]!, windows[j]!, k));
    }
  return { same, diff };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
