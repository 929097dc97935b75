import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERRORS, type ErrorCode } from '../../graph/core/errors.js';
import { closeReason, fitCloseReason, MAX_CLOSE_REASON_BYTES, refusalCloseCode } from '../../server/ws/close-frame.js';

test('a close reason that fits is kept whole', () => {
  assert.equal(fitCloseReason('session ended'), 'session ended');
  const exact = 'x'.repeat(MAX_CLOSE_REASON_BYTES);
  assert.equal(fitCloseReason(exact), exact);
});

test('a long close reason is cut at a word boundary, within 123 bytes, and marked as cut', () => {
  const text = closeReason('PARLEY_ERR_SESSION_ENDED', 'session CA0123456789abcdef0123456789abcdef ended at 2026-12-04T23:00:00.000Z and cannot be resumed; start a new session with another session_id');
  assert.ok(Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES, text);
  assert.equal(text, 'PARLEY_ERR_SESSION_ENDED: session CA0123456789abcdef0123456789abcdef ended at 2026-12-04T23:00:00.000Z and cannot be…');
  // Multi-byte text is counted in bytes and never split inside a character.
  const wide = fitCloseReason('é'.repeat(40) + ' ' + 'ü'.repeat(40));
  assert.equal(wide, `${'é'.repeat(40)}…`);
  // One word longer than the frame is cut between characters.
  const word = fitCloseReason('ß'.repeat(100));
  assert.ok(Buffer.byteLength(word) <= MAX_CLOSE_REASON_BYTES);
  assert.ok(word.startsWith('ß'.repeat(60)) && word.endsWith('…'), word);
});

test('a refusal is never a normal closure: an ended session refuses with its own 4001; other codes keep the table\'s', () => {
  assert.equal(refusalCloseCode('PARLEY_ERR_SESSION_ENDED'), 4001);
  assert.equal(refusalCloseCode('PARLEY_ERR_BAD_FRAME'), 1003);
  assert.equal(refusalCloseCode('PARLEY_ERR_OVERLOADED'), 1013);
  for (const code of Object.keys(ERRORS) as ErrorCode[]) assert.notEqual(refusalCloseCode(code), 1000, code);
});
