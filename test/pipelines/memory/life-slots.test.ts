import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slotChange } from '../../../pipelines/memory/changes.js';
import { RuleDecider } from '../../../pipelines/memory/decide.js';
import type { Fact } from '../../../graph/memory-store.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';

const extractor = new EmbeddedExtractor();
const NAMES = { p_lena: 'Lena', p_ben: 'Ben', p_tom: 'Tom' };

/** The facts of one turn said by `speakerId` to Ben, or by Ben to Lena. */
async function said(text: string, id: string, speakerId = 'p_lena') {
  const addresseeIds = speakerId === 'p_ben' ? ['p_lena'] : ['p_ben'];
  return (await extractor.extract({
    current: { id, sessionId: 's', speakerId, addresseeIds, text, startMs: null, endMs: null, time: '2026-11-01T10:00:00.000Z', confidence: null, audioRef: null, seq: 1 },
    previous: [], names: NAMES,
  })).facts;
}

/** What the second statement decides about the slotted facts the first left, and whose the second's slot is. */
async function slotPair(first: string, second: string, who = 'p_lena', by = who): Promise<{ op: string; subject?: string; slot?: string | null }> {
  const stored: Fact[] = (await said(first, 'u1', who)).filter((f) => f.slot !== null).map((f, i) => ({
    id: `f${i + 1}`, content: f.content, speakerId: f.speakerId, addresseeIds: [], subjectId: f.subjectId, kind: f.kind,
    layer: f.kind === 'profile' ? 'profile' : 'fact', slot: f.slot, value: f.value, time: '2026-10-01T10:00:00.000Z', eventTime: null,
    referIds: ['u1'], validFrom: '2026-10-01T10:00:00.000Z', validTo: null, validUntil: null, planObject: null, supersedes: null,
    supersededBy: null, confidence: f.confidence, sessionId: 's', source: 'test', createdAt: '2026-10-01T10:00:00.000Z',
  }));
  const next = (await said(second, 'u2', by)).find((f) => f.slot !== null);
  if (!next) return { op: 'ADD' };
  const mine = stored.filter((f) => f.subjectId === next.subjectId);
  const got = await new RuleDecider().decide({ fact: next, candidates: mine.map((f) => ({ fact: f, score: 0.5 })), retractedFacts: [] });
  return { op: got.op, subject: next.subjectId, slot: next.slot };
}

test('a street is part of the place one lives; a day is not', async () => {
  assert.equal(slotChange('I live in a flat above the bakery on Carver Street.')?.value, 'a flat above the bakery on Carver Street');
  assert.equal(slotChange("I'm living in a bedsit on the High Street these days.")?.value, 'a bedsit on the High Street');
  assert.equal(slotChange('I moved to Leeds on Monday.')?.value, 'Leeds');
  assert.equal(slotChange('I live in Porto on weekdays.')?.value, 'Porto');
  const home = (await said('I live in a flat above the bakery on Carver Street.', 'u1')).find((f) => f.slot === 'lives_in');
  assert.equal(home?.value, 'a flat above the bakery on Carver Street');
});

test('where one lives, told by meaning after a move', () => {
  assert.deepEqual(slotChange("We finally moved out of the Carver Street flat, we're in a little terraced house in Ashby now."),
    { slot: 'lives_in', value: 'a little terraced house in Ashby', attribute: 'lives_in' });
  assert.equal(slotChange("We've moved into a two-bed on Mill Lane.")?.value, 'a two-bed on Mill Lane');
  assert.equal(slotChange("We got the keys last week, so we're in Didsbury now.")?.value, 'Didsbury');
  assert.equal(slotChange("I've moved back in with my parents for now.")?.value, 'with my parents');
  assert.equal(slotChange("I'm renting a room in a shared house near the university.")?.value, 'a room in a shared house near the university');
  assert.deepEqual(slotChange("We've moved out of the flat, it was too damp."), { slot: 'lives_in', value: null });
  assert.equal(slotChange('We moved out of the office in March.'), null, 'an office is no home');
  // Not a move: a holiday, a stay, someone else, a mess.
  assert.equal(slotChange("We're in a lovely cottage in Devon for the week."), null);
  assert.equal(slotChange('We moved to a hotel for the night, the heating was off.'), null);
  assert.equal(slotChange('My sister moved to Leeds.'), null);
  assert.equal(slotChange("We moved the sofa upstairs, we're in a right mess."), null);
});

