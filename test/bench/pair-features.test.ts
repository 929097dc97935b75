import assert from 'node:assert/strict';
import { test } from 'node:test';
import { confusion, knnPredict, pairFeatures, perClassRows } from '../../bench/lib/pair-features.js';

const a = Float32Array.from([0.6, 0.8, 0]);
const b = Float32Array.from([0, 0.8, 0.6]);

test('pair features: cos and the by-other flag close every set; widths follow the set', () => {
  assert.deepEqual([...pairFeatures('cos', a, b, true)].map((v) => +v.toFixed(6)), [0.64, 1]);
  const f = pairFeatures('b+interact', a, b, false);
  assert.equal(f.length, 3 * 3 + 2);
  assert.deepEqual([...f.slice(3, 6)].map((v) => +v.toFixed(6)), [0, 0.64, 0]); // e_a ⊙ e_b
  assert.deepEqual([...f.slice(6, 9)].map((v) => +v.toFixed(6)), [0.6, 0, 0.6]); // |e_a − e_b|
  assert.equal(pairFeatures('ab+interact', a, b, false).length, 4 * 3 + 2);
  assert.throws(() => pairFeatures('cos', a, Float32Array.from([1, 0]), false), /vectors of 3 and 2 dimensions/);
});

test('kNN votes for the label of the nearest training rows', () => {
  const train = [[1, 0.1], [0.9, 0], [1.1, 0.2], [0, 1], [0.1, 0.9], [-0.1, 1.2]].map((r) => Float64Array.from(r));
  const labels = [0, 0, 0, 1, 1, 1];
  assert.deepEqual(knnPredict(train, labels, 2, 3, [Float64Array.from([1, 0]), Float64Array.from([0, 1])]), [0, 1]);
  assert.throws(() => knnPredict(train, labels, 2, 0, []), /k must be a positive integer/);
  assert.throws(() => knnPredict(train, [0], 2, 1, []), /6 rows and 1 labels/);
});

test('confusion counts expected against predicted, and per-class rows read from it', () => {
  const m = confusion([0, 0, 1, 1], [0, 1, 1, 1], 2);
  assert.deepEqual(m, [[1, 1], [0, 2]]);
  assert.deepEqual(perClassRows(m, ['X', 'Y']), ['| X | 2 | 1 | 1 | 1.00 (1/1) | 0.50 (1/2) |', '| Y | 2 | 3 | 2 | 0.67 (2/3) | 1.00 (2/2) |']);
});
