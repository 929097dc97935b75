/**
 * Sentence shapes the embedded extractor dropped on the parent-teacher, supplier, garage and dinner scenarios
 * (bench/data/scenarios-held-3.jsonl and -held-4.jsonl, development data since their held-out runs): a subject opened
 * by "his / your…", a long subject, "X's off / at…", a time before the subject, a first-person clause after an act,
 * asking leave for someone else; and remarks that are no memory ("I hope it heals quickly", "see you Saturday").
 * Each shape with a look-alike that must yield nothing or stay as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../../graph/types.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { findDates } from '../../../pipelines/memory/relative-date.js';
import { stateEnd } from '../../../pipelines/memory/state-end.js';

const x = new EmbeddedExtractor();
const T = '2026-12-01T10:00:00.000Z'; // a Tuesday
const u = (text: string): Utterance => ({ id: 'u1', sessionId: 's', speakerId: 'p_ana', addresseeIds: ['p_ben'], text,
  startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 });
const run = (text: string) => x.extract({ current: u(text), previous: [], names: { p_ana: 'Ana', p_ben: 'Ben' } });
const contents = async (text: string): Promise<string[]> => (await run(text)).facts.map((f) => f.content);

test('an event whose subject opens with "his / her / your" is read; "it" or a reply is not', async () => {
  // Whose reading is not known with no one named before it (see below): no memory; "Your mum" is the listener's.
  assert.deepEqual(await contents('His reading has slipped a bit though.'), []);
  assert.deepEqual(await contents('Your mum called, she wants us over for lunch on Sunday.'),
    ["Ben's mum called, she wants Ana and others over for lunch on Sunday 6 December 2026"]);
  assert.deepEqual(await contents('Its fine.'), []);
  // "Your" opens news of the listener's people only; a long subject is a noun phrase.
  assert.deepEqual(await contents('Your words mean a lot.'), []);
  assert.deepEqual(await contents('Expression of myself and a way to relax.'), []);
  assert.deepEqual(await contents('Your call, really.'), []);
});

test('a long subject and "X\'s" before no noun are read as a statement with its end', async () => {
  assert.deepEqual(await contents('The school trip to the science museum is on the fourteenth.'),
    ['The school trip to the science museum is on the fourteenth']);
  const off = await run("Jamie's off football practice until Monday because of his ankle.");
  assert.equal(off.facts.length, 1);
  assert.equal(off.facts[0]?.validUntil, '2026-12-08T00:00:00.000Z');
  const car = await run("The car's at the garage until Friday, so we'll have to take the bus.");
  assert.equal(car.facts[0]?.content, "The car's at the garage until Friday 4 December 2026, so Ana and Ben will have to take the bus");
  assert.equal(car.facts[0]?.validUntil, '2026-12-05T00:00:00.000Z');
  const grandad = await run('Also, his grandad is staying with us for two weeks, so he might be picked up by him.');
  assert.equal(grandad.facts.length, 1);
  assert.equal(grandad.facts[0]?.validUntil, '2026-12-15T10:00:00.000Z');
  // A possessive before a noun is no "is": "Jamie's ankle, poor thing" stays nothing.
  assert.deepEqual(await contents("Jamie's ankle, poor thing."), []);
});

test('a time before the subject is skipped to find it, and "I" after it agrees', async () => {
  assert.deepEqual(await contents('Since yesterday the car makes a grinding noise when I brake.'),
    ['Since Monday 30 November 2026 the car makes a grinding noise when Ana brakes']);
  assert.deepEqual(await contents('Since yesterday, honestly.'), []);
});

test('a first-person clause after an act or a thing is read whole; after a reply or a judgement it is not', async () => {
  assert.deepEqual(await contents('Calling you back as promised, we have the lemons in stock.'),
    ['Calling Ben back as promised, Ana and others have the lemons in stock']);
  assert.deepEqual(await contents("Don't worry about the helpers, we've got enough now."),
    ["Don't worry about the helpers, Ana and others have got enough now"]);
  for (const text of ['Thanks so much, I really appreciate it.', "Wow, that's amazing, we were so lucky.", 'That sounds great, I think so too.']) {
    assert.deepEqual(await contents(text), [], text);
  }
});

test('asking leave for someone else with a time is a request; without one, or for oneself, it is not', async () => {
  const r = await run('Can Maisie sleep over on Saturday night?');
  // "night" stays (text7)
  assert.deepEqual(r.facts.map((f) => [f.kind, f.content, f.validUntil]),
    [['request', 'Ana asked Ben whether Maisie can sleep over on the night of Saturday 5 December 2026', null]]);
  assert.deepEqual(await contents('Can Tom swim?'), []);
  assert.deepEqual(await contents('Can it wait until Friday?'), []);
});

test('well-wishing, a leave-taking and a remark on the thing at hand are no memory; with a thing or a time of their own they are', async () => {
  for (const text of ['I hope it heals quickly.', 'I hope you feel better soon.', 'No problem, see you Saturday.', 'This pasta is lovely.']) {
    assert.deepEqual(await contents(text), [], text);
  }
  assert.ok((await contents("I hope the weather holds on Saturday for the barbecue.")).length > 0);
  assert.ok((await contents("I hope it does well, and I've been doing great!")).length > 0, 'a clause of its own after the wish');
  assert.ok((await contents('This pasta is from the new Italian place on Main Street.')).length > 0);
});

test('a date is read as past or to come from its own clause; "now" stays a word', () => {
  assert.equal(findDates('Your mum called, she wants us over for lunch on Sunday.', T)[0]?.date, '2026-12-06');
  assert.equal(findDates('I called her, on Tuesday.', T)[0]?.date, '2026-11-24');
  assert.equal(findDates('The car is at the garage until Friday, so we walk.', T)[0]?.phrase, 'Friday');
  assert.equal(stateEnd('Can Maisie sleep over on Saturday night?', T), null);
  assert.equal(stateEnd("I'm staying over for the weekend.", T) !== null, true);
});

test('"he / his" opening a statement names the person the sentences just before opened with; a break in the chain names no one', async () => {
  const said = (text: string, id: string, speakerId = 'p_ana'): Utterance => ({ ...u(text), id, speakerId, addresseeIds: [speakerId === 'p_ana' ? 'p_ben' : 'p_ana'] });
  const names = { p_ana: 'Ana', p_ben: 'Ben' };
  const four = said('Jamie has been doing really well in maths this term.', 'u4');
  const five = said('His reading has slipped a bit though.', 'u5');
  const r5 = await x.extract({ current: five, previous: [four], names });
  assert.deepEqual(r5.facts.map((f) => f.content), ["Jamie's reading has slipped a bit"]);
  const six = said("He's been reading comics instead of his school books.", 'u6', 'p_ben');
  const r6 = await x.extract({ current: six, previous: [four, five], names });
  assert.deepEqual(r6.facts.map((f) => f.content), ["Jamie's been reading comics instead of his school books"]);
  // Another pronoun family, or a sentence about something else between, names no one.
  const she = await x.extract({ current: said('His reading has slipped a bit.', 'u7'), previous: [four, said('She loves the new teacher.', 'u6', 'p_ben')], names });
  assert.deepEqual(she.facts.map((f) => f.content), []);
  // A common word that opens a sentence is no name ("Things have been tough for her lately.").
  const things = await x.extract({ current: said('She had to leave in a hurry.', 'u8'), previous: [said('Things have been tough for her lately.', 'u7')], names });
  assert.deepEqual(things.facts.map((f) => f.content), ['She had to leave in a hurry']);
  const broken = await x.extract({ current: said("He's got a dentist appointment on Thursday.", 'u9'), previous: [four, said('That would be great.', 'u8', 'p_ben')], names });
  assert.match(broken.facts[0]?.content ?? '', /^He's got a dentist appointment/);
});
