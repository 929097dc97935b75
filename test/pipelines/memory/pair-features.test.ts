import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pairFeatures, SHAPE_WIDTH, shapeFeatures } from '../../../pipelines/memory/pair-features.js';

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

test('pair features with shapes: kinds and slots follow the vectors; the set refuses a row without them', () => {
  const lives = { kind: 'fact', slot: 'lives_in' };
  const works = { kind: 'fact', slot: 'works_at' };
  const plain = { kind: 'plan', slot: null };
  assert.deepEqual(shapeFeatures(lives, lives), [1, 1, 0, 1, 1]);
  assert.deepEqual(shapeFeatures(lives, works), [1, 0, 1, 1, 1]);
  assert.deepEqual(shapeFeatures(lives, plain), [0, 0, 0, 1, 0]);
  assert.deepEqual(shapeFeatures(plain, plain), [1, 0, 0, 0, 0]);
  const f = pairFeatures('ab+interact+shape', a, b, true, [lives, works]);
  assert.equal(f.length, 4 * 3 + 2 + SHAPE_WIDTH);
  assert.deepEqual([...f.slice(-SHAPE_WIDTH - 2)].map((v) => +v.toFixed(6)), [0.64, 1, 1, 0, 1, 1, 1]);
  assert.deepEqual([...pairFeatures('ab+interact', a, b, true, [lives, works])], [...pairFeatures('ab+interact', a, b, true)], 'shapes ignored by a set without them');
  assert.throws(() => pairFeatures('ab+interact+shape', a, b, true), /ab\+interact\+shape needs the two facts' shapes/);
});
