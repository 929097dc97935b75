/**
 * Statement kinds the embedded extractor learned from the stand-up and landlord scenarios
 * (bench/data/scenarios-held-2.jsonl, development data since its held-out run): running the meeting is no memory,
 * opening words before a subject ("Heads up,", "Also,", "Yes, the…"), an absence on named days and its end, "Hi,
 * it's X" on the phone, a statement with a question tagged on or a time before its subject, "he / she / they…".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../../graph/types.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';

const x = new EmbeddedExtractor();
const T = '2026-12-01T10:00:00.000Z'; // a Tuesday
const u = (text: string): Utterance => ({ id: 'u1', sessionId: 's', speakerId: 'p_ana', addresseeIds: ['p_ben'], text,
  startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 });
const run = (text: string, names: Record<string, string | null> = { p_ana: 'Ana', p_ben: 'Ben' }) =>
  x.extract({ current: u(text), previous: [], names });
const contents = async (text: string): Promise<string[]> => (await run(text)).facts.map((f) => f.content);

test('running the meeting is small talk; a plan said with "let\'s" is not', async () => {
  for (const text of ["Morning all, let's keep it quick today.", "Right, let's get started.", "Okay everyone, let's wrap it up."]) {
    assert.deepEqual(await contents(text), [], text);
  }
  assert.ok((await contents("Let's start the project on Monday.")).length > 0);
});

test('an absence on named days is read after opening words and ends after the last day', async () => {
  const r = await run("Heads up, I'm out on Thursday and Friday for a wedding.");
  assert.equal(r.facts.length, 1);
  assert.equal(r.facts[0]?.content, 'Ana is out on Thursday 3 December 2026 and on Friday 4 December 2026 for a wedding');
  assert.equal(r.facts[0]?.validUntil, '2026-12-05T00:00:00.000Z');
  assert.equal(stateEnd("She's off on Monday.", T), '2026-12-08T00:00:00.000Z');
  // Going somewhere, or said ahead, is no state that holds now.
  assert.equal(stateEnd("I'm off to Paris on Monday.", T), null);
  assert.equal(stateEnd("I'll be out on Friday.", T), null);
});

test('an event told after opening words is read without them; a reply about what was said is not', async () => {
  assert.deepEqual(await contents('Also, the design team switched from Sketch to Figma last month.'),
    ['The design team switched from Sketch to Figma in November 2026']);
  assert.deepEqual(await contents('Yes, the hot water is back, thanks.'), ['The hot water is back']);
  for (const text of ["Yes, that's fine.", "Oh no, that's not good.", 'Okay, sounds good to me.']) {
    assert.deepEqual(await contents(text), [], text);
  }
});

test('"Hi, it\'s X" names the speaker; "it\'s" before a day or without a greeting does not', async () => {
  const r = await run("Hi, it's Sofia Marin from flat 3 at 18 Harbour Street.", { p_ana: null, p_ben: 'Ben' });
  assert.deepEqual(r.profileUpdates.map((p) => [p.attribute, p.value]), [['name', 'Sofia Marin']]);
  for (const text of ["Hello, it's Monday again.", "It's Tom's car.", "Hi, it's me again."]) {
    assert.deepEqual((await run(text, { p_ana: null, p_ben: 'Ben' })).profileUpdates, [], text);
  }
});

test('a statement with a time before its subject and a question tagged on is read; the question alone is not', async () => {
  const r = await run("Tomorrow morning I'm at the hospital with my mum, could it be Thursday?");
  assert.equal(r.facts.length, 1);
  assert.equal(r.facts[0]?.eventTime, '2026-12-02');
  assert.match(r.facts[0]?.content ?? '', /Ana is at the hospital/);
  assert.deepEqual(await contents('Could it be Thursday?'), []);
  assert.deepEqual(await contents('Is that okay, could it be Thursday?'), []);
});

test('something told of a person by "he", "she" or "they" is read; "it" and "that" name no one', async () => {
  assert.deepEqual(await contents("He'll need to be added to the lease."), ["He'll need to be added to the lease"]);
  assert.deepEqual(await contents("That's not what I meant."), []);
});

test('"after all" with no negation tells how something turned out; with one it withdraws', async () => {
  const fixed = await run('The payment tests are fixed, it was the database cleanup after all.');
  assert.ok(fixed.facts.length > 0);
  assert.ok(fixed.facts.every((f) => !f.retraction && f.settles === 'done'), JSON.stringify(fixed.facts.map((f) => [f.retraction, f.settles])));
  const off = await run("Luca won't be moving in after all, he got a job in Lisbon.");
  assert.ok(off.facts.some((f) => f.settles === 'cancelled'), JSON.stringify(off.facts.map((f) => [f.retraction, f.settles])));
  assert.ok((await run("I'm not selling the bike after all.")).facts.some((f) => f.retraction));
});

test('a participle after a present "be" and "still" is a state that holds now, not an action told as done', async () => {
  for (const text of ["I'm still stuck on the flaky payment tests.", 'The shop is still closed today.']) {
    const r = await run(text);
    assert.ok(r.facts.length > 0, text);
    assert.ok(r.facts.every((f) => f.settles === undefined), `${text}: ${JSON.stringify(r.facts.map((f) => f.settles))}`);
  }
  assert.ok((await run('Lena picked up the cake.', { p_ana: 'Ana', p_ben: 'Ben' })).facts.some((f) => f.settles === 'done'));
  assert.ok((await run("She's picked up the cake.")).facts.some((f) => f.settles === 'done'), '"she\'s" may be "she has"');
  assert.ok((await run("The kids' bedroom is painted, finally.")).facts.some((f) => f.settles === 'done'), 'without "still", a result');
});
