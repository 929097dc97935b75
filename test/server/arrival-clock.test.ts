import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ArrivalClock } from '../../server/ws/arrival-clock.js';

test('ArrivalClock: the arrival of the frame that holds a position; unknown past the end or once forgotten', () => {
  const clock = new ArrivalClock();
  // 100 ms frames arriving every 100 ms from t = 1000.
  for (let i = 1; i <= 3; i++) clock.record(i * 100, 1000 + i * 100);
  assert.equal(clock.arrivalOf(0), 1100, 'the first frame holds 0–100 ms');
  assert.equal(clock.arrivalOf(100), 1100);
  assert.equal(clock.arrivalOf(150), 1200);
  assert.equal(clock.arrivalOf(300), 1300);
  assert.equal(clock.arrivalOf(301), null, 'not arrived yet');

  // Ten minutes of audio: the oldest is forgotten in one go, never guessed; the last two minutes stay.
  for (let i = 4; i <= 6000; i++) clock.record(i * 100, 1000 + i * 100);
  assert.equal(clock.arrivalOf(150), null);
  assert.equal(clock.arrivalOf(600_000 - 120_000 + 50), 1000 + 600_000 - 120_000 + 100);
  assert.equal(clock.arrivalOf(599_950), 601_000);
});
