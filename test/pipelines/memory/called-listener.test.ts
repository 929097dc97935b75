/**
 * Rules 25: a name called at a sentence's start or end is not part of the fact, and a turn addressed to no one present
 * reads "you" as the person it calls by name (a newcomer's report: "Eve, I promise to water your plants" was stored as
 * "Eve, Dora promises to water the listener's plants").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { calledNames, withoutVocative } from '../../../pipelines/memory/called-listener.js';

const SAID = '2023-11-15T10:00:00.000Z';
const x = new EmbeddedExtractor();
const NAMES = { p_dora: 'Dora', p_ben: 'Ben' };

function input(text: string, addresseeIds: string[]) {
  return {
    current: { id: 'u1', sessionId: 's', speakerId: 'p_dora', addresseeIds, text, startMs: null, endMs: null, time: SAID, confidence: null, audioRef: null, seq: 1 },
    previous: [], names: NAMES,
  };
}
const facts = async (text: string, addresseeIds: string[] = []): Promise<ExtractedFact[]> => (await x.extract(input(text, addresseeIds))).facts;

test('a turn addressed to no one present reads "you" as the person called by name', async () => {
  const [f] = await facts('Eve, I promise to water your plants on Sunday.');
  assert.equal(f?.content, "Dora will water Eve's plants on Sunday 19 November 2023");
  assert.equal(f?.kind, 'commitment');
  // Eve is no participant: the fact names her, the graph records no addressee and nothing is about a made-up id.
  assert.deepEqual(f?.addresseeIds, []);
  assert.equal(f?.subjectId, 'p_dora');
  const [g] = await facts('I will bring the tent, Gail.');
  assert.equal(g?.content, 'Dora will bring the tent');
});

test('nothing is stored about a person only called by name (no participant to hold it)', async () => {
  const result = await x.extract(input('Eve, you live in Leeds, right? I moved to York.', []));
  assert.ok(result.facts.every((f) => !f.subjectId.includes('called') && f.addresseeIds.length === 0), JSON.stringify(result.facts));
  assert.ok(result.profileUpdates.every((p) => p.participantId === 'p_dora'), JSON.stringify(result.profileUpdates));
  assert.ok(result.facts.some((f) => /Dora moved to York/.test(f.content)), JSON.stringify(result.facts));
});

test('the addressee called by name at a sentence\'s start or end is not in the fact', async () => {
  assert.equal((await facts('Ben, my sister moved to Leeds.', ['p_ben']))[0]?.content, "Dora's sister moved to Leeds");
  assert.equal((await facts('I will bring the tent, Ben.', ['p_ben']))[0]?.content, 'Dora will bring the tent');
  assert.equal((await facts('Hey Ben, I will send you the draft on Friday.', ['p_ben']))[0]?.content,
    'Dora will send Ben the draft on Friday 17 November 2023');
});

test('a day, the speaker\'s own name or a name that is what is said stays', async () => {
  assert.deepEqual(calledNames(input('Sunday, I went to the market.', [])), []);
  assert.equal((await facts('Sunday, I went to the market.'))[0]?.content, 'On Sunday 12 November 2023, Dora went to the market');
  assert.deepEqual(calledNames(input('Dora, that is me, I live in Leeds.', [])), []);
  // Someone is addressed already: nothing is read from names called.
  assert.deepEqual(calledNames(input('Eve, I will call you.', ['p_ben'])), []);
  assert.equal(withoutVocative('Ben is a great cook.', ['Ben']), 'Ben is a great cook.');
  assert.equal(withoutVocative('Thanks Ben!', ['Ben']), 'Thanks Ben!');
  assert.equal(withoutVocative('Ben, Cy is coming on Friday.', ['Ben']), 'Cy is coming on Friday.');
});

test('a unit word naming a kind of thing is no date; "this past weekend" and "over the weekend" read whole', async () => {
  const { findDates } = await import('../../../pipelines/memory/relative-date.js');
  const { absoluteDates } = await import('../../../pipelines/memory/date-text.js');
  const T = '2023-10-16T10:00:00.000Z';
  const rewrite = (t: string): string => absoluteDates(t, findDates(t, T));
  // Exposed once "Hey Maria," no longer hid these sentences from the rules (LoCoMo dev, conv-41 and conv-26).
  assert.equal(rewrite('I started a weekend yoga class with a colleague.'), 'I started a weekend yoga class with a colleague.');
  assert.equal(rewrite('My weekend was great.'), 'My weekend was great.');
  assert.equal(rewrite('That roadtrip this past weekend was insane!'), 'That roadtrip on Sunday 15 October 2023 was insane!');
  assert.equal(rewrite('I went camping over the weekend.'), 'I went camping over Saturday 14 October 2023.');
  assert.equal(rewrite('I went hiking at the weekend.'), 'I went hiking on Saturday 14 October 2023.');
});
