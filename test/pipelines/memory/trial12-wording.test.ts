/**
 * Newcomer trial12 F17, fact wording: a self-introduction read "Tom Becker introduced themself" (no one writes
 * "themself" in a note of a call; now "The speaker's name is Tom Becker", as a named person's is "Ana's son is called
 * Leo"); a leading "Also, …" / "Plus, …" stayed in a fact's text on some paths ("Also, Ana is allergic to penicillin");
 * "Hi it is Tom Becker", as a recogniser writes "it's", was no introduction. Each test failed on main 674fd1be.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EmbeddedExtractor } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractionResult } from '../../../pipelines/memory/extractor.js';

const TIME = '2026-12-01T10:00:00.000Z';

/** What the rules read from `text` said by `a` (named as in `names`; null: not known yet) to `b`. */
function extract(text: string, names: Record<string, string | null> = { a: 'Ana', b: 'Agent Kim' }): Promise<ExtractionResult> {
  return new EmbeddedExtractor().extract({
    current: { id: 'u1', sessionId: 's', speakerId: 'a', addresseeIds: ['b'], text, time: TIME, startMs: null, endMs: null, confidence: null, audioRef: null, seq: 1 },
    previous: [], names,
  });
}
const contents = (r: ExtractionResult): string[] => r.facts.map((f) => f.content);

describe('trial12 F17: fact wording', () => {
  test('a self-introduction reads as a note of the name, with no "themself"', async () => {
    // On main: "Tom Becker introduced themself".
    for (const names of [{ a: null, b: 'Agent Kim' }, { a: 'caller', b: 'Agent Kim' }]) {
      const r = await extract("Hi, it's Tom Becker.", names);
      assert.deepEqual(r.facts.map((f) => [f.content, f.slot, f.value]), [["The speaker's name is Tom Becker", 'name', 'Tom Becker']]);
      assert.deepEqual(r.profileUpdates.map((p) => [p.participantId, p.attribute, p.value]), [['a', 'name', 'Tom Becker']]);
    }
    // On main: "Ana introduced themself".
    assert.deepEqual(contents(await extract('My name is Ana. I need a cleaning.')), ["The speaker's name is Ana", 'Ana needs a cleaning']);
  });

  test('"Hi it is Tom Becker", unpunctuated or not, is an introduction as "Hi, it\'s Tom Becker" is', async () => {
    // On main: no fact and no name.
    for (const text of ['Hi it is Tom Becker.', 'hi it is tom becker', 'Hello, it is Tom Becker, I need to move my appointment.']) {
      const r = await extract(text, { a: null, b: 'Agent Kim' });
      assert.deepEqual(r.profileUpdates.map((p) => [p.attribute, p.value]), [['name', 'Tom Becker']], text);
      assert.ok(contents(r).includes("The speaker's name is Tom Becker"), `${text}: ${JSON.stringify(contents(r))}`);
    }
    // The rest of the turn is still read as said.
    assert.ok(contents(await extract('Hello, it is Tom Becker, I need to move my appointment.', { a: null, b: 'Agent Kim' }))
      .includes('Tom Becker needs to move their appointment'));
    // Not a name: "Hi, it is Monday", "hi it is cold today", "Hello, it is nice to meet you".
    for (const text of ['Hi, it is Monday.', 'hi it is cold today', 'Hello, it is nice to meet you.']) {
      assert.deepEqual((await extract(text, { a: null, b: 'Agent Kim' })).profileUpdates, [], text);
    }
  });

  test('a leading "Also" or "Plus" is no part of a fact', async () => {
    // On main: "Also, Ana is allergic to penicillin", "Plus, Ana is allergic to penicillin", "Also Ana is allergic to penicillin".
    for (const text of ['Also, I am allergic to penicillin.', 'Plus, I am allergic to penicillin.', 'Oh and also I am allergic to penicillin.']) {
      assert.deepEqual(contents(await extract(text)), ['Ana is allergic to penicillin'], text);
    }
    // "also" after the subject stays: it is the speaker's word about the fact.
    assert.deepEqual(contents(await extract('I am also allergic to penicillin.')), ['Ana is also allergic to penicillin']);
  });
});

describe('"hi it is X" reads no weather and no "calling" as a name (rules 73, findingsD M6)', () => {
  test('an adjective after "it is" in uncapitalised speech is no name; a surname stops at "calling", "here", "out"', async () => {
    // On main: name "Sunny", "Nice Out", "Grace Calling".
    for (const text of ['hey it is sunny here', 'hi it is nice out', "hey it's sunny here"]) {
      const r = await extract(text, { a: null, b: 'Agent Kim' });
      assert.deepEqual(r.profileUpdates, [], `${text}: ${JSON.stringify(r.profileUpdates)}`);
      assert.ok(!contents(r).some((c) => /speaker's name/.test(c)), `${text}: ${JSON.stringify(contents(r))}`);
    }
    const grace = await extract('Hi it is Grace calling about the boiler.', { a: null, b: 'Agent Kim' });
    assert.deepEqual(grace.profileUpdates.map((p) => [p.attribute, p.value]), [['name', 'Grace']]);
    assert.ok(contents(grace).includes("The speaker's name is Grace"), JSON.stringify(contents(grace)));
    // Still names: "Hi it is Tom Becker", a name alone, "hi it's ana" uncapitalised.
    for (const [text, name] of [['Hi it is Tom Becker here.', 'Tom Becker'], ['hi it is ana', 'Ana'], ['Hey, it is Sunny.', 'Sunny']]) {
      const r = await extract(text!, { a: null, b: 'Agent Kim' });
      assert.deepEqual(r.profileUpdates.map((p) => [p.attribute, p.value]), [['name', name]], text);
    }
  });
});
