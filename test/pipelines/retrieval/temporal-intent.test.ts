import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { temporalIntent } from '../../../pipelines/retrieval/temporal-intent.js';

describe('temporal intent of a question', () => {
  test('now, currently, still, these days ask about what holds now', () => {
    for (const q of ['Where does Lena live now?', 'Is Ben still at Acme?', 'What does Ana currently drink?', 'Where does she work these days?']) {
      assert.equal(temporalIntent(q), 'current', q);
    }
  });

  test('before, used to, previously, last year ask about the past', () => {
    for (const q of ['Where did Lena live before?', 'Where did Ben use to work?', 'What was her previous job?',
      'Where did Lena live last year?', 'What did Ana drink previously?', 'Which city did he live in originally?']) {
      assert.equal(temporalIntent(q), 'past', q);
    }
  });

  test('a past cue wins over a current one; no cue is null', () => {
    assert.equal(temporalIntent('Where did she live before she moved to where she is now?'), 'past');
    assert.equal(temporalIntent('Where does Lena live?'), null);
    assert.equal(temporalIntent('How old is Ben?'), null);
    assert.equal(temporalIntent('What did Ana promise Ben?'), null);
  });
});
