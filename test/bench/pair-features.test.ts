import assert from 'node:assert/strict';
import { test } from 'node:test';
import { confusion, knnPredict, perClassRows } from '../../bench/lib/pair-features.js';

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
