/**
 * The assistant's own name (fix9, issue #16 F4, a home-robot trial): "Robot, we are going to grandma's on Saturday"
 * became "Sarah and Robot are going to grandma's…", the robot read as a person called and made one of "we".
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../../server/config.js';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { DEFAULT_ASSISTANT_NAMES } from '../../../pipelines/interaction/non-person-labels.js';

const T = '2026-12-01T10:00:00.000Z';

/** The facts' texts of `text` said by Sarah to `addressees` (ids of `names`), by an extractor with `assistantNames`. */
async function told(text: string, addressees: string[] = [], assistantNames?: string[]): Promise<string[]> {
  const { facts } = await new EmbeddedExtractor(assistantNames ? { assistantNames } : {}).extract({
    current: { id: 'u1', sessionId: 's', speakerId: 'sarah', addresseeIds: addressees, text, startMs: null, endMs: null, time: T, confidence: null, audioRef: null, seq: 1 },
    previous: [], names: { sarah: 'Sarah', tom: 'Tom', bot: 'Robot' },
  });
  return facts.map((f) => f.content);
}

describe('the assistant is no person of the family', () => {
  test('called by name, it is no listener and no one of "we"; its name is no part of the fact', async () => {
    const trip = ["Sarah and others are going to grandma's on Saturday 5 December 2026"];
    assert.deepEqual(await told("Robot, we are going to grandma's on Saturday."), trip);
    assert.deepEqual(await told("Hey computer, we are going to grandma's on Saturday."), trip);
    assert.deepEqual(await told("We are going to grandma's on Saturday, robot."), trip);
    // On main: "Sarah will drive Sarah and Robot…", and with no one called "…Sarah and the listener…".
    // text7: "us" holding the driver is "everyone", and the part of the day stays.
    const drive = ["Sarah will drive everyone to grandma's on the morning of Saturday 5 December 2026"];
    assert.deepEqual(await told("Robot, I will drive us to grandma's on Saturday morning."), drive);
    assert.deepEqual(await told("I will drive us to grandma's on Saturday morning."), drive);
  });

  test('a participant named like it (its own turns stored under its name) is no addressee in "we"', async () => {
    assert.deepEqual(await told("We are going to grandma's on Saturday.", ['bot']), ["Sarah and others are going to grandma's on Saturday 5 December 2026"]);
    assert.deepEqual(await told("We are going to grandma's on Saturday.", ['bot', 'tom']), ["Sarah and Tom are going to grandma's on Saturday 5 December 2026"]);
  });

  test('the word talked about stays; with no assistant names a name called is a listener, as before', async () => {
    assert.deepEqual(await told('The robot is charging in the hall.'), ['The robot is charging in the hall']);
    assert.deepEqual(await told("Robot, we are going to grandma's on Saturday.", [], []), ["Sarah and Robot are going to grandma's on Saturday 5 December 2026"]);
  });

  test('PARLEY_ASSISTANT_NAMES sets the names; "none" sets none', () => {
    assert.deepEqual(loadConfig({}).assistantNames, [...DEFAULT_ASSISTANT_NAMES]);
    assert.deepEqual(loadConfig({ PARLEY_ASSISTANT_NAMES: 'Rosie, Hal ' }).assistantNames, ['Rosie', 'Hal']);
    assert.deepEqual(loadConfig({ PARLEY_ASSISTANT_NAMES: 'none' }).assistantNames, []);
  });
});
