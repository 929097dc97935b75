import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { DEFAULT_CMUDICT, phoneDistance, pronunciations, soundsLikeKnown, wordDistance } from '../../../pipelines/speaker/phonetic.js';

const noDict = existsSync(process.env.PARLEY_CMUDICT ?? DEFAULT_CMUDICT) ? false : 'pocketsphinx-en-us cmudict not installed';

describe('phone distance', () => {
  test('same phones 0, nothing shared 1, near phones cost half', () => {
    assert.equal(phoneDistance(['R', 'AA', 'B', 'ER', 'T'], ['R', 'AA', 'B', 'ER', 'T']), 0);
    assert.equal(phoneDistance(['K', 'N'], ['S', 'UW']), 1);
    assert.equal(phoneDistance(['K', 'EH', 'N'], ['S', 'UW']), 2.5 / 3, 'a vowel for a vowel costs half');
    // B→P (voicing) and AA→UW (vowel) cost 0.5 each over five phones.
    assert.equal(phoneDistance(['R', 'AA', 'B', 'ER', 'T'], ['R', 'UW', 'P', 'ER', 'T']), 0.2);
    assert.equal(phoneDistance(['R', 'AA', 'B', 'ER', 'T'], ['R', 'AA', 'K', 'ER', 'T']), 0.2);
  });
});

describe('names by sound, from the recogniser dictionary', { skip: noDict }, () => {
  test('pronunciations come from cmudict', () => {
    assert.deepEqual(pronunciations('robert'), [['R', 'AA', 'B', 'ER', 'T']]);
    assert.deepEqual(pronunciations('qzxv'), []);
  });
  test('a misheard word or a name split in two matches the one known name it sounds like', () => {
    assert.equal(soundsLikeKnown('rubber', ['robert', 'susan']), 'robert');
    assert.equal(soundsLikeKnown(['sus', 'and'], ['robert', 'susan']), 'susan');
    assert.equal(soundsLikeKnown('marry', ['mary', 'tom']), 'mary');
  });
  test('nothing close enough, an unknown word, or two names equally close: no match', () => {
    assert.equal(soundsLikeKnown('warehouse', ['robert', 'susan']), null);
    assert.equal(soundsLikeKnown('qzxv', ['robert']), null);
    assert.equal(soundsLikeKnown('allen', ['alan', 'allan']), null, 'alan and allan sound the same');
    assert.equal(wordDistance('qzxv', 'robert'), 1);
  });
});
