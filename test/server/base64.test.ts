import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isBase64 } from '../../server/protocol/base64.js';

describe('isBase64: what a Twilio media payload or a query audio field must be', () => {
  test('standard base64 with or without padding, whitespace between groups', () => {
    for (const ok of ['', 'QUJD', 'QUJDRA==', 'QUJDRA=', 'QUJD\nRA==\n', 'QUJDRA= = ', 'a+b/']) assert.equal(isBase64(ok), true, ok);
  });

  test('other alphabets and stray characters are refused', () => {
    for (const bad of ['QUJD!', 'QU-J_D', 'QUJDRA===', '=QUJD', 'QUJD==RA']) assert.equal(isBase64(bad), false, bad);
  });

  // The earlier pattern matched whitespace in two places and backtracked quadratically on a refused payload: this
  // input took minutes there (40,000 characters took 2 s). The generous timeout only catches that, not a slow machine.
  test('a long refused payload of whitespace is refused without backtracking', { timeout: 120_000 }, () => {
    assert.equal(isBase64(`A${' '.repeat(400_000)}!`), false);
  });
});
