import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Utterance } from '../../../graph/types.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { resolveDatePhrase } from '../../../pipelines/memory/relative-date.js';

const x = new EmbeddedExtractor();
const T = '2026-12-01T10:00:00.000Z'; // a Tuesday
const u = (text: string, addresseeIds = ['p_ben']): Utterance => ({ id: 'u1', sessionId: 's', speakerId: 'p_ana', addresseeIds, text,
  startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 });
const run = (text: string, names: Record<string, string | null> = { p_ana: 'Ana', p_ben: 'Ben' }) =>
  x.extract({ current: u(text), previous: [], names });

test('relative dates resolve against the utterance time', () => {
  // Friday of next week, as chrono reads "next" (rules 56): not the Friday three days on.
  assert.equal(resolveDatePhrase('next Friday', T), '2026-12-11');
  assert.equal(resolveDatePhrase('tomorrow', T), '2026-12-02');
  assert.equal(resolveDatePhrase('last Monday', T), '2026-11-30');
  assert.equal(resolveDatePhrase('on Tuesday', T), '2026-12-08');
  assert.equal(resolveDatePhrase('in 3 days', T), '2026-12-04');
  assert.equal(resolveDatePhrase('December 24th', T), '2026-12-24');
});

test('plans, background and relations are self-contained', async () => {
  const plan = await run("I'm flying to Lisbon next Friday.");
  assert.equal(plan.facts[0]?.content, 'Ana is flying to Lisbon on Friday 11 December 2026');
  assert.equal(plan.facts[0]?.eventTime, '2026-12-11');
  assert.equal(plan.facts[0]?.kind, 'plan');
  const bg = await run("I'm a nurse and I work at Acme Hospital.");
  assert.deepEqual(bg.profileUpdates.map((p) => [p.attribute, p.value]).sort(), [['occupation', 'nurse'], ['works_at', 'Acme Hospital']]);
  const rel = await run('Ben is my manager.');
  assert.equal(rel.facts[0]?.content, "Ben is Ana's manager");
  assert.equal(rel.facts[0]?.slot, 'relation:manager');
});

test('the name introduced in a turn is used in that turn; never a raw id when unknown', async () => {
  const r = await run("Hi, I'm Ana. I'll send you the slides tomorrow.", { p_ana: null, p_ben: null });
  assert.deepEqual(r.profileUpdates.map((p) => [p.attribute, p.value]), [['name', 'Ana']]);
  assert.ok(r.facts.some((f) => f.content === "The speaker's name is Ana"));
  assert.ok(r.facts.some((f) => f.content === 'Ana will send an unnamed speaker the slides on Wednesday 2 December 2026'
    && f.kind === 'commitment' && f.eventTime === '2026-12-02'));
  assert.ok(r.facts.every((f) => !/\bp_/.test(f.content)), 'no raw participant id in any fact');
  const unnamed = await run('I think a rain barrel system would work better.', { p_ana: null, p_ben: null });
  assert.equal(unnamed.facts[0]?.content, 'An unnamed speaker thinks a rain barrel system would work better');
});

test('fact text is third person and grammatical', async () => {
  const tom = { p_ana: 'Tom', p_ben: 'Ben' };
  assert.equal((await run('I think a rain barrel system would work better.', tom)).facts[0]?.content,
    'Tom thinks a rain barrel system would work better');
  const lena = await run("I'm Lena, I teach chemistry at the high school.", { p_ana: null, p_ben: 'Ben' });
  assert.deepEqual(lena.facts.map((f) => f.content), ["The speaker's name is Lena", 'Lena teaches chemistry at the high school']);
  const hana = await run("I'm Hana and I just joined the garden group.", { p_ana: null, p_ben: 'Ben' });
  assert.deepEqual(hana.profileUpdates.map((p) => [p.attribute, p.value]), [['name', 'Hana']]);
  // Past tense stays past ("hurt" is both), possessives after the name read "their".
  assert.equal((await run('I hurt my back last week.', tom)).facts[0]?.content, 'Tom hurt their back in the week of Monday 23 November 2026');
  assert.equal((await run('I have two kids in the program.', tom)).facts[0]?.content, 'Tom has two kids in the program');
  assert.equal((await run('I went to the market and I bought tomatoes.', tom)).facts[0]?.content,
    'Tom went to the market and they bought tomatoes'); // named once (rules 45)
});

test('negation with "anymore" is a retraction of the same slot; adjectives are not jobs', async () => {
  const r = await run("I don't like sushi anymore.");
  assert.equal(r.facts[0]?.retraction, true);
  assert.equal(r.facts[0]?.slot, 'preference:sushi');
  const tired = await run("I'm a bit tired today.");
  assert.ok(!tired.facts.some((f) => f.slot === 'occupation'));
  const idiom = await run("I'm a sucker for sad movies.");
  assert.ok(!idiom.facts.some((f) => f.slot === 'occupation'), 'an idiom is not a job');
  assert.deepEqual(idiom.profileUpdates, []);
});

test('contractions of "we" and "you" read in full once the pronoun is a name', async () => {
  const picnic = await run("We'll have a picnic by the lake on Sunday.");
  assert.ok(picnic.facts.some((f) => /^Ana and Ben will have a picnic by the lake/.test(f.content)), JSON.stringify(picnic.facts));
  const booked = await run("We've booked the cabin for March.");
  assert.ok(booked.facts.some((f) => /^Ana and others have booked the cabin/.test(f.content)), JSON.stringify(booked.facts));
  for (const f of [...picnic.facts, ...booked.facts]) assert.doesNotMatch(f.content, /['’](?:ll|ve|d)\b/, f.content);
});

test('a decision or plan told about someone else carries who it is about; the speaker\'s own carries nothing', async () => {
  const [neighbours] = (await run('Our neighbours decided on a dog.')).facts;
  assert.equal(neighbours?.planObject?.reportedBy, 'neighbor');
  const [sister] = (await run('My sister is going to move to Lyon.')).facts;
  assert.equal(sister?.planObject?.reportedBy, 'sister');
  const [both] = (await run('My sister and I decided to move to Lyon.')).facts;
  assert.ok(both?.planObject && both.planObject.reportedBy === undefined);
  const [gate] = (await run('My dad fixed his gate last weekend.')).facts;
  assert.equal(gate?.planObject?.reportedBy, 'dad', 'a thing of his own');
  const [heating] = (await run('Our landlord fixed the heating yesterday.')).facts;
  assert.ok(heating?.settles && heating.planObject && heating.planObject.reportedBy === undefined, 'the heating may be what the speaker needed fixed');
});

test("a fact's eventTime: a perfect state's start, an act just done is today, a duration in the present none", async () => {
  const since = await run("I've had my turtles for 3 years now.");
  assert.ok(since.facts.length > 0 && since.facts.every((f) => f.eventTime === '2023'), JSON.stringify(since.facts.map((f) => [f.content, f.eventTime])));
  const just = await run('I just got accepted for a fashion internship!');
  assert.ok(just.facts.length > 0 && just.facts.every((f) => f.eventTime === '2026-12-01'), JSON.stringify(just.facts.map((f) => [f.content, f.eventTime])));
  const away = await run("I'm off work for a month.");
  assert.ok(away.facts.every((f) => f.eventTime === null && f.validUntil !== null), JSON.stringify(away.facts.map((f) => [f.content, f.eventTime, f.validUntil])));
});
