/**
 * "Maya's allergic to peanuts": a name's or a noun's "'s" that is "is" (fix9, issue #16 F6). On main these made no fact
 * ("Maya's allergic to peanuts", "Sarah's a nurse", "Maya's scared of dogs") or kept "'s" glued to the subject ("Tom's
 * daughter's allergic to peanuts"); a possessive ("Maya's new job") stays.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wink } from '../../../pipelines/wink.js';
import { withContractedIs } from '../../../pipelines/memory/contracted-is.js';
import { factsSaid } from '../../helpers/extract-said.js';

const T = '2026-12-01T10:00:00.000Z';
const contents = async (text: string): Promise<string[]> =>
  (await factsSaid(text, T, ['tom', 'Tom'], ['sarah', 'Sarah'], [['maya', 'Maya']])).map((f) => f.content);

test('"\'s" before no noun is "is" ("has" before "been"); before a noun it is a possessive', () => {
  const read = (s: string): string => withContractedIs(wink(), s);
  assert.equal(read("Maya's allergic to peanuts."), 'Maya is allergic to peanuts.');
  assert.equal(read("Sarah's a nurse."), 'Sarah is a nurse.');
  assert.equal(read("Tom's really tired."), 'Tom is really tired.');
  assert.equal(read("Sarah's going to Leeds."), 'Sarah is going to Leeds.');
  assert.equal(read("Maya's been sick all week."), 'Maya has been sick all week.');
  for (const s of ["Maya's new job is great.", "Maya's big old house", "Maya's dog is called Rex.", "It's fine, let's go."]) assert.equal(read(s), s);
});

test('the fact is about the person, in words with "is"', async () => {
  assert.deepEqual(await contents("Maya's allergic to peanuts."), ['Maya is allergic to peanuts']);
  assert.deepEqual(await contents("Maya's scared of dogs."), ['Maya is scared of dogs']);
  assert.deepEqual(await contents("Sarah's allergic to peanuts so never give her peanut butter."),
    ['Sarah is allergic to peanuts so never give her peanut butter']);
  assert.deepEqual(await contents("My daughter's allergic to peanuts."), ["Tom's daughter is allergic to peanuts"]);
});
