import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wink } from '../../../pipelines/wink.js';
import { splitPlanClauses } from '../../../pipelines/memory/clause-split.js';

const split = (s: string): string[] => splitPlanClauses(wink(), s);

test('a report before a plan clause is a sentence of its own, and the plan\'s pronoun names the report\'s thing or person', () => {
  assert.deepEqual(split("The plumber sent me a quote, I'll forward it to my landlord tonight."),
    ['The plumber sent me a quote.', "I'll forward the quote to my landlord tonight."]);
  assert.deepEqual(split('Tom lent me his drill and I need to give it back on Friday.'), ['Tom lent me his drill.', 'I need to give his drill back on Friday.']);
  assert.deepEqual(split("My aunt left a message, I'll call her back after lunch."), ['My aunt left a message.', "I'll call my aunt back after lunch."]);
  assert.deepEqual(split('The form for the school trip came home and I have to sign it.'),
    ['The form for the school trip came home.', 'I have to sign the form for the school trip.'], 'the phrase, not the trip after "for"');
});

test('a clause before the plan that tells no act on a thing is no report: the sentence is left as said', () => {
  assert.deepEqual(split("Tomorrow, I'll call the garage."), ["Tomorrow, I'll call the garage."]);
  assert.deepEqual(split("My sister is great and I'll see her on Friday."), ["My sister is great and I'll see her on Friday."]);
  assert.deepEqual(split("It's raining, so I'll take an umbrella."), ["It's raining, so I'll take an umbrella."]);
  assert.deepEqual(split("My sister called and I'll see her on Friday."), ['My sister called.', "I'll see my sister on Friday."]);
});

test('two joined plan actions are two plans; "come and see" and a plan with no object before "and" are one', () => {
  assert.deepEqual(split('I need to pick up the dry cleaning and post the parcel.'), ['I need to pick up the dry cleaning.', 'I need to post the parcel.']);
  assert.deepEqual(split("I'll come and see you."), ["I'll come and see you."]);
  assert.deepEqual(split('The plan is to meet at the station at six.'), ['We plan to meet at the station at six.']);
});
