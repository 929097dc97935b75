import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asksQuestion, hasContent } from '../../../pipelines/retrieval/turn-evidence.js';

test('hasContent: acknowledgements and function words alone are no evidence; a content word or a number is', () => {
  for (const text of ['Noted.', 'Okay, got it.', 'Thanks!', 'Sure, see ya. Bye!', 'Sounds great!', 'Yes.', "That's true.", '']) {
    assert.equal(hasContent(text), false, text);
  }
  for (const text of ['Noted, the flight is on Friday.', 'Salmon.', '5', 'Eva', 'Yes, in Porto.']) assert.equal(hasContent(text), true, text);
});

test('asksQuestion: the same words, case and punctuation aside; a blank question asks nothing', () => {
  assert.equal(asksQuestion('what does my cat Miko eat', 'What does my cat Miko eat?'), true);
  assert.equal(asksQuestion('What does my cat eat?', 'What does my cat Miko eat?'), false);
  assert.equal(asksQuestion('?', '?!'), false);
});
