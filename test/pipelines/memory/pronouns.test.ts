import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolvePronouns } from '../../../pipelines/memory/pronouns.js';

const who = { speaker: 'Lena', addressees: ['Ben'] };

test('first and second person become the speaker and the addressee', () => {
  assert.equal(resolvePronouns("I'll send you the draft", who), 'Lena will send Ben the draft');
  assert.equal(resolvePronouns('I hurt my back', who), 'Lena hurt their back');
  assert.equal(resolvePronouns('Is this yours?', who), "Is this Ben's?");
});

test('the compound "thank-you" keeps its "you"; a thank-you said to someone still names them', () => {
  assert.equal(resolvePronouns('I have to write a thank-you card to my aunt', who), 'Lena has to write a thank-you card to their aunt');
  assert.equal(resolvePronouns('I thanked you for the help', who), 'Lena thanked Ben for the help');
});
