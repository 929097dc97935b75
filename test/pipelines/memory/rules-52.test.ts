/**
 * Rules 52 (issue #16 F6, F9; a home robot's newcomer trial): what a speaker asks of the listener about memory itself.
 * Each test fails on main df12e20f (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { factsSaid } from '../../helpers/extract-said.js';

const TIME = '2026-12-05T10:00:00.000Z';
const facts = (text: string): Promise<ExtractedFact[]> => factsSaid(text, TIME, ['ben', 'Ben'], ['donna', 'Donna']);
const read = async (text: string): Promise<Array<[string, string, string | null]>> => (await facts(text)).map((f) => [f.kind, f.content, f.slot]);

/** The facts of `text` said by Ben to Donna after Ben said `before`, in the same session. */
async function after(before: string, text: string): Promise<ExtractedFact[]> {
  const turn = (id: string, said: string, seq: number) => ({ id, sessionId: 's', speakerId: 'ben', addresseeIds: ['donna'], text: said,
    startMs: null, endMs: null, time: TIME, confidence: null, audioRef: null, seq });
  return (await new EmbeddedExtractor().extract({ current: turn('u2', text, 2), previous: [turn('u1', before, 1)], names: { ben: 'Ben', donna: 'Donna' } })).facts;
}

describe('rules 52: a request to remember', () => {
  test('the version is 52 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 52);
  });

  test('is the statement it asks to keep, the speaker\'s own', async () => {
    // On main: "Ben asked Donna to remember that they are allergic to nuts" and "Please remember that Ben is allergic to nuts".
    assert.deepEqual(await read('please remember that I am allergic to nuts'), [['profile', 'Ben is allergic to nuts', 'allergy:nut']]);
    // On main: "Remember that Ben is allergic to nuts"; and nothing at all.
    assert.deepEqual(await read('Remember that I am allergic to nuts.'), [['profile', 'Ben is allergic to nuts', 'allergy:nut']]);
    assert.deepEqual(await read("Don't forget that I am allergic to nuts."), [['profile', 'Ben is allergic to nuts', 'allergy:nut']]);
    assert.deepEqual(await read("Donna, please remember I'm vegan."), [['profile', 'Ben is vegan', 'diet']]);
  });

  test('a request to do something, or a question, is no statement', async () => {
    assert.ok(!(await facts('Remember to buy milk.')).some((f) => f.kind === 'profile' || /^Buy milk/i.test(f.content)));
    assert.deepEqual(await read('Remember that trip to Paris?'), []);
    assert.ok(!(await facts("Don't forget the milk.")).some((f) => f.content === 'The milk'));
  });
});

describe('rules 52: an allergy corrected', () => {
  test('is the allergy told, ending the one denied', async () => {
    // On main: the nut allergy withdrawn ("Ben is not allergic to nuts, it was peanuts"), and no peanut allergy.
    for (const text of ['actually I am not allergic to nuts, it was peanuts', "I'm not allergic to nuts, I'm allergic to peanuts.", 'I am allergic to peanuts, not nuts.']) {
      assert.deepEqual((await facts(text)).map((f) => [f.content, f.slot, f.value, f.endsSlot, f.retraction]),
        [['Ben is allergic to peanuts, not nuts', 'allergy:peanuts', 'allergic', 'allergy:nut', false]], text);
    }
    // Denied alone, it is withdrawn as before.
    assert.deepEqual((await facts("I'm not allergic to nuts.")).map((f) => [f.slot, f.retraction]), [['allergy:nut', true]]);
  });

  test('is only an allergen: a hedge is dropped, and a person or a way of feeling corrects nothing', async () => {
    // On main (review of rules 52): "Ben is allergic to just the dust, not cats" (slot allergy:just the dust).
    assert.deepEqual((await facts("I'm not allergic to cats, it is just the dust.")).map((f) => [f.content, f.slot, f.endsSlot]),
      [['Ben is allergic to dust, not cats', 'allergy:dust', 'allergy:cat']]);
    assert.deepEqual((await facts("I'm not allergic to nuts, it's shellfish.")).map((f) => [f.content, f.slot, f.endsSlot]),
      [['Ben is allergic to shellfish, not nuts', 'allergy:shellfish', 'allergy:nut']]);
    // On main: "Ben is allergic to sensitive, not nuts" (allergy:sensitive), "… to my brother, not penicillin"
    // (allergy:brother): the allergy denied is only withdrawn, and nothing else is an allergy.
    for (const [text, slot] of <Array<[string, string]>>[["I'm not allergic to nuts, just sensitive.", 'allergy:nut'], ["I'm not allergic to penicillin, it was my brother.", 'allergy:penicillin'],
      ["I'm not allergic to nuts, just intolerant.", 'allergy:nut'], ["I'm not allergic to cats, it was him.", 'allergy:cat']]) {
      const got = await facts(text);
      assert.ok(!got.some((f) => f.slot?.startsWith('allergy:') && !f.retraction && f.slot !== slot), `${text}: ${JSON.stringify(got.map((f) => [f.content, f.slot]))}`);
      assert.ok(!got.some((f) => /allergic to (?:sensitive|my brother|brother|intolerant|him)\b/i.test(f.content)), text);
      assert.ok(got.some((f) => f.slot === slot && f.retraction), `${text}: ${JSON.stringify(got.map((f) => [f.content, f.slot, f.retraction]))}`);
    }
  });
});

describe('rules 52: a withdrawal asked of the listener', () => {
  const before = 'I hid the birthday present in the garage.';
  test('withdraws the speaker\'s last statement and is no fact', async () => {
    // On main: "Robot forget what Ben just said" (spoken), and nothing withdrawn (typed).
    for (const text of ['robot forget what i just said', 'Forget what I just said.', 'forget i said that', 'Please ignore that.',
      'Never mind what I said, robot.', 'Donna, disregard that please.']) {
      const got = await after(before, text);
      assert.deepEqual(got.map((f) => [f.retraction, f.content]), [[true, 'Ben withdrew: they hid the birthday present in the garage.']], text);
    }
  });

  test('"I forget what she said" and "don\'t forget the milk" are no withdrawal', async () => {
    for (const text of ['I forget what she said.', "Don't forget the milk."]) {
      assert.ok(!(await after(before, text)).some((f) => f.retraction), text);
    }
  });
});
