/**
 * Rules 50 (issue #16 items 2–4, the rules50 backlog): embedded extraction leftovers. Each test fails on main 6e00ae3a
 * (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EMBEDDED_RULES_VERSION } from '../../../pipelines/memory/embedded-extractor.js';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { contentsAfter, factsSaid } from '../../helpers/extract-said.js';

/** A Monday. */
const TIME = '2026-11-23T10:00:00.000Z';
const facts = (text: string): Promise<ExtractedFact[]> => factsSaid(text, TIME, ['ana', 'Ana'], ['tom', 'Tom']);
const read = async (text: string): Promise<Array<[string, string | null]>> => (await facts(text)).map((f) => [f.content, f.eventTime ?? null]);

describe('rules 50: extraction leftovers', () => {
  test('the version is 50 or later', () => {
    assert.ok(EMBEDDED_RULES_VERSION >= 50);
  });

  test('the day a booking is for is the coming one', async () => {
    // On main: "Ana booked the table for Friday 20 November 2026", the Friday before.
    assert.deepEqual(await read('I booked the table for Friday.'), [['Ana booked the table for Friday 27 November 2026', '2026-11-27']]);
    assert.deepEqual(await read('We reserved a room for Saturday.'), [['Ana and others reserved a room for Saturday 28 November 2026', '2026-11-28']]);
    // The day of the booking itself, told of the past, stays behind.
    assert.deepEqual(await read('I booked it on Friday.'), [['Ana booked it on Friday 20 November 2026', '2026-11-20']]);
  });
});

describe('rules 50: a clock time said with the day', () => {
  test('is kept in the text; the event time stays the day', async () => {
    // On main: "…on the evening of Friday 27 November 2026" (the 7pm dropped).
    assert.deepEqual(await read("We're having dinner on Friday evening at 7pm."),
      [['Ana and Tom are having dinner on the evening of Friday 27 November 2026 at 7pm', '2026-11-27']]);
    assert.deepEqual(await read('Dinner is at 7:30pm on Friday.'), [['Dinner is on Friday 27 November 2026 at 7:30pm', '2026-11-27']]);
    assert.deepEqual(await read("I'll call you tomorrow at 9am."), [['Ana will call Tom on Tuesday 24 November 2026 at 9am', '2026-11-24']]);
    // A plan's slot names its day alone, so a change of plan for the day still finds it.
    assert.equal((await facts("We're having dinner on Friday evening at 7pm."))[0]?.slot, 'plan:having:2026-11-27');
    // A span from now that chrono gives an hour names no clock time (LoCoMo dev: "…not gonna forget a second of it").
    assert.ok(!(await facts("Tomorrow I'm not gonna forget a second of it.")).some((f) => /\d:\d\d|\dpm|\dam/.test(f.content)));
    // A bare hour with nothing to say morning or evening, said of a day ahead, is read by business hours (trial12 F10).
    assert.deepEqual(await read("Let's meet at 4 on Friday."), [['Ana and Tom plan to meet on Friday 27 November 2026 at 4pm', '2026-11-27']]);
  });
});

describe('rules 50: joint subjects and declined offers', () => {
  test('"Me and Ben" is the speaker and Ben', async () => {
    // On main: no fact at all.
    assert.deepEqual((await facts('Me and Ben like hiking.')).map((f) => [f.kind, f.content, f.slot]),
      [['preference', 'Ben and Ana like hiking', 'preference:hiking']]);
    assert.deepEqual((await facts('Me and my sister love sushi.')).map((f) => f.content), ["Ana's sister and Ana love sushi"]);
    assert.deepEqual((await facts('Ben and me went hiking on Saturday.')).map((f) => f.content), ['Ben and Ana went hiking on Saturday 21 November 2026']);
  });

  test('a thing offered and declined is a refusal', async () => {
    // On main: "No thanks, Tom doesn't drink tea" (the refusal kept in the words) and, said bare, nothing.
    assert.deepEqual(await contentsAfter('Do you want tea?', "No thanks, I don't drink tea.", TIME), ["Tom turned down Ana's offer of tea", "Tom doesn't drink tea"]);
    assert.deepEqual(await contentsAfter('Would you like a biscuit?', 'No thanks.', TIME), ["Tom turned down Ana's offer of a biscuit"]);
    // A question about doing something is no thing offered.
    assert.deepEqual(await contentsAfter('Do you want to come?', 'No thanks.', TIME), []);
  });
});

describe('rules 50: the speaker said again as an object', () => {
  test('inside a relative clause it is "them", not the reflexive', async () => {
    // On main: "Ana cherishes moments that bring themself and Ben happiness".
    assert.deepEqual((await facts('I cherish moments that bring me and Ben happiness.')).map((f) => f.content),
      ['Ana cherishes moments that bring them and Ben happiness']);
    // The opening subject's own verb keeps the reflexive, after a "that" clause's own subject too.
    assert.deepEqual((await facts('I will drive me and Ben to school.')).map((f) => f.content), ['Ana will drive themself and Ben to school']);
    assert.deepEqual((await facts('I said that I would drive me and Ben to school.')).map((f) => f.content),
      ['Ana said that they would drive themself and Ben to school']);
  });
});
