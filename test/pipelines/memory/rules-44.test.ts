/**
 * Rules 44 (issue #16 items 2–4; a newcomer's trial): unpunctuated speech loses no clause ("i live in lisbon now last
 * week i went hiking in the mountains" gave only the home), with no false cut ("i think i will", "i know you said"); a
 * lower-case turn's derived attributes are capitalised as its facts are ("lives_in: Lisbon"); a leading "No," drops
 * nothing ("No, Dora moved back to Paris.").
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { factsSaid, slotsOf } from '../../helpers/extract-said.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

const TIME = '2026-12-01T10:00:00.000Z';
const facts = (text: string): Promise<ExtractedFact[]> => factsSaid(text, TIME, ['lee', 'Lee'], ['ned', 'Ned']);

describe('rules 44: unpunctuated speech', () => {
  test('the version is 44 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 44);
  });

  test('a clause after a time phrase and a subject pronoun is a fact of its own', async () => {
    // On rules 42 each gave its first clause only.
    const lisbon = await facts('i live in lisbon now last week i went hiking in the mountains');
    assert.deepEqual(slotsOf(lisbon), ['lives_in=lisbon']);
    assert.ok(lisbon.some((f) => /\bLee went hiking in the mountains\b/.test(f.content)), JSON.stringify(lisbon.map((f) => f.content)));
    const porto = await facts('i moved to porto yesterday i will call my mother tomorrow');
    assert.deepEqual(slotsOf(porto), ['lives_in=porto']);
    const call = porto.find((f) => /call (Lee's|their) mother/.test(f.content)); // rules 45: a repeated possessive reads "their"
    assert.equal(call?.kind, 'commitment', JSON.stringify(porto.map((f) => [f.kind, f.content])));
    // "yesterday" ends the move, not the call: the call is dated tomorrow.
    assert.match(call.content, /Wednesday 2 December 2026/);
    const electrician = await facts('i work as an electrician i will call you on friday');
    assert.deepEqual(slotsOf(electrician), ['occupation=electrician']);
    assert.ok(electrician.some((f) => f.kind === 'commitment' && /call Ned/.test(f.content)));
  });

  test('a clause that takes a clause, a relative clause and punctuated text are not cut', async () => {
    const think = await facts('i think i will go to the gym later');
    assert.deepEqual(think.map((f) => f.content), ['Lee will go to the gym later']);
    const know = await facts('i know you said the meeting was on friday');
    assert.equal(know.length, 1);
    assert.match(know[0]!.content, /^Lee knows Ned said the meeting was/);
    for (const said of ['i told my brother i would fix his bike on saturday', 'i hope i can visit my aunt next week', 'the flat i rented last year was tiny',
      'i guess i start at the new school on monday', 'i remember i went hiking there last summer']) {
      assert.equal((await facts(said)).length <= 1, true, said);
    }
    // "for now" is the preposition's: the liking held for now stays its own clause's (rules 38), not cut at "I'm".
    const techno = await facts("i love jazz but for now i'm really into techno");
    assert.ok(techno.some((f) => f.slot === 'preference:for_now' && /techno/.test(f.content)), JSON.stringify(techno.map((f) => [f.slot, f.content])));
  });

  test('a lower-case turn stores its derived attribute capitalised, as the fact says it', async () => {
    // On rules 42 the attribute read "lisbon" beside the fact "Lee lives in Lisbon".
    const f = await memoryFixture('parley-rules44-case', ['Lee', 'Ned']);
    try {
      await f.say('s1', 'Lee', ['Ned'], 'i live in lisbon now last week i went hiking in the mountains', TIME);
      const lee = await f.graph.getParticipant('parley-rules44-case', f.people.Lee!);
      assert.equal(lee?.attributes.lives_in, 'Lisbon', JSON.stringify(lee?.attributes));
      const facts = await f.memory.listFacts('parley-rules44-case');
      assert.ok(facts.some((x) => /went hiking in the mountains/.test(x.content)), JSON.stringify(facts.map((x) => x.content)));
    } finally {
      await f.close();
    }
  });

  test('a leading "No," is a correction: the statement after it is stored', async () => {
    // On rules 42 "No," made the sentence a reply, and nothing was stored.
    const said = (text: string): Promise<ExtractedFact[]> => factsSaid(text, TIME, ['lee', 'Lee'], ['ned', 'Ned'], [['dora', 'Dora']]);
    const [dora] = await said('No, Dora moved back to Paris.');
    assert.deepEqual([dora?.subjectId, dora?.content], ['dora', 'Dora moved back to Paris']);
    const [shop] = await said('No, the shop on the corner shut down.');
    assert.equal(shop?.content, 'The shop on the corner shut down');
    for (const reply of ['No, thanks.', "No, that's fine.", "No, Ned, I can't."]) assert.deepEqual(await said(reply), [], reply);
  });

  test('a job held with a title: the employer is the value, the title its own occupation; leaving it ends it', async () => {
    // On rules 42 works_at was "Initech as an engineer", left open by "I don't work at Initech anymore", and "I joined
    // Globex" said after it in the same turn was not stored.
    assert.deepEqual(slotsOf(await facts('I work at Initech as an engineer.')), ['works_at=Initech', 'occupation=engineer']);
    assert.deepEqual(slotsOf(await facts("I don't work at Initech anymore, I joined Globex.")), ['works_at ended if =Initech', 'works_at=Globex']);
    const f = await memoryFixture('parley-rules44-job', ['Lee', 'Ned']);
    try {
      await f.say('s1', 'Lee', ['Ned'], 'I work at Initech as an engineer.', '2026-11-20T10:00:00.000Z');
      await f.say('s1', 'Lee', ['Ned'], "I don't work at Initech anymore, I joined Globex.", '2026-11-25T10:00:00.000Z');
      const jobs = (await f.memory.listFacts('parley-rules44-job')).filter((x) => x.slot === 'works_at');
      const open = jobs.filter((x) => !x.validTo).map((x) => x.value);
      assert.deepEqual(open, ['Globex'], JSON.stringify(jobs.map((x) => [x.value, x.validTo])));
      const lee = await f.graph.getParticipant('parley-rules44-job', f.people.Lee!);
      assert.equal(lee?.attributes.works_at, 'Globex');
      assert.equal(lee?.attributes.occupation, 'engineer');
    } finally {
      await f.close();
    }
  });
});
