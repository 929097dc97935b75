/**
 * Rules 45 (issue #16 item 2; text5): fact text a person would write. A subject named once ("Ana can't lift heavy
 * things, they hurt their back"); no discourse tag at a clause's edge; no fact opening with a bare pronoun (the one
 * person named in the previous turns, else no fact); no liking of "things" and no persona target in "bye ben". Each in
 * lower-case unpunctuated speech too, as a recogniser writes it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { affectTarget } from '../../../pipelines/affect/attribution.js';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { contentsAfter, factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

const TIME = '2026-12-01T10:00:00.000Z';
const facts = (text: string): Promise<ExtractedFact[]> => factsSaid(text, TIME, ['ana', 'Ana'], ['tom', 'Tom']);
const contents = async (text: string): Promise<string[]> => (await facts(text)).map((f) => f.content);

const after = (before: string, text: string): Promise<string[]> => contentsAfter(before, text, TIME);

describe('rules 45: fact text a person would write', () => {
  test('the version is 45 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 45);
  });

  test('a subject said again in a later clause is a pronoun', async () => {
    // On rules 44: "Ana can't lift heavy things, Ana hurt their back", "Mia can't come, Mia has the flu".
    assert.deepEqual(await contents("I can't lift heavy things, I hurt my back."), ["Ana can't lift heavy things, they hurt their back"]);
    assert.deepEqual(await contents("i can't lift heavy things i hurt my back"), ["Ana can't lift heavy things they hurt their back"]);
    assert.deepEqual(await contents('Mia lost her keys, Mia is so annoyed.'), ['Mia lost her keys, she is so annoyed']);
    assert.deepEqual(await contents("Mia can't come, Mia has the flu."), ["Mia can't come, they have the flu"]);
    // Said again as a possessive: "Ana will phone Ana's brother" on rules 44.
    assert.deepEqual(await contents('tomorrow i will phone my brother'), ['Ana will phone their brother']);
    // A name as the object of a verb that takes a clause stays.
    assert.ok((await contents('Tom saw Tom leave early.')).every((c) => !/\bthey\b/.test(c)));
  });

  test('discourse tags at a clause edge are left out, punctuated or not', async () => {
    for (const [said, slot] of [['By the way, I work at the post office.', 'works_at'], ['i love tennis you know', 'preference:tennis'],
      ['to be honest i hate mornings so yeah', 'preference:morning'], ["no tom i said by the way i'm a nurse", 'occupation']] as const) {
      const out = await facts(said);
      assert.ok(out.length > 0, said);
      for (const f of out) assert.doesNotMatch(f.content, /\b(?:by the way|you know|to be honest|so yeah|Tom know|said)\b/i, said);
      if (slot) assert.ok(out.some((f) => f.slot === slot), `${said}: ${JSON.stringify(out.map((f) => f.slot))}`);
    }
    // A hedge after what it hedges, and "honestly" closing a clause: "Ana is a decent cook Ana guesses" on rules 44.
    assert.deepEqual(await contents("i'm a decent cook i guess"), ['Ana is a decent cook']);
    assert.deepEqual(await contents("i'm a pretty good swimmer honestly"), ['Ana is a pretty good swimmer']);
    // "let you know" and "I'll come anyway" keep their words.
    assert.ok((await contents("I'll let you know on Friday")).some((c) => /let Tom know/.test(c)));
  });

  test('an opening pronoun takes the one person named before, else the fact is kept as said', async () => {
    assert.deepEqual(await after('My cousin Nora had an interview today.', 'She did, but she missed the bus.'), ['Nora did, but she missed the bus']);
    assert.deepEqual(await after('how is your uncle pete', "he said he's quitting his job"), ["Pete said he's quitting his job"]);
    // Two women named before (ambiguous), or no one: the memory is kept as said, its source turns telling who was meant
    // (dropping it lost outcomes that settle plans: "She's picked up the cake").
    assert.deepEqual(await after('I met Kim and Lisa yesterday.', "She said she's pregnant."), ["She said she's pregnant"]);
    assert.deepEqual(await contents('She is moving to Rome.'), ['She is moving to Rome']);
    for (const c of await contents('It was great, we went to the beach.')) assert.doesNotMatch(c, /^(?:it|she|he|they)\b/i);
    // The subject is named once after the opening pronoun is told, not before as well: the pronoun read as a subject
    // turned "he" after "her" into "they" ("Pete told her they are moving").
    assert.deepEqual(await after('how is your uncle pete', 'He told her he is moving to Canada.'), ['Pete told her he is moving to Canada']);
  });

  test('generic nouns are no liking and greetings are no persona target', async () => {
    assert.deepEqual(await facts('i like things'), []);
    assert.ok((await facts('I love stuff like that.')).every((f) => f.kind !== 'preference' && f.slot === null));
    assert.ok((await facts('I love jazz.')).some((f) => f.slot === 'preference:jazz'));
    assert.equal(affectTarget('bye tom'), null);
    assert.equal(affectTarget('Goodbye Dora'), null);
    assert.equal(affectTarget('hi ben i love the new car'), 'new car');
    assert.equal(affectTarget('I love things'), null);
  });

  test('through consolidation the stored fact names its subject once and keeps no tag', async () => {
    const f = await memoryFixture('parley-rules45-case', ['Ana', 'Tom']);
    try {
      await f.say('s1', 'Ana', ['Tom'], "by the way i can't lift heavy things i hurt my back", TIME);
      const stored = (await f.memory.listFacts('parley-rules45-case')).map((x) => x.content);
      assert.ok(stored.some((c) => /^Ana can't lift heavy things they hurt their back$/.test(c)), JSON.stringify(stored));
    } finally {
      await f.close();
    }
  });
});
