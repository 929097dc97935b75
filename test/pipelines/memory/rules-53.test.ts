/**
 * Rules 53 (trial10 F5, F6, F7; a weekly team meeting of Ana, Ben, Chidi and Dana): a meeting's own words are no memory,
 * a request's "your" is the one asked's, a restart "I, uh, I" is one "I", a topic said first goes after its clause, and a
 * "we" said to the room names no one member. Each test fails on main 5c1af1d1 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION, EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import { FACTS_PROMPT_VERSION, FACTS_SYSTEM_PROMPT } from '../../../pipelines/memory/llm-prompts.js';
import { meetingFormula, withTopicLast } from '../../../pipelines/memory/meeting-phrases.js';

const TIME = '2026-11-09T10:00:00.000Z';
const NAMES = { ana: 'Ana', ben: 'Ben', chidi: 'Chidi', dana: 'Dana' };
const ROOM = Object.keys(NAMES);

/** The facts' kinds and texts of `text` said by `speaker` to `to` (default: everyone else), after `previous` turns. */
async function said(speaker: string, text: string, to = ROOM.filter((p) => p !== speaker), previous: Array<[string, string]> = []): Promise<string[]> {
  const turn = (id: string, by: string, words: string, seq: number, addressees: string[]) => ({ id, sessionId: 's', speakerId: by,
    addresseeIds: addressees, text: words, startMs: null, endMs: null, time: TIME, confidence: null, audioRef: null, seq });
  const before = previous.map(([by, words], i) => turn(`p${i}`, by, words, i + 1, ROOM.filter((p) => p !== by)));
  const { facts } = await new EmbeddedExtractor().extract({ current: turn('u', speaker, text, previous.length + 1, to), previous: before, names: NAMES });
  return facts.map((f) => f.content);
}

describe('rules 53: a meeting', () => {
  test('the version is 53 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 53);
  });

  test('its thanks, farewells, steps and bare reactions are no memory', async () => {
    // On main: "Hmm, that seems like a lot"; "Alright, thanks everyone, see Ben, Chidi and Dana in the week of…"; "Ana,
    // Ben, Chidi and Dana plan to go through the action items".
    assert.deepEqual(await said('ben', 'Hmm, that seems like a lot.'), []);
    assert.deepEqual(await said('ana', 'Alright, thanks everyone, see you next week.'), []);
    assert.deepEqual(await said('ana', "Okay, let's go through the action items."), []);
    assert.deepEqual(await said('ana', "Let's get started."), []);
    assert.deepEqual(await said('dana', 'That sounds good.'), []);
  });

  test('what names a thing of its own stays', async () => {
    assert.deepEqual(await said('ana', "Let's review the budget on Friday."), ['Ana and the group plan to review the budget on Friday 13 November 2026']);
    assert.ok(!meetingFormula('That seems like a lot for the venue.'));
    assert.ok(!meetingFormula('Thanks everyone, the launch moves to April.'));
    assert.ok(meetingFormula('Great meeting, thanks all.'));
  });

  test('a reaction that answers a question by someone else is no formula (review12 F9)', async () => {
    assert.ok(meetingFormula("Okay, that's right."));
    assert.ok(!meetingFormula("Okay, that's right.", true));
    assert.ok(!meetingFormula("Yes, that's high.", true));
    assert.ok(meetingFormula('Thanks everyone, see you next week.', true), 'a farewell stays a formula after a question');
    // No rule reads a confirmation into a fact yet: the answer is kept for the rules, and gives none.
    assert.deepEqual(await said('ana', "Okay, that's right.", ['ben'], [['ben', "So it's 12 Elm Street?"]]), []);
  });

  test('a request\'s "your" is the one asked\'s, and a "her" no one resolves stays', async () => {
    // On main: "Ana asked Chidi to hand her Chidi's notes" (her = Dana, mentioned before; read as Ana).
    assert.deepEqual(await said('ana', 'Chidi, please hand her your notes.', ['chidi'], [['dana', 'I missed last week.']]),
      ['Ana asked Chidi to hand her their notes']);
  });

  test('a restart around a filler is one word, and a topic said first goes after its clause', async () => {
    // On main: "About the budget, Dana, Dana changed their mind".
    assert.deepEqual(await said('dana', 'About the budget, I, uh, I changed my mind.'), ['Dana changed their mind about the budget']);
    assert.equal(withTopicLast('As for the launch, I am not sure.'), 'I am not sure about the launch.');
    assert.equal(withTopicLast('About the budget, we cut it by ten percent.'), 'About the budget, we cut it by ten percent.', 'no word that takes "about"');
  });

  test('a "we" said to the room is the speaker and the group, never the previous speaker nor one member by name', async () => {
    // On main: "Ana, Ben, Chidi and Dana will use…" (and "Ana and Chidi will use…" with the turn addressed to Chidi, the
    // previous speaker, as ingest did): erasing any one of them took the group's decision (F7).
    assert.deepEqual(await said('ana', "Okay, we'll use ClickHouse for analytics.", undefined, [['chidi', 'ClickHouse is faster.']]),
      ['Ana and the group will use ClickHouse for analytics']);
    // Said to one person, "we" takes them in as before.
    assert.deepEqual(await said('ana', "We'll use ClickHouse for analytics.", ['chidi']), ['Ana and Chidi will use ClickHouse for analytics']);
  });

  test('facts-v12 tells the model the same group "we"', () => {
    // On main: facts-v11, which says nothing of a "we" said to a group.
    assert.ok(Number(/^facts-v(\d+)$/.exec(FACTS_PROMPT_VERSION)?.[1]) >= 12, FACTS_PROMPT_VERSION);
    assert.match(FACTS_SYSTEM_PROMPT, /"we"\s+said to two or more people is "<name> and the group"/);
  });
});
