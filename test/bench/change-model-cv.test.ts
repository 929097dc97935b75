import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hybridRight, parseArm } from '../../bench/lib/change-model-cv.js';
import type { Op, Result } from '../../bench/lib/change-pairs.js';

const result = (expect: Op, got: Op, othersClosed = false): Result => ({
  pair: { id: 1, family: 'f', a: { by: 'self', text: 'a' }, b: { by: 'self', text: 'b' }, expect }, got, othersClosed, split: 'held-out', aFacts: [{ content: 'a', kind: 'fact', slot: null }], bFacts: [{ content: 'b', kind: 'fact', slot: null }],
});
// Probabilities in CHANGE_CLASSES order: UPDATE, DELETE, KEEP, ADD.
const sureUpdate = [0.9, 0.05, 0.03, 0.02];

test('hybrid: the rules\' change stands; where they add, the model\'s change is taken above both bars, else ADD', () => {
  assert.equal(hybridRight(result('DELETE', 'DELETE'), sureUpdate, 0.9, 0.5, 0.5), true, 'the rules found the change: the model is not asked');
  assert.equal(hybridRight(result('UPDATE', 'DELETE'), sureUpdate, 0.9, 0.5, 0.5), false);
  assert.equal(hybridRight(result('UPDATE', 'ADD', true), sureUpdate, 0.9, 0.5, 0.5), false, 'another plan closed: wrong whatever the model says');
  assert.equal(hybridRight(result('UPDATE', 'ADD'), sureUpdate, 0.9, 0.5, 0.5), true);
  assert.equal(hybridRight(result('UPDATE', 'ADD'), sureUpdate, 0.9, 0.95, 0.5), false, 'under the cut');
  assert.equal(hybridRight(result('UPDATE', 'ADD'), sureUpdate, 0.4, 0.5, 0.5), false, 'under the floor');
  assert.equal(hybridRight(result('ADD', 'ADD'), sureUpdate, 0.4, 0.5, 0.5), true, 'a look-alike under the floor stays added');
  assert.equal(hybridRight(result('ADD', 'ADD'), sureUpdate, 0.9, 0.5, 0.5), false, 'a look-alike the model closes');
  assert.equal(hybridRight(result('UPDATE', 'ADD'), null, 0.9, 0.5, 0.5), false, 'no fact to weigh: the rules\' ADD');
});

test('the arm comes from --arms\' logreg part; a bad one is refused, naming it', () => {
  assert.deepEqual(parseArm(''), { set: 'ab+interact', l2: 0.01 });
  assert.deepEqual(parseArm('logreg:b+interact:0.1,knn:b+interact:15'), { set: 'b+interact', l2: 0.1 });
  assert.throws(() => parseArm('logreg:nope:1'), /--arms: "logreg:nope:1" is not logreg:SET:L2/);
  assert.throws(() => parseArm('logreg:cos:-1'), /is not logreg:SET:L2/);
});
