import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wink } from '../../../pipelines/wink.js';
import { reportedSubject } from '../../../pipelines/memory/grammar.js';

test('reportedSubject: who a sentence tells about when not the speaker', () => {
  const by = (s: string): string | null => reportedSubject(wink(), s);
  assert.equal(by('Our neighbours decided on a dog.'), 'neighbor');
  assert.equal(by('My sister is going to move to Lyon.'), 'sister');
  assert.equal(by('So my older brother sold his motorbike.'), 'brother');
  assert.equal(by('My brother and his wife decided to go to Spain.'), 'brother', 'the first person named');
  assert.equal(by('My parents painted their kitchen.'), 'parent');
  assert.equal(by('Anna decided on a guitar.'), 'anna', 'a name of no participant');
  for (const s of ['I decided on a dog.', 'We decided on a dog.', 'My sister and I decided to move to Lyon.', 'My partner and I decided on the sofa.',
    'My passport renewal is done.', 'My new licence arrived in the post.', 'The plumber fixed the tap.', 'Someone bought my old sofa.',
    "Let's chat soon.", 'Maybe we should get a cat.', "I'm going to run the half marathon in May.", "I've pulled out of the race.",
    "We're going to host a garden party.", "You're going to love it.", 'Yesterday was great.']) {
    assert.equal(by(s), null, s);
  }
});
