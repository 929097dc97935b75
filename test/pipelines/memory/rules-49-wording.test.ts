/**
 * Rules 49, fact wording (text7, issue #16 item 2): a fact reads as a person would write it. Each test fails on main
 * 0d145739 (what it wrote there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';

const MON = '2026-11-23T10:00:00.000Z';
const TUE = '2026-12-01T10:00:00.000Z';

/** The facts' texts of `text` said by Sarah at `time` to `addressees` (ids of Tom `tom`, Ben `ben`). */
async function told(text: string, addressees: string[] = ['tom'], time = MON): Promise<string[]> {
  const { facts } = await new EmbeddedExtractor().extract({
    current: { id: 'u1', sessionId: 's', speakerId: 'sarah', addresseeIds: addressees, text, startMs: null, endMs: null, time, confidence: null, audioRef: null, seq: 1 },
    previous: [], names: { sarah: 'Sarah', tom: 'Tom', ben: 'Ben' },
  });
  return facts.map((f) => f.content);
}

describe('rules 49: fact wording', () => {
  test('a date after a preposition already there takes no "on"', async () => {
    // On main: "The room is booked for on Friday 27 November 2026".
    assert.deepEqual(await told('The room is booked for Friday.'), ['The room is booked for Friday 27 November 2026']);
    // The prepositions that were already read stay as they were.
    assert.deepEqual(await told('I need it by Friday.'), ['Sarah needs it by Friday 27 November 2026']);
    assert.deepEqual(await told("I'm away until Friday."), ['Sarah is away until Friday 27 November 2026']);
    // No preposition: the date takes "on".
    assert.deepEqual(await told("I'll call you Friday."), ['Sarah will call Tom on Friday 27 November 2026']);
  });

  test('a reflexive stays a reflexive of its subject', async () => {
    // On main: "Sarah will order it Sarah", "Sarah asked Tom to do it Tom", "Sarah and others did it ourselves".
    assert.deepEqual(await told("I'll order it myself."), ['Sarah will order it themself']);
    assert.deepEqual(await told('Can you do it yourself?'), ['Sarah asked Tom to do it themself']);
    assert.deepEqual(await told('We did it ourselves.'), ['Sarah and others did it themselves']);
    // As a subject it is the person ("Myself and Ben will go": "Lena and Ben will go", pronouns.test.ts).
  });

  test('"us" holding the subject is "everyone", or the reflexive and the others named', async () => {
    // On main: "Sarah will drive Sarah and others to grandma's", "Sarah will drive Sarah and Tom to grandma's".
    assert.deepEqual(await told("I will drive us to grandma's.", []), ["Sarah will drive everyone to grandma's"]);
    assert.deepEqual(await told("I will drive us to grandma's."), ["Sarah will drive themself and Tom to grandma's"]);
  });

  test('the part of the day stays when the date is written', async () => {
    // On main: "… to grandma's on Saturday 5 December 2026", "Sarah will call Tom on Saturday 5 December 2026".
    assert.deepEqual(await told("We are going to grandma's on Saturday morning.", [], TUE),
      ["Sarah and others are going to grandma's on the morning of Saturday 5 December 2026"]);
    assert.deepEqual(await told("I'll call you Saturday evening.", ['tom'], TUE), ['Sarah will call Tom on the evening of Saturday 5 December 2026']);
  });

  test('"with us" after the same group as subject is "with them"', async () => {
    // On main: "Sarah and others are taking the dog with Sarah and others".
    assert.deepEqual(await told('We are taking the dog with us.', []), ['Sarah and others are taking the dog with them']);
    assert.deepEqual(await told('We are taking the dog with us.'), ['Sarah and others are taking the dog with them']);
  });
});
