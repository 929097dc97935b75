/**
 * Rules 97 (issue #16 items 2–4, defects 1–4 of the brief): a slot booked "on <day> at <hour>" lies ahead though the
 * booking is told as past; a date night is the day's, not today's; a meeting about an evening thing keeps business
 * hours when first said; a bare 9–11 for a thing that runs by day as well (a film festival) is the morning. Each failed
 * on main abd378e4 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eveningOuting } from '../../../pipelines/memory/clock-time.js';
import { datedSaid } from '../../helpers/extract-said.js';
import { openFactsAfter } from '../../helpers/memory-fixture.js';

/** Monday 7 December 2026: the coming Friday is the 11th, the last one the 4th. */
const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';
const COMING_FRIDAY = 'Friday 11 December 2026';
const LAST_FRIDAY = 'Friday 4 December 2026';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);
/** The facts' texts and event times of `text`, said by Maria to Jo on Monday 7 December 2026. */
const facts = (text: string): Promise<string[]> =>
  datedSaid(text, MONDAY, ['maria', 'Maria'], ['jo', 'Jo']);

describe('rules 97: a slot booked on a day at an hour lies ahead (issue #16, defect 1)', () => {
  test('"I booked a table / We have a table booked at Luigi\'s on Friday at 7pm": the coming Friday at 7pm', async () => {
    // On main: Friday 4 December 2026 at 7pm (the participle read as a past event).
    for (const text of ["I booked a table at Luigi's on Friday at 7pm", "We have a table booked at Luigi's on Friday at 7pm",
      "I've reserved a room at the Hilton on Friday at 3pm", 'I booked an appointment with Dr. Patel on Friday at 10am',
      'I booked the flights on Friday at 6am']) {
      const got = await facts(text);
      assert.ok(got.some((c) => c.includes(COMING_FRIDAY) && c.includes('[2026-12-11]')), `${text}: ${JSON.stringify(got)}`);
      assert.ok(!got.some((c) => c.includes(LAST_FRIDAY) || c.includes('2026-12-04')), `${text}: ${JSON.stringify(got)}`);
    }
  });

  test('told of the past, with no booked slot at an hour, the day stays behind', async () => {
    for (const text of ["We had dinner at Luigi's on Friday", "I booked a table at Luigi's last Friday", 'I booked the flights on Friday',
      "We had dinner at Luigi's on Friday at 7pm", 'Tom booked a table at Luigi\'s last Friday at 7pm']) {
      const got = await facts(text);
      assert.ok(!got.some((c) => c.includes(COMING_FRIDAY) || c.includes('2026-12-11')), `${text}: ${JSON.stringify(got)}`);
    }
  });
});

describe('rules 97: a date night on a day at a bare hour (issue #16, defect 2)', () => {
  test('"We have date night on Friday at 8": the coming Friday at 8pm', async () => {
    // On main: dated today, Monday 7 December 2026.
    const got = await facts('We have date night on Friday at 8');
    assert.ok(got.some((c) => c.includes(`${COMING_FRIDAY} at 8pm`)), JSON.stringify(got));
    assert.ok(!got.some((c) => c.includes('Monday 7 December') || c.includes('[2026-12-07]')), JSON.stringify(got));
  });

  test('"We have game night on Saturday at 7": Saturday at 7pm; "We had date night on Friday": last Friday', async () => {
    // On main: dated today ("have game on the night of Monday 7 December 2026 at 7pm"), and so was the past date night.
    const game = await facts('We have game night on Saturday at 7');
    assert.ok(game.some((c) => c.includes('Saturday 12 December 2026 at 7pm')), JSON.stringify(game));
    const had = await facts('We had date night on Friday');
    assert.ok(had.some((c) => c.includes(LAST_FRIDAY)), JSON.stringify(had));
  });
});

describe('rules 97: a meeting about an evening thing keeps business hours when first said (issue #16, defect 3)', () => {
  test('"I\'m meeting Tom about the party on Friday at 10": 10am', async () => {
    // On main: at 10pm.
    const got = await facts("I'm meeting Tom about the party on Friday at 10");
    assert.ok(got.some((c) => c.includes(`${COMING_FRIDAY} at 10am`)), JSON.stringify(got));
  });

  test('"about" an hour is no thing a meeting is about: meeting for dinner "at about 8" stays the evening', () => {
    for (const text of ["Let's meet for dinner at about 8 on Friday", "Let's meet about 8 on Friday for drinks"]) {
      assert.ok(eveningOuting(text), text);
    }
    assert.ok(!eveningOuting("We're meeting the caterer about the dinner on Friday at 9"));
  });

  test('"I\'m meeting Ana for dinner on Friday at 7" stays 7pm', async () => {
    const got = await facts("I'm meeting Ana for dinner on Friday at 7");
    assert.ok(got.some((c) => c.includes(`${COMING_FRIDAY} at 7pm`)), JSON.stringify(got));
  });
});

describe('rules 97: a bare 9–11 for a thing that runs by day is the morning (issue #16, defect 4)', () => {
  test('a film festival moved to "Saturday at 10 instead": Saturday at 10am', async () => {
    // On main: Saturday 12 December 2026 at 10pm.
    const open = await said('t-97-festival', ["We're going to the film festival on Friday at 8", "Let's do Saturday at 10 instead"]);
    assert.ok(open.some((c) => c.includes('Saturday 12 December 2026 at 10am')), JSON.stringify(open));
    assert.ok(!open.some((c) => /at 10pm/.test(c)), JSON.stringify(open));
  });

  test('"We\'re going to the film festival on Friday at 10": 10am; at 8 stays 8pm', async () => {
    // On main: at 10pm.
    const got = await facts("We're going to the film festival on Friday at 10");
    assert.ok(got.some((c) => c.includes(`${COMING_FRIDAY} at 10am`)), JSON.stringify(got));
    const eight = await facts("We're going to the film festival on Friday at 8");
    assert.ok(eight.some((c) => c.includes(`${COMING_FRIDAY} at 8pm`)), JSON.stringify(eight));
  });

  test('dinner and a party at 10 stay the evening', async () => {
    for (const text of ["We're having dinner at Luigi's on Friday at 10", "We're going to a party at Tom's on Friday at 10"]) {
      const got = await facts(text);
      assert.ok(got.some((c) => c.includes(`${COMING_FRIDAY} at 10pm`)), `${text}: ${JSON.stringify(got)}`);
    }
    const open = await said('t-97-dinner', ["We're having dinner at Luigi's on Friday at 8", "Let's do Saturday at 10 instead"]);
    assert.ok(open.some((c) => c.includes('Saturday 12 December 2026 at 10pm')), JSON.stringify(open));
  });
});
