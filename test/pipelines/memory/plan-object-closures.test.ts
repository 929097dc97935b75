import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wink } from '../../../pipelines/wink.js';
import { OWN, actsOnNewThing, readPlanObject, type WordRelations } from '../../../pipelines/memory/plan-object.js';
import { cancelIsPlanDone, cancelsByObject, settlesByObject } from '../../../pipelines/memory/plan-match.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { settles } from '../../../pipelines/memory/changes.js';
import { reportedSubject } from '../../../pipelines/memory/grammar.js';
import { readObligation } from '../../../pipelines/memory/obligation.js';
import type { PlanObject } from '../../../graph/memory-store.js';
import type { Utterance } from '../../../graph/types.js';

/** A WordNet stand-in: the nouns and the irregular pasts these tests name, nothing else. */
const NOUNS = new Set(['tap', 'drain', 'make', 'kitchen', 'shower', 'bathroom', 'course']);
const PASTS: Record<string, string> = { redid: 'redo', rewrote: 'rewrite' };
const words: WordRelations = {
  derivedForms: () => [],
  derivedFrom: () => false,
  sharedHypernym: () => null,
  baseForms: (w: string, pos: string) => (pos === 'noun' ? (NOUNS.has(w) ? [w] : []) : PASTS[w] ? [PASTS[w]!] : []),
};
const read = (s: string): PlanObject => {
  const o = readPlanObject(wink(), s, words);
  assert.ok(o, s);
  return o;
};
const done = (outcome: string, plan: string): boolean => settlesByObject('done', read(outcome), read(plan), outcome, plan, words);

test('"won\'t be …ing" cancels; "dropped the keys off" delivers, "dropped the course" cancels', () => {
  assert.equal(settles("I won't be returning the laptop to my boss, IT is collecting it."), 'cancelled');
  assert.equal(settles('We will not be hosting the party this year.'), 'cancelled');
  assert.notEqual(settles("I dropped the keys off at the landlord's office."), 'cancelled');
  assert.notEqual(settles('I dropped the spare key off.'), 'cancelled');
  assert.equal(settles("I've dropped the Italian course, I have no time."), 'cancelled');
  assert.equal(settles('I dropped the idea of moving to Leeds.'), 'cancelled');
});

test('an obligation on a named owner\'s thing is a plan ("pick up Grandma\'s prescription")', () => {
  const who = { speaker: 'Ana', addressees: ['Ben'] };
  assert.equal(readObligation("I need to pick up Grandma's prescription.", who, false)?.verb, 'pick');
  assert.equal(readObligation("I have to return Tom's drill.", who, false)?.verb, 'return');
  assert.equal(readObligation('I need to sleep.', who, false), null, 'still no plan without a thing of its own');
});

test('"my own" names the speaker among the people: it does not settle a plan for someone else\'s thing', () => {
  assert.deepEqual(read('I fixed my own bike at the weekend.').people, [OWN]);
  assert.equal(done('I fixed my own bike at the weekend.', "I'm going to fix my son's bike."), false);
  assert.equal(done('I fixed my bike at the weekend.', "I'm going to fix my own bike."), true, 'no one else named: it settles');
  assert.equal(done('I fixed my own bike.', "I'm going to fix my own bike."), true);
});

test('a noun compound\'s last noun read as a verb is its head ("the kitchen tap"), not a relative clause\'s verb', () => {
  assert.deepEqual(read('I need to repair the kitchen tap.').objects, ['tap']);
  assert.deepEqual(read('I need to unblock the shower drain.').objects, ['drain']);
  assert.equal(done('I repaired the tap in the kitchen yesterday.', 'I need to repair the kitchen tap.'), true);
  assert.deepEqual(read('I ate the cake my sisters make.').objects, ['cake'], 'after a person it starts a clause');
});

test('an irregular past the tagger reads as a noun after a subject pronoun is the verb ("we redid the bathroom")', () => {
  const o = read('We redid the bathroom in March.');
  assert.equal(o.verb, 'redo');
  assert.equal(o.past, true);
  assert.deepEqual(o.objects, ['bathroom']);
  assert.equal(done('We redid the bathroom in March.', 'My wife and I are going to redo the bathroom.'), true);
});

