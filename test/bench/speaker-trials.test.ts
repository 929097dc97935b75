import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareOnTrials, type TrialWindow } from '../../bench/lib/speaker-trials.js';

/** Windows of `speakers` speakers, `perSpeaker` utterances each, two windows per utterance; vectors from `vec`. */
function windows(speakers: number, perSpeaker: number, vec: (speaker: number, utterance: number, k: number) => Float32Array[]): TrialWindow[] {
  const out: TrialWindow[] = [];
  let utterance = 0;
  for (let s = 0; s < speakers; s++)
    for (let u = 0; u < perSpeaker; u++, utterance++)
      for (let k = 0; k < 2; k++) out.push({ speaker: `s${s}`, utterance, vectors: vec(s, utterance, k) });
  return out;
}
const axis = (i: number, n = 4): Float32Array => Float32Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));

test('a system that puts each speaker on its own axis has EER 0 and minDCF 0; one that scores every pair alike has EER 0.5', () => {
  const w = windows(3, 3, (s) => [axis(s), Float32Array.of(1, 1, 1, 1)]);
  const r = compareOnTrials(w, 2, 50);
  // Pairs of windows of the same utterance are not trials: 3 speakers × C(3,2) utterance pairs × 2 × 2 windows.
  assert.equal(r.trials.same, 3 * 3 * 4);
  assert.equal(r.trials.diff, (C(18, 2) - 9) - 36);
  assert.equal(r.systems[0]!.eer.value, 0);
  assert.equal(r.systems[0]!.minDcf.value, 0);
  assert.equal(r.systems[0]!.meanSame, 1);
  assert.equal(r.systems[0]!.meanDiff, 0);
  assert.equal(r.systems[1]!.eer.value, 0.5);
  assert.equal(r.systems[1]!.eerDelta!.value, 0.5);
  assert.ok(r.systems[1]!.eerDelta!.lo > 0, 'the interval of a difference that holds in every resample excludes 0');
  assert.equal(r.systems[0]!.eerDelta, null);
});

test('a vector that follows the utterance parity, not the speaker, tells nobody apart; its interval brackets its EER', () => {
  // Same speaker: 1/3 of pairs at cos 1, 2/3 at 0; different speakers: 4/9 at 1, 5/9 at 0. Rejecting the
  // zeros misses 2/3 and accepts 4/9: EER (2/3 + 4/9) / 2.
  const w = windows(2, 3, (_s, u) => [axis(u % 2 === 0 ? 0 : 1)]);
  const r = compareOnTrials(w, 1, 100);
  assert.ok(Math.abs(r.systems[0]!.eer.value - (2 / 3 + 4 / 9) / 2) < 1e-12, `EER ${r.systems[0]!.eer.value}`);
  assert.ok(r.systems[0]!.eer.lo <= r.systems[0]!.eer.value && r.systems[0]!.eer.value <= r.systems[0]!.eer.hi);
});

test('the same seed gives the same intervals', () => {
  const w = windows(3, 4, (s, u, k) => [Float32Array.of(s + 1, ((u * 7 + k * 3) % 5) / 5, 1)]);
  assert.deepEqual(compareOnTrials(w, 1, 80, 7), compareOnTrials(w, 1, 80, 7));
});

test('a given trial score replaces the cosine: scoring by speaker label gives EER 0 on vectors that tell nobody apart', () => {
  const w = windows(3, 3, () => [Float32Array.of(1, 1, 1, 1)]);
  assert.equal(compareOnTrials(w, 1, 20).systems[0]!.eer.value, 0.5);
  const r = compareOnTrials(w, 1, 20, 1, (x, y) => (x.speaker === y.speaker ? 1 : 0));
  assert.equal(r.systems[0]!.eer.value, 0);
  assert.equal(r.systems[0]!.meanSame, 1);
});

function C(n: number, k: number): number {
  return k === 2 ? (n * (n - 1)) / 2 : Number.NaN;
}
