import assert from 'node:assert/strict';
import { test } from 'node:test';
import { softmaxPredict, softmaxProbabilities, trainSoftmax } from '../../../pipelines/memory/softmax-regression.js';

// Three well-apart clusters in 2-D, six points each, with a third feature that is noise; linearly separable.
const centres = [[0, 0], [6, 0], [0, 6]];
const jitter = [[0.4, 0.1], [-0.3, 0.5], [0.2, -0.4], [-0.5, -0.2], [0.1, 0.3], [0.3, -0.1]];
const x = centres.flatMap(([cx, cy]) => jitter.map(([dx, dy], i) => [cx! + dx!, cy! + dy!, (i * 7) % 5]));
const y = centres.flatMap((_, k) => jitter.map(() => k));

test('training converges on a separable toy set: every training point is classified right, with confidence', () => {
  const model = trainSoftmax(x, y, 3, { l2: 1e-3, iterations: 500 });
  for (const [i, row] of x.entries()) {
    assert.equal(softmaxPredict(model, row), y[i], `point ${i}`);
    assert.ok(softmaxProbabilities(model, row)[y[i]!]! > 0.8, `point ${i} is confident`);
  }
  // A new point near the second centre goes to it.
  assert.equal(softmaxPredict(model, [5.6, 0.3, 2]), 1);
});

test('a strong L2 penalty pulls probabilities towards uniform', () => {
  const loose = trainSoftmax(x, y, 3, { l2: 1e-3, iterations: 300 });
  const tight = trainSoftmax(x, y, 3, { l2: 100, iterations: 300 });
  const row = x[0]!;
  assert.ok(softmaxProbabilities(tight, row)[0]! < softmaxProbabilities(loose, row)[0]!);
  assert.ok(Math.max(...softmaxProbabilities(tight, row)) < 0.5);
});

test('probabilities sum to 1 and stay finite for points far outside the training range', () => {
  const model = trainSoftmax(x, y, 3, { l2: 1e-2 });
  for (const row of [...x, [1e4, -1e4, 3], [-50, 80, 0]]) {
    const p = softmaxProbabilities(model, row);
    assert.equal(p.length, 3);
    assert.ok(p.every((v) => Number.isFinite(v) && v >= 0));
    assert.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-9);
  }
});

test('bad input throws a clear error', () => {
  assert.throws(() => trainSoftmax([], [], 3, { l2: 0 }), /no rows/);
  assert.throws(() => trainSoftmax([[1, 2], [1]], [0, 1], 2, { l2: 0 }), /row 1 has 1 features, row 0 has 2/);
  assert.throws(() => trainSoftmax([[1, 2], [3, 4]], [0], 2, { l2: 0 }), /2 rows but 1 labels/);
  assert.throws(() => trainSoftmax([[1, 2], [3, 4]], [0, 2], 2, { l2: 0 }), /label 1 is 2, not in 0 … 1/);
  assert.throws(() => trainSoftmax([[1, Number.NaN], [3, 4]], [0, 1], 2, { l2: 0 }), /row 0 feature 1 is not a finite number/);
  assert.throws(() => trainSoftmax([[1, 2], [3, 4]], [0, 1], 1, { l2: 0 }), /classes must be an integer ≥ 2/);
  assert.throws(() => trainSoftmax([[1, 2], [3, 4]], [0, 1], 2, { l2: -1 }), /l2 must be ≥ 0/);
  const model = trainSoftmax([[1, 2], [3, 4]], [0, 1], 2, { l2: 0.1 });
  assert.throws(() => softmaxProbabilities(model, [1, 2, 3]), /row has 3 features, the model 2/);
});
