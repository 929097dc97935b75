/**
 * Rules 84 (newcomer; issue #16, a newcomer's trial as a user): a request opening a later sentence with another person's
 * name is asked of that person, not of whom the turn was said to first; a receptionist's "you are booked with Dr. Patel on
 * Tuesday at 10am" is the caller's booking. Each fails on main 7b76b708 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-11-30T09:00:00.000Z';
const LATER = '2026-11-30T09:01:00.000Z';

const contents = (facts: readonly { content: string }[]): string[] => facts.map((f) => f.content);

describe('rules 84: a later sentence calling another person by name is said to them (trial S1)', () => {
  test('"Thanks Liam. Chen, can you review …?" asks Chen, a participant the turn was not said to', async () => {
    // On main: ["Priya asked Liam to review the payment pull request on Monday 30 November 2026"].
    const facts = await factsSaid('Thanks Liam. Chen, can you review the payment pull request today?', MONDAY, ['priya', 'Priya'], ['liam', 'Liam'], [['chen', 'Chen']]);
    assert.deepEqual(contents(facts), ['Priya asked Chen to review the payment pull request on Monday 30 November 2026']);
    assert.deepEqual(facts[0]?.addresseeIds, ['chen']);
  });

  test('Chen not known yet: still asked by name, and no one known is the listener', async () => {
    // On main: ["Priya asked Liam to review the payment pull request on Monday 30 November 2026"].
    const facts = await factsSaid('Thanks Liam. Chen, can you review the payment pull request today?', MONDAY, ['priya', 'Priya'], ['liam', 'Liam']);
    assert.deepEqual(contents(facts), ['Priya asked Chen to review the payment pull request on Monday 30 November 2026']);
    assert.deepEqual(facts[0]?.addresseeIds, []);
  });

  test('said to both, each sentence is said to the one it calls', async () => {
    // On main: ["Liam will send Priya…", "Priya asked Liam and Chen to review…"] or the like: the request went to both.
    const { facts } = await new EmbeddedExtractor().extract({
      current: { id: 'u1', speakerId: 'priya', addresseeIds: ['liam', 'chen'], text: 'Liam, please send me the API docs by Wednesday. Chen, can you review the payment pull request today?', time: MONDAY, sessionId: 's' } as never,
      previous: [], names: { priya: 'Priya', liam: 'Liam', chen: 'Chen' },
    });
    const said = contents(facts);
    assert.ok(said.includes('Priya asked Chen to review the payment pull request on Monday 30 November 2026'), JSON.stringify(said));
    assert.ok(said.some((s) => /^Priya asked Liam to send Priya the API docs/.test(s)), JSON.stringify(said));
  });

  test('one person called in every sentence, or a name opening the first sentence only, is as before', async () => {
    const own = await factsSaid('Liam, can you review the payment pull request today?', MONDAY, ['priya', 'Priya'], ['liam', 'Liam'], [['chen', 'Chen']]);
    assert.deepEqual(contents(own), ['Priya asked Liam to review the payment pull request on Monday 30 November 2026']);
    const again = await factsSaid('Thanks Liam. Liam, can you review the payment pull request today?', MONDAY, ['priya', 'Priya'], ['liam', 'Liam'], [['chen', 'Chen']]);
    assert.deepEqual(contents(again), ['Priya asked Liam to review the payment pull request on Monday 30 November 2026']);
    // A name that is a day opens no call.
    const day = await factsSaid('Thanks Liam. Monday, I will send you the docs.', MONDAY, ['priya', 'Priya'], ['liam', 'Liam']);
    assert.ok(contents(day).every((s) => !/asked Monday|Monday will/.test(s)), JSON.stringify(contents(day)));
  });
});

describe('rules 84: "you are booked …" is the listener\'s booking (trial C3)', () => {
  test('a receptionist\'s confirmation is the caller\'s dated booking', async () => {
    // On main: [] (no fact: a sentence about the listener was no memory).
    for (const s of ['Great, you are booked with Dr. Patel on Tuesday at 10am. Do you have any allergies we should know about?',
      "You're booked in with Dr. Patel on Tuesday at 10am."]) {
      const facts = await factsSaid(s, MONDAY, ['jess', 'Jess'], ['maria', 'Maria Lopez']);
      assert.ok(contents(facts).some((c) => /^Maria Lopez is booked (?:in )?with Dr\. Patel on Tuesday 1 December 2026 at 10am$/.test(c)), `${s}: ${JSON.stringify(contents(facts))}`);
    }
  });

  test('undated, asked, or about no listener: nothing, as before', async () => {
    for (const s of ['You are booked with Dr. Patel.', 'Are you booked with Dr. Patel on Tuesday?', 'You are booked with Dr. Patel on Tuesday?']) {
      assert.deepEqual(contents(await factsSaid(s, MONDAY, ['jess', 'Jess'], ['maria', 'Maria Lopez'])), [], s);
    }
  });

  describe('consolidated', () => {
    const fixtures: MemoryFixture[] = [];
    after(async () => {
      for (const f of fixtures) await f.close();
    });
    test('the booking is kept, and a booking at a new time "instead" replaces it', async () => {
      // On main: no Tuesday booking was kept.
      const f = await memoryFixture('t-84-booked', ['Jess', 'Maria Lopez']);
      fixtures.push(f);
      const open = async (): Promise<string[]> => (await f.memory.listFacts('t-84-booked')).filter((x) => x.validTo === null).map((x) => x.content);
      await f.say('s1', 'Jess', ['Maria Lopez'], 'Great, you are booked with Dr. Patel on Tuesday at 10am.', MONDAY);
      const booked = await open();
      assert.ok(booked.includes('Maria Lopez is booked with Dr. Patel on Tuesday 1 December 2026 at 10am'), JSON.stringify(booked));
      await f.say('s1', 'Jess', ['Maria Lopez'], "No problem, you're now booked with Dr. Patel on Thursday at 3pm instead.", LATER);
      const moved = await open();
      assert.ok(!moved.some((c) => /Tuesday/.test(c)), JSON.stringify(moved));
      assert.ok(moved.some((c) => /^Maria Lopez is now booked with Dr\. Patel on Thursday 3 December 2026 at 3pm/.test(c)), JSON.stringify(moved));
    });
  });
});

describe('rules 84: a day said as a thing takes no "on" (trial C1, C2)', () => {
  test('"Tuesday at 10am works for me", "Dr. Patel has Tuesday at 10am or Thursday at 3pm"', async () => {
    // On main: "On Tuesday 1 December 2026 at 10am works for Maria Lopez", "Dr. Patel has on Tuesday … or on Thursday …".
    const works = await factsSaid('Tuesday at 10am works for me.', MONDAY, ['maria', 'Maria Lopez'], ['jess', 'Jess']);
    assert.deepEqual(contents(works), ['Tuesday 1 December 2026 at 10am works for Maria Lopez']);
    const has = await factsSaid('Sure Maria. Dr. Patel has Tuesday at 10am or Thursday at 3pm.', MONDAY, ['jess', 'Jess'], ['maria', 'Maria Lopez']);
    assert.deepEqual(contents(has), ['Dr. Patel has Tuesday 1 December 2026 at 10am or Thursday 3 December 2026 at 3pm']);
  });

  test('a day said as a time keeps its "on", after "or" too', async () => {
    const free = await factsSaid('I am free Tuesday or Thursday.', MONDAY, ['maria', 'Maria Lopez'], ['jess', 'Jess']);
    assert.ok(contents(free).every((c) => !/free Tuesday|or Thursday/.test(c)), JSON.stringify(contents(free)));
    const call = await factsSaid('I will call you Tuesday or Thursday.', MONDAY, ['maria', 'Maria Lopez'], ['jess', 'Jess']);
    assert.deepEqual(contents(call), ['Maria Lopez will call Jess on Tuesday 1 December 2026 or on Thursday 3 December 2026']);
  });

  test('"we have Tuesday off": the day had', async () => {
    // On main: "Maria Lopez and others have on Tuesday 1 December 2026 off".
    assert.deepEqual(contents(await factsSaid('We have Tuesday off.', MONDAY, ['maria', 'Maria Lopez'], ['jess', 'Jess'])),
      ['Maria Lopez and others have Tuesday 1 December 2026 off']);
  });
});
