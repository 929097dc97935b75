import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RecentTurns } from '../../server/ws/recent-turns.js';

// A live session's word match left out every remembered turn with the question's words; over HTTP only the newest is
// left out (an earlier one saying it too, anyone's, stays evidence). One rule now, the HTTP one.
test('RecentTurns.asking: the newest remembered turn with the question\'s words, only that one', () => {
  const recent = new RecentTurns(3);
  recent.add('first', 'Where did Kim move?');
  recent.add('reply', 'To Paris.');
  recent.add('again', 'where did KIM move');
  assert.deepEqual(recent.asking('Where did Kim move?'), ['again']);
  assert.deepEqual(recent.asking('?'), [], 'a blank question asks nothing');
  recent.add('other', 'Thanks.');
  recent.add('more', 'Bye.');
  recent.add('last', 'See you.');
  assert.deepEqual(recent.asking('Where did Kim move?'), [], 'forgotten past the window');
  assert.equal(recent.has('first'), false);
});