test('others acting on a new thing, or planning an alternative, tell about their own; on a known thing it may be the speaker\'s', async () => {
  assert.equal(actsOnNewThing(wink(), 'My aunt and uncle bought an electric car.'), true);
  assert.equal(actsOnNewThing(wink(), 'Our neighbours picked up some chickens.'), true);
  assert.equal(actsOnNewThing(wink(), 'Our landlord fixed the heating.'), false);
  const x = new EmbeddedExtractor();
  const told = async (text: string): Promise<PlanObject | null | undefined> => {
    const current = { id: 'u1', sessionId: 's1', speakerId: 'lena', addresseeIds: ['ben'], text, startMs: null, endMs: null,
      time: '2026-10-01T10:00:00.000Z', confidence: null, audioRef: null } as unknown as Utterance;
    const r = await x.extract({ current, previous: [], names: { lena: 'Lena', ben: 'Ben' } });
    return r.facts.find((f) => f.planObject)?.planObject;
  };
  assert.equal((await told('My aunt and uncle bought an electric car.'))?.reportedBy, 'aunt');
  assert.equal((await told('My parents are going to drive to Edinburgh instead.'))?.reportedBy, 'parent');
  const landlord = await told('Our landlord fixed the heating.');
  assert.equal(landlord?.reportedBy, undefined);
  assert.equal(landlord?.doneBy, 'landlord');
});

test('"my nephew and I went to the zoo" settles "take my nephew to the zoo"; not another person or place', () => {
  assert.deepEqual(read('My nephew and I went to the zoo on Saturday.').people, ['nephew']);
  assert.equal(done('My nephew and I went to the zoo on Saturday.', "I'm going to take my nephew to the zoo."), true);
  assert.equal(done('My nephew and I went to the cinema.', "I'm going to take my nephew to the zoo."), false);
  assert.equal(done('My sister and I went to the zoo.', "I'm going to take my nephew to the zoo."), false);
});

test('an outcome sent to a person does not settle a plan sent to something else ("to my grandmother" / "to the council")', () => {
  assert.equal(done('I wrote a letter to my grandmother.', 'I have to write a letter to the council.'), false);
  assert.equal(done('I wrote a letter to the council.', 'I have to write a letter to the council.'), true);
  assert.equal(done('I wrote a letter to my grandmother.', 'I have to write a letter.'), true, 'a plan with no receiver');
  assert.equal(done('I returned the parcel to my landlord.', 'I need to return the parcel to the depot.'), false);
});

test('a compound and an "in / on / of" phrase say which one: the same one settles, another one does not', () => {
  assert.deepEqual(read('I need to repair the kitchen tap.').which, ['kitchen']);
  assert.deepEqual(read('I repaired the tap in the kitchen.').which, ['kitchen']);
  assert.equal(done('I repaired the tap in the bathroom.', 'I need to repair the kitchen tap.'), false);
  assert.equal(done('I painted the door of the garage.', 'I need to paint the garage door.'), true);
  assert.equal(done('I painted the door in the hall.', 'I need to paint the garage door.'), false);
  assert.equal(done('I painted the door.', 'I need to paint the garage door.'), true, 'an outcome that does not say which may be it');
});

test('"did" before an object is the verb: "I did my tax return myself" settles "do my own tax return"', () => {
  const o = read('I did my tax return myself.');
  assert.equal(o.verb, 'do');
  assert.equal(o.past, true);
  assert.deepEqual(o.objects, ['return']);
  assert.equal(done('I did my tax return myself.', "I'm going to do my own tax return this year."), true);
  assert.equal(done('I did my own tax return myself.', "I'm going to do my brother's tax return."), false);
  assert.equal(read('Did you see the match?').verb, 'see', 'a question\'s "did" stays an auxiliary');
});

test('an irregular past read as a noun after people and before an object\'s determiner is the verb ("my parents redid the patio")', () => {
  const o = read('My parents redid the patio over Easter.');
  assert.equal(o.verb, 'redo');
  assert.deepEqual(o.objects, ['patio']);
  assert.equal(reportedSubject(wink(), 'My parents redid the patio over Easter.'), 'parent');
});

