/**
 * Rules 48 (issue #16 item 2; text6): fact text leftovers. A possessive of the named subject before adjectives ("Ana
 * enjoys Ana's new job"), a joint subject named twice ("Ana and Tom will visit Ana and Tom's parents"), "they" with a
 * third-person verb ("they also likes"), a thing refused ("No coffee for me, thanks", "I'll pass on coffee") and a choice
 * said with what it turns down ("I want tea, not coffee", "not the fish but the chicken"). Each failed on rules 47.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { contentsAfter, factsSaid } from '../../helpers/extract-said.js';

const TIME = '2026-12-01T10:00:00.000Z';
const facts = (text: string): Promise<ExtractedFact[]> => factsSaid(text, TIME, ['ana', 'Ana'], ['tom', 'Tom']);
const contents = async (text: string): Promise<string[]> => (await facts(text)).map((f) => f.content);
const kinds = async (text: string): Promise<string[][]> => (await facts(text)).map((f) => [f.kind, f.content]);

const after = (before: string, text: string): Promise<string[]> => contentsAfter(before, text, TIME);

describe('rules 48: fact text leftovers', () => {
  test('the version is 48 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 48);
  });

  test('the subject\'s possessive before adjectives is a pronoun; "\'s" for "is" stays', async () => {
    // On rules 47: "Ana enjoys Ana's new job", "Ana loves Ana's big old house".
    assert.deepEqual(await contents('I really enjoy my new job.'), ['Ana enjoys their new job']);
    assert.deepEqual(await contents('hello maria i really enjoy my new job'), ['Ana enjoys their new job']);
    assert.deepEqual(await contents('I love my big old house.'), ['Ana loves their big old house']);
    for (const c of await contents("Mia's really happy, Mia's new here.")) assert.doesNotMatch(c, /\btheir\b/, c);
  });

  test('a joint subject said again is "they", its possessive "their"', async () => {
    // On rules 47: "Ana and Tom will visit Ana and Tom's parents…", "…and Ana and Tom are staying at Ben's…".
    const visit = await contents('we will visit our parents next week');
    assert.equal(visit.length, 1);
    assert.match(visit[0]!, /^Ana and Tom will visit their parents\b/);
    const stay = await contents("we're going to Lisbon in March and we're staying at Ben's for two weeks.");
    assert.equal(stay.length, 1);
    assert.match(stay[0]!, /^Ana and Tom are going to Lisbon in March 2027 and they are staying at Ben's for two weeks$/);
  });

  test('"they" takes a plural verb, and a "they" told as one person a singular one', async () => {
    assert.deepEqual(await contents('my parents like hiking and they also likes camping'), ["Ana's parents like hiking and they also like camping"]);
    // On rules 47: "Nora love it there", "Nora are moving…".
    assert.deepEqual(await after('How is your cousin Nora?', 'They love it there.'), ['Nora loves it there']);
    assert.deepEqual(await after('How is your cousin Nora?', 'They are moving again in May.'), ['Nora is moving again in May 2027']);
    // "I'm" is no one's name: "I'm're full of potholes" on rules 47 (LoCoMo dev).
    assert.deepEqual(await after("Wow, so I'm told.", "They're full of potholes."), ["They're full of potholes"]);
  });

  test('a thing refused is turned down, no promise and not nothing', async () => {
    // On rules 47: no fact, and the commitment "Ana will pass on coffee".
    assert.deepEqual(await kinds('No coffee for me, thanks.'), [['statement', 'Ana turned down coffee']]);
    assert.deepEqual(await kinds('no coffee for me thanks'), [['statement', 'Ana turned down coffee']]);
    assert.deepEqual(await kinds("I'll pass on coffee."), [['statement', 'Ana turned down coffee']]);
    assert.deepEqual(await kinds("I think I'll pass on the dessert, thanks."), [['statement', 'Ana turned down the dessert']]);
    assert.deepEqual(await facts('No problem for me, thanks.'), []);
    assert.deepEqual(await facts('no more for me thanks'), []);
  });

  test('"X, not Y" and "not Y but X": the fact is X, and Y is turned down', async () => {
    // On rules 47: "Ana wants tea, not coffee", "Ana will have not the fish but the chicken", and no fact at all.
    assert.deepEqual(await kinds('I want tea, not coffee.'), [['statement', 'Ana wants tea'], ['statement', 'Ana turned down coffee']]);
    assert.deepEqual(await kinds("I'll have not the fish but the chicken."), [['commitment', 'Ana will have the chicken'], ['statement', 'Ana turned down the fish']]);
    assert.deepEqual(await contents('Not coffee but tea, please.'), ['Ana would like tea', 'Ana turned down coffee']);
    assert.deepEqual(await contents("We'll take the train, not the bus."), ['Ana and Tom will take the train', 'Ana and Tom turned down the bus']);
    // A correction of another thing is no choice, a clause after "but" none either, and a preference keeps its slot.
    assert.ok((await contents('The meeting is on Tuesday, not Monday.')).every((c) => /\bnot\b/.test(c) && !/turned down/.test(c)));
    assert.ok((await contents("I'm not tired but I'll stay home.")).every((c) => !/turned down/.test(c)));
    assert.deepEqual((await facts('I prefer tea, not coffee.')).map((f) => f.slot), ['preference:tea']);
  });
});
