import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { wink } from '../../../pipelines/wink.js';
import { readPlanObject } from '../../../pipelines/memory/plan-object.js';
import { cancelsByObject, settlesByObject } from '../../../pipelines/memory/plan-match.js';
import { settles } from '../../../pipelines/memory/changes.js';
import { WordNet } from '../../../pipelines/retrieval/wordnet.js';
import type { PlanObject } from '../../../graph/memory-store.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { writePlanWordNet } from '../../helpers/wordnet.js';

describe('plan objects matched by meaning: derivational relatives and close kin (a small WordNet)', () => {
  const tmp = tempDir('parley-plan-wordnet-');
  after(() => tmp.remove());
  const dir = path.join(tmp.dir, 'wn');
  writePlanWordNet(dir);
  const wn = new WordNet(dir);
  const none = new WordNet(path.join(tmp.dir, 'nowhere'));
  const read = (s: string, words: WordNet = wn): PlanObject => {
    const o = readPlanObject(wink(), s, words);
    assert.ok(o, `no plan object in "${s}"`);
    return o;
  };
  /** Settles as the extractor reads the outcome (`settles`, else an action told as done), with `words`. */
  const closes = (plan: string, outcome: string, words: WordNet = wn): boolean => {
    const how = settles(outcome) ?? 'done';
    const o = read(outcome, words);
    const p = read(plan, words);
    if (how === 'cancelled') return cancelsByObject(o, p, words) === true;
    return settlesByObject(how, how === 'done' && o.past ? { ...o, actionNamed: true } : o, p, outcome, plan, words);
  };

  test('a noun derived from a verb keeps its modifiers apart; the subject of a passive keeps its complements', () => {
    assert.deepEqual(read('My passport renewal is done.').modifiers, ['passport']);
    assert.equal(read('My passport renewal is done.', none).modifiers, undefined, 'without WordNet no noun is known to be derived');
    const accepted = read('My application to the art school was accepted!');
    assert.deepEqual([accepted.objects, accepted.complements, accepted.past], [['application'], ['school'], true],
      '"to the school" is no infinitive: the outcome is told as done');
  });

  test('an outcome naming the plan\'s action by a noun, or the plan naming the outcome\'s action by one, closes it', () => {
    assert.equal(closes("I'm going to apply to the art school.", 'My application to the art school was accepted!'), true);
    assert.equal(closes("I'm going to apply to the art school.", 'I submitted the application yesterday.'), true);
    assert.equal(closes("I'll renew my passport before the summer.", 'My passport renewal is done.'), true);
    assert.equal(closes("I'm going to make a donation to the food bank.", 'I donated to the food bank yesterday.'), true);
    assert.equal(closes("I'm going to apply for the teaching job.", 'Lena cancelled her application.'), true, 'a cancellation too');
    assert.equal(closes('I have to write a reply to the landlord.', 'I replied to the landlord this morning.'), true, 'one word, noun and verb');
    assert.equal(closes("I'll renew my passport before the summer.", "Lena's passport renewal is done."), true, 'an owner is not what the action is about');
  });

  test('the same derivation naming something the plan does not closes nothing', () => {
    assert.equal(closes("I'll apply for a loan at the bank.", 'My application to art school was accepted.'), false);
    assert.equal(closes("I'm going to renew my gym membership.", 'My passport renewal is done.'), false);
    assert.equal(closes("I'm going to make a donation to the food bank.", 'I donated my old sofa to the school.'), false);
    assert.equal(closes("I'll apply for a loan at the bank.", 'I cancelled my application to the art school.'), false);
    assert.equal(closes('I have to write a reply to the landlord.', 'I replied to my sister this morning.'), false);
  });

  test('without WordNet the derivations close nothing, as before', () => {
    assert.equal(closes("I'm going to apply to the art school.", 'My application to the art school was accepted!', none), false);
    assert.equal(closes("I'll renew my passport before the summer.", 'My passport renewal is done.', none), false);
  });

  test('a decision for a close kin of the proposal\'s object settles it; a plain outcome or another action does not', () => {
    assert.equal(closes('Maybe we should get a cat.', 'We decided on a dog in the end.'), true);
    assert.equal(closes('Maybe we should get a cat.', 'We chose a hamster.'), true, '"chose" is a decision');
    assert.equal(settles("We've chosen a hamster."), 'decided');
    assert.equal(settles('Being chosen as a coach is a great step.'), null, 'chosen by others is no decision');
    assert.equal(closes('Maybe we should get a cat.', 'We decided on a dog in the end.', none), false, 'no kin without WordNet');
    assert.equal(closes('Maybe we should get a cat.', 'My neighbour got a dog last week.'), false, 'an outcome, not a choice');
    assert.equal(closes("I'll get a cat for the kids.", 'We decided on a dog in the end.'), false, 'a promise is no proposal');
    assert.equal(closes('We should buy a bigger table for the dining room.', 'We decided to hang new curtains in the dining room.'), false,
      'the decision names its own action');
    assert.equal(closes('We could take the ferry to the island.', 'We decided on the train to Paris.'), false, 'Paris is not the island');
    assert.equal(closes('We could take the ferry to the island.', 'We decided on the train.'), true);
    assert.equal(closes('We could get a puppy this summer.', 'We decided on a new sofa.'), false, 'no close kin');
  });
});