test('people one pays for a service and "the people next door" are people: an outcome sent to them, or done by them, is theirs', () => {
  assert.deepEqual(read('I sent the form to my accountant.').people, ['accountant']);
  assert.equal(done('I sent the form to my accountant.', 'I need to send the form to the bank.'), false);
  assert.equal(done('I sent the form to my accountant.', 'I need to send the form to my accountant.'), true);
  assert.equal(reportedSubject(wink(), 'The people next door insulated their loft.'), 'people');
  assert.equal(reportedSubject(wink(), 'The plumber fixed the tap.'), null, 'a tradesperson may do the speaker\'s plan');
});

test('a date word before a noun says which one ("the evening course"): the noun is the object', () => {
  assert.deepEqual(read("I'm going to take the evening course in Italian.").objects, ['course']);
  assert.deepEqual(read('I need to book the weekend class.').objects, ['class']);
  assert.deepEqual(read('I will call her next week.').objects, [], 'a date alone is still no object');
  assert.equal(cancelsByObject(read("I've dropped the Italian course, I have no time."), read("I'm going to take the evening course in Italian.")), true);
});

test('"my aunt\'s" read as one word is the aunt\'s: a cancellation names the same place as the plan', () => {
  const cancel = read("We won't be driving up to my aunt's, the car broke down.");
  assert.deepEqual(cancel.complements, ['aunt']);
  assert.equal(cancelsByObject(cancel, read("We're going to drive up to my aunt's for Christmas.")), true);
});

test('a plan to cancel something is done by cancelling it; cancelling another plan\'s thing withdraws that plan', () => {
  const plan = read('I need to cancel the newspaper delivery.');
  assert.equal(cancelIsPlanDone(read('I cancelled the paper delivery on Monday.'), plan), true);
  assert.equal(cancelIsPlanDone(read("I won't be cancelling the newspaper delivery."), plan), false, 'not done');
  assert.equal(cancelIsPlanDone(read('I cancelled the table at the restaurant.'), read("I'm going to book a table at the restaurant.")), false);
});

test('a plan naming its thing by a pronoun is done by the same action told as done on a noun; another action is not', () => {
  assert.equal(done("I've just emailed you the invoice.", "I'll email it to you this afternoon."), true);
  assert.equal(done('I rang your mum already.', "I'll ring her after dinner to say yes."), true);
  assert.equal(done('I posted the invoice.', "I'll email it to you this afternoon."), false, 'another action');
  assert.equal(done('I emailed the invoice.', "I'll email the quote to you."), false, 'a plan naming another thing');
});

test('"the couple across the road" are people told about', () => {
  assert.equal(reportedSubject(wink(), 'The couple across the road cleared out their garage.'), 'couple');
});

test('a capitalised adjective or an "in" name says which course: dropping another one cancels nothing', () => {
  const plan = read("I'm going to take the evening course in Spanish.");
  assert.equal(cancelsByObject(read('I dropped the French course.'), plan), false);
  assert.equal(cancelsByObject(read('I dropped the Spanish course.'), plan), true);
  assert.equal(cancelsByObject(read('I dropped the course.'), plan), true, 'a course not said which may be the one');
  assert.equal(cancelsByObject(read('I cancelled the paper delivery on Monday.'), read('I need to cancel the newspaper delivery.')), true,
    'a plan to cancel is done by the same act');
});

test('"enrolled" and "enroll" are one verb', () => {
  assert.equal(read('I enrolled in the photography class on Wednesday.').verb, read("I'm going to enroll in the photography class.").verb);
});

test('"have a word with", "had a chat with" and "spoke to" are one action: talking to the same person settles it', () => {
  assert.equal(done('I spoke to my boss on Monday.', "I'll have a word with my boss about the holiday."), true);
  assert.equal(done('I spoke to the plumber.', "I'll have a word with the landlord."), false, 'another person');
  assert.equal(done('I spoke to the upstairs neighbours.', "I'll have a word with them."), true, 'told by a pronoun');
});
