import assert from 'node:assert/strict';
import { test } from 'node:test';
import { seededRandom } from '../../bench/lib/seeded-random.js';
import { crossFitCandidates, type FoldSample } from '../../bench/lib/speaker-layer-choice.js';
import { LIBRI_TRAIN, TTS_TRAIN_VOICES } from '../../pipelines/speaker/eval-corpus.js';

test('cross-fitting over training speakers ranks an informative feature above noise in both folds', () => {
  const speakers = [...LIBRI_TRAIN.map((s) => `libri-${s}`), ...TTS_TRAIN_VOICES.map((v) => `tts-${v.id}`)];
  const next = seededRandom(5);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const centre = speakers.map(() => Array.from({ length: 6 }, () => 3 * gauss()));
  const samples: FoldSample[] = [];
  let utterance = 0;
  speakers.forEach((speaker, k) => {
    for (let u = 0; u < 6; u++, utterance++)
      for (let copy = 0; copy < 2; copy++) {
        const voice = Float64Array.from(centre[k]!, (c) => c + gauss());
        const noise = Float64Array.from({ length: 6 }, () => gauss());
        samples.push({ speaker, utterance, whole: true, features: [voice, noise] });
      }
  });
  const folds = crossFitCandidates(samples, 2, 0.1, 20);
  assert.equal(folds.length, 2);
  // Seven speakers per fold (3 real, 2 TTS voices with their shifted copies), each with 12 windows of 6
  // utterances: C(12, 2) − 6 same-utterance pairs = 60 same-speaker trials per speaker.
  assert.deepEqual(folds.map((f) => f.trials.same), [7 * 60, 7 * 60]);
  for (const f of folds) {
    assert.ok(f.systems[0]!.eer.value < 0.2, `voice EER ${f.systems[0]!.eer.value}`);
    assert.ok(f.systems[1]!.eer.value > 0.3, `noise EER ${f.systems[1]!.eer.value}`);
  }
});
