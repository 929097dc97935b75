/**
 * Rules 102 (fix97; review rv97 of rules 97, H1–H5): a booking told with a past outcome stays in the past; the noun
 * "booking" is no verb of booking; a meeting "for dinner" or "over drinks" about a thing, or "about an hour before the
 * show", keeps the evening; a named night with no day said is tonight; the day of the act of booking said with no hour
 * of its own stays behind. Each failed on main 8f46c142 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { datedSaid } from '../../helpers/extract-said.js';
import { openFactsAfter } from '../../helpers/memory-fixture.js';

/** Monday 7 December 2026: the coming Friday is the 11th, the last one the 4th. */
const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);
/** The facts' texts and event times of `text`, said by Maria to Jo on Monday 7 December 2026. */
const facts = (text: string): Promise<string[]> =>
  datedSaid(text, MONDAY, ['maria', 'Maria'], ['jo', 'Jo']);

/** Asserts that `text`'s facts name the day `day` (e.g. '2026-12-04') and not `not`. */
async function dated(text: string, day: string, not: string): Promise<void> {
  const got = await facts(text);
  assert.ok(got.some((c) => c.includes(`[${day}`)), `${text}: ${JSON.stringify(got)}`);
  assert.ok(!got.some((c) => c.includes(`[${not}`)), `${text}: ${JSON.stringify(got)}`);
}

describe('rules 102: a booking told with a past outcome stays in the past (rv97 H1)', () => {
  test('"… and it was amazing", "but I missed it", "The tour we booked … was amazing": last Friday / Saturday', async () => {
    // On main: the coming Friday 11 / Saturday 12 December.
    for (const [text, day, not] of [
      ['I booked a tour on Friday at 10am and it was amazing', '2026-12-04', '2026-12-11'],
      ['My session was scheduled on Friday at 2pm but I missed it', '2026-12-04', '2026-12-11'],
      ['I arranged a taxi on Saturday at 5am but it never came', '2026-12-05', '2026-12-12'],
      ["I booked a table at Luigi's on Friday at 7pm and we had a great time", '2026-12-04', '2026-12-11'],
      ['The tour we booked on Saturday at 10am was amazing', '2026-12-05', '2026-12-12'],
      ['I booked a session on Friday at 2pm, it was great', '2026-12-04', '2026-12-11'],
      ["Tom booked a table at Luigi's on Friday at 7pm and they loved it", '2026-12-04', '2026-12-11'],
    ] as const) await dated(text, day, not);
  });
});

describe('rules 102: the noun "booking" is no verb of booking (rv97 H2)', () => {
  test('"I had a booking at Luigi\'s on Friday at 7pm", "Our booking … went really well": last Friday', async () => {
    // On main: Friday 11 December.
    for (const text of ["I had a booking at Luigi's on Friday at 7pm", 'Our booking on Friday at 7pm went really well',
      'She had a booking at the salon on Friday at 3pm but she cancelled it']) await dated(text, '2026-12-04', '2026-12-11');
  });
});

describe('rules 102: a meeting for an evening outing about a thing keeps the evening (rv97 H3)', () => {
  test('"meeting Tom for dinner about the trip on Friday at 8", "over drinks", "about an hour before the movie": pm', async () => {
    // On main: 8am / 9am / 10am / 7am.
    for (const [text, hour] of [
      ["I'm meeting Tom for dinner about the trip on Friday at 8", '8pm'],
      ["I'm meeting Ana for drinks about the wedding on Friday at 9", '9pm'],
      ["Let's meet about the party over dinner on Friday at 8", '8pm'],
      ["I'm meeting Tom about the party on Friday at 10 over drinks", '10pm'],
      ["I'll meet you there about half an hour before the show on Friday at 8", '8pm'],
      ["We're meeting outside the theatre about 15 minutes early on Friday at 7", '7pm'],
    ] as const) {
      const got = await facts(text);
      assert.ok(got.some((c) => c.includes(`Friday 11 December 2026 at ${hour}`)), `${text}: ${JSON.stringify(got)}`);
    }
  });

  test('then "How about 9 instead?": 9pm', async () => {
    // On main: 9am.
    const open = await said('t-102-dinner-about', ["I'm meeting Tom for dinner about the trip on Friday at 8", 'How about 9 instead?']);
    assert.ok(open.some((c) => c.includes('Friday 11 December 2026 at 9pm')), JSON.stringify(open));
  });

  test('"I\'m meeting Tom about the party on Friday at 10" stays 10am (rules 97)', async () => {
    const got = await facts("I'm meeting Tom about the party on Friday at 10");
    assert.ok(got.some((c) => c.includes('Friday 11 December 2026 at 10am')), JSON.stringify(got));
  });
});

describe('rules 102: a named night with no day said is tonight (rv97 H4)', () => {
  test('"We have date night at 8", "We have game night at 7", said at 10am: tonight', async () => {
    // On main: Tuesday 8 December 2026.
    for (const [text, hour] of [['We have date night at 8', '8pm'], ['We have game night at 7', '7pm'],
      ['We have quiz night at 8 at the pub', '8pm']] as const) {
      const got = await facts(text);
      assert.ok(got.some((c) => c.includes(`Monday 7 December 2026 at ${hour}`) && c.includes('[2026-12-07')), `${text}: ${JSON.stringify(got)}`);
      assert.ok(!got.some((c) => c.includes('2026-12-08')), `${text}: ${JSON.stringify(got)}`);
    }
  });

  test('then "Let\'s do 9 instead": tonight at 9pm', async () => {
    const open = await said('t-102-date-night', ['We have date night at 8', "Let's do 9 instead"]);
    assert.ok(open.some((c) => c.includes('Monday 7 December 2026 at 9pm')), JSON.stringify(open));
  });
});

describe('rules 102: the day of the act of booking, said with no hour, stays behind (rv97 H5)', () => {
  test('"I booked a table at Luigi\'s on Friday for Saturday at 7pm": booked last Friday, for Saturday 12 at 7pm', async () => {
    // On main: booked "on Friday 11 December 2026".
    for (const text of ["I booked a table at Luigi's on Friday for Saturday at 7pm", 'On Friday I booked a table for Saturday at 7pm']) {
      const got = await facts(text);
      assert.ok(got.some((c) => c.includes('Friday 4 December 2026') && c.includes('Saturday 12 December 2026 at 7pm')), `${text}: ${JSON.stringify(got)}`);
      assert.ok(!got.some((c) => c.includes('Friday 11 December')), `${text}: ${JSON.stringify(got)}`);
    }
  });

  test('"I booked the flights on Friday at 6am for our trip in January": booked last Friday', async () => {
    for (const text of ['I booked the flights on Friday at 6am for our trip in January', 'I booked tickets on Friday at 9am for the concert in March',
      'I booked a room on Friday, check-in is at 3pm']) {
      await dated(text, '2026-12-04', '2026-12-11');
    }
  });

  test('the slot itself still lies ahead: "I booked a table at Luigi\'s on Friday at 7pm", "… at 7pm for you"', async () => {
    for (const text of ["I booked a table at Luigi's on Friday at 7pm", "I've booked the court on Thursday at 6 for squash",
      "I booked a table at Luigi's on Friday at 7pm for the two of us", "I booked a table at Luigi's on Friday at 7pm for my birthday"]) {
      const got = await facts(text);
      assert.ok(got.some((c) => /\[2026-12-1[01]/.test(c)), `${text}: ${JSON.stringify(got)}`);
    }
  });
});
