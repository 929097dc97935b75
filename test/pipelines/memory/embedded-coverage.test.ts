/**
 * Statement kinds the embedded extractor learned from the call-centre and household-robot scenarios
 * (bench/data/scenarios-dev-2.jsonl): introductions said on the phone, small talk that is no memory,
 * days of the month, the rest of a month, arrangements of someone else's, plans said as "planning a…", an
 * action on "it" that takes its thing from the turn before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../../graph/types.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';

const x = new EmbeddedExtractor();
const T = '2026-12-01T10:00:00.000Z'; // a Tuesday
const u = (text: string): Utterance => ({ id: 'u1', sessionId: 's', speakerId: 'p_ana', addresseeIds: ['p_ben'], text,
  startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 });
const run = (text: string, names: Record<string, string | null> = { p_ana: 'Maya', p_ben: 'Ben' }) =>
  x.extract({ current: u(text), previous: [], names });

test('an introduction said on the phone names the speaker, and the rest of the sentence is still read', async () => {
  const agent = await run('Thanks for calling Northwind Broadband, this is Priya speaking.', { p_ana: null, p_ben: null });
  assert.deepEqual(agent.profileUpdates.map((p) => [p.attribute, p.value]), [['name', 'Priya']]);
  const back = await run("Hi Ben, Priya here, I'm calling you back as promised.", { p_ana: null, p_ben: 'Ben' });
  assert.deepEqual(back.profileUpdates.map((p) => [p.attribute, p.value]), [['name', 'Priya']]);
  assert.ok(back.facts.some((f) => f.content === 'Priya is calling Ben back as promised'), JSON.stringify(back.facts.map((f) => f.content)));
  // Words before "here" that are no name.
  for (const text of ['Come here.', 'Okay, sign here.', 'Everyone here, please.', 'Hi, Mum here.', 'This is Boston calling.']) {
    assert.deepEqual((await run(text, { p_ana: null, p_ben: null })).profileUpdates, [], text);
  }
});

test('sympathy, taking note and going to bed are small talk; a note with a thing of its own is not', async () => {
  for (const text of ["I'm really sorry about that.", "I'll remember that.", 'Okay, I will keep it in mind.', "I'm going to bed, goodnight."]) {
    assert.deepEqual((await run(text)).facts, [], text);
  }
  assert.ok((await run("I'll remember to call the bank tomorrow.")).facts.length > 0);
  assert.ok((await run("I'm going to bed early on Friday, I have a flight at six.")).facts.length > 0);
});

test('a statement after several opening words is read, with the end of its state', async () => {
  const r = await run("Oh, and I'm working from home until Friday, so keep the study quiet.");
  assert.ok(r.facts.length > 0);
  assert.ok(r.facts.every((f) => f.validUntil === '2026-12-05T00:00:00.000Z'), JSON.stringify(r.facts.map((f) => f.validUntil)));
});

test('"for the rest of the month" ends a state at the start of the next month', async () => {
  const r = await run("I'm on night shifts for the rest of the month, so call after two in the afternoon.");
  assert.ok(r.facts.length > 0);
  assert.ok(r.facts.every((f) => f.validUntil === '2027-01-01T00:00:00.000Z'), JSON.stringify(r.facts.map((f) => f.validUntil)));
});

test('a day of the month is a date; a part of the day alone is none', async () => {
  const move = await run("We're moving house on the 15th.");
  assert.equal(move.facts[0]?.eventTime, '2026-12-15');
  assert.match(move.facts[0]?.content ?? '', /on Tuesday 15 December 2026$/);
  // Today's own day of the month is today.
  assert.equal((await run("We're moving house on the 1st.")).facts[0]?.eventTime, '2026-12-01');
  const engineer = await run('The engineer will come on Thursday the 17th in the afternoon.');
  assert.equal(engineer.facts[0]?.content, 'The engineer will come on Thursday 17 December 2026 in the afternoon');
});

test('a date is written over whole words only ("in May" is no part of "Maya")', async () => {
  const r = await run("I'm flying to Rome in May.");
  assert.equal(r.facts[0]?.content, 'Maya is flying to Rome in May 2027');
});

test('an arrangement of someone else\'s with a day is a plan; without a day or with "be" it is not', async () => {
  const dated = await run('An engineer can come to Elm Road on Wednesday the 16th.');
  assert.equal(dated.facts[0]?.kind, 'plan');
  assert.equal(dated.facts[0]?.planObject?.verb, 'come');
  assert.notEqual((await run('The shop will be closed on Monday.')).facts[0]?.kind, 'plan');
  assert.notEqual((await run('An engineer can come to Elm Road.')).facts[0]?.kind, 'plan');
});

test('"we\'re planning a party" with a day is a shared plan', async () => {
  const r = await run("We're planning a birthday party for Leo on Saturday afternoon.");
  assert.equal(r.facts[0]?.kind, 'plan');
  assert.equal(r.facts[0]?.planObject?.shared, true);
  assert.deepEqual(r.facts[0]?.planObject?.objects, ['party']);
});

test('"I\'ll order it" takes what it orders from the request just before', async () => {
  const asked: Utterance = { ...u('Can you order a chocolate cake from the bakery on Mill Street?'), id: 'u0', speakerId: 'p_ben', addresseeIds: ['p_ana'] };
  const r = await x.extract({ current: u("Sure, I'll order it today."), previous: [asked], names: { p_ana: 'Maya', p_ben: 'Ben' } });
  assert.equal(r.facts[0]?.kind, 'commitment');
  assert.deepEqual(r.facts[0]?.planObject?.objects, ['cake']);
  // Another action before: nothing to take from its action, but since rules 56 the "it" is written as the one thing that
  // turn names (object-pronouns.ts), and the plan is about it.
  const other: Utterance = { ...asked, text: 'Can you bake a chocolate cake?' };
  const s = await x.extract({ current: u("Sure, I'll order it today."), previous: [other], names: { p_ana: 'Maya', p_ben: 'Ben' } });
  assert.match(s.facts[0]?.content ?? '', /^Maya will order the chocolate cake/);
  assert.deepEqual(s.facts[0]?.planObject?.objects, ['cake']);
  // Two things named there ("a chocolate cake", "the bakery"): nothing to take.
  const two: Utterance = { ...asked, text: 'Can you bake a chocolate cake for the party?' };
  const t = await x.extract({ current: u("Sure, I'll order it today."), previous: [two], names: { p_ana: 'Maya', p_ben: 'Ben' } });
  assert.deepEqual(t.facts[0]?.planObject?.objects, []);
});