test('a job told as what one does now, a new role, a new employer; working from home is no job', () => {
  assert.deepEqual(slotChange("I left Hillcrest over Easter, I'm tutoring full time from home now."),
    { slot: 'occupation', value: 'tutoring from home', attribute: 'occupation', ends: 'works_at' }, 'a new job, not only an ending');
  assert.equal(slotChange("I'll start as a train driver in March.")?.value, 'train driver');
  assert.equal(slotChange("I've just started a new job at the council, in housing.")?.value, 'the council');
  assert.deepEqual(slotChange('I was made redundant in the spring.'), { slot: 'works_at', value: null, ends: 'occupation' });
  assert.deepEqual(slotChange('I left Globex in May.'), { slot: 'works_at', value: null }, 'an ending alone still ends');
  assert.equal(slotChange('I work from home on Fridays.'), null);
  assert.equal(slotChange("I'm teaching a class tonight."), null, 'no cue that it is the job');
  assert.equal(slotChange('My husband works for the council in planning.'), null);
});

test('a diet taken up, a taste taken up or dropped, an allergy however told', () => {
  assert.equal(slotChange("I've gone vegetarian since last month, haven't touched meat at all.")?.value, 'vegetarian');
  assert.equal(slotChange('We stopped eating meat after the documentary.')?.value, 'vegetarian');
  assert.equal(slotChange("I've found a brilliant veggie curry house near the office."), null, 'a related detail');
  assert.deepEqual(slotChange("Weirdly I've come round to coffee, I have a flat white every morning now."),
    { slot: 'preference:coffee', value: 'like', kind: 'preference' });
  assert.deepEqual(slotChange("I've gone right off crisps."), { slot: 'preference:crisp', value: 'dislike', kind: 'preference' });
  assert.equal(slotChange("I've gone off to bed."), null);
  assert.deepEqual(slotChange("I'm allergic to cats, they make my eyes stream."), { slot: 'allergy:cat', value: 'allergic' });
  assert.deepEqual(slotChange('Cats set my allergies off something terrible.'), { slot: 'allergy:cat', value: 'allergic' });
  assert.deepEqual(slotChange("I'm not allergic to cats."), { slot: 'allergy:cat', value: null }, 'an allergy denied ends it');
  assert.equal(slotChange("I'm not allergic to anything."), null);
});

test('a change of state updates the slot it is about, a restatement keeps it', async () => {
  assert.equal((await slotPair('I live in a flat above the bakery on Carver Street.',
    "We finally moved out of the Carver Street flat, we're in a little terraced house in Ashby now.")).op, 'UPDATE');
  assert.equal((await slotPair("I eat meat pretty much every day, I'm not fussy.", "I've gone vegetarian since last month, haven't touched meat at all.")).op, 'UPDATE');
  assert.equal((await slotPair("I can't stand coffee, I'm strictly a tea person.", "Weirdly I've come round to coffee, I have a flat white every morning now.")).op,
    'UPDATE', 'like after dislike: no worse transcript of it');
  assert.equal((await slotPair("I'm allergic to cats, they make my eyes stream.", 'Cats set my allergies off something terrible.')).op, 'KEEP');
  assert.equal((await slotPair("I'm allergic to cats, they make my eyes stream.", "The clinic tested me and I'm not allergic to cats after all.")).op, 'DELETE');
  assert.equal((await slotPair('I live in a flat above the bakery on Carver Street.', "We're in a lovely cottage in Devon for the week.")).op, 'ADD');
});

test('a job change told by someone else is the named person\'s, with the "he" after read as them', async () => {
  const got = await slotPair('I teach maths at Hillcrest Academy.', "Tom left Hillcrest over Easter, he's tutoring full time from home now.", 'p_tom', 'p_ben');
  assert.deepEqual(got, { op: 'UPDATE', subject: 'p_tom', slot: 'occupation' });
  const mine = await slotPair('I teach maths at Hillcrest Academy.', "Tom left Hillcrest over Easter, he's tutoring full time from home now.", 'p_lena', 'p_ben');
  assert.deepEqual(mine, { op: 'ADD', subject: 'p_tom', slot: 'occupation' }, "Tom's change leaves Lena's job alone");
});

test('a new role told with leaving an employer supersedes the employer; a role alone leaves it', async () => {
  assert.deepEqual(slotChange("I left Hillcrest over Easter, I'm tutoring full time from home now.")?.ends, 'works_at');
  assert.equal((await slotPair('I work at Hillcrest Academy.', "I left Hillcrest over Easter, I'm tutoring full time from home now.")).op, 'UPDATE');
  assert.equal((await slotPair('I work at Hillcrest Academy.', "I'm tutoring full time these days.")).op, 'ADD', 'no employer left');
});
