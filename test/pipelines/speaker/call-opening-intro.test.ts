/** fix7b: "this is tom" after a phone greeting names the speaker, in recognised speech with no punctuation. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectSelfIntroduction } from '../../../pipelines/speaker/self-introduction.js';

test('"thank you for calling <firm> this is <name>" names the speaker', () => {
  assert.equal(detectSelfIntroduction('thank you for calling brightside home services this is tom how can i help you'), 'Tom');
  assert.equal(detectSelfIntroduction('welcome to acme this is sarah speaking'), 'Sarah');
  assert.equal(detectSelfIntroduction("you've reached the help desk this is tom"), 'Tom');
  // Not after a thanks for calling someone, nor "this is" inside a clause.
  assert.equal(detectSelfIntroduction('thank you for calling me this is great'), null);
  assert.equal(detectSelfIntroduction("i think this is tom's car"), null);
});
