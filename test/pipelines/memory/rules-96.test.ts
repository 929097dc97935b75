/**
 * Rules 96 (review of rules 90 and 93, rev93 findings 3, 4, 6): "change my appointment / switch my booking for 4pm
 * instead" retimes the booking again; a plan told as made in the past ("We had planned…", "…and it was amazing") stays
 * in the past; "as well" or "as you suggested" is no reason a cancellation keeps. Each failed on main 002d4877 (what it
 * did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, openFactsAfter } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);

describe('rules 96: a booking of one\'s own moved "for <hour> instead" (rev93 F3)', () => {
  test('"Can I change my appointment for 4pm instead?" after a dentist appointment on Friday at 2pm: Friday at 4pm', async () => {
    // On main: the 2pm booking closed and "Can Maria changes their appointment for Monday 7 December 2026 at 4pm instead?" kept.
    const open = await said('t-96-my-appointment', ['I have a dentist appointment on Friday at 2pm.', 'Can I change my appointment for 4pm instead?']);
    assert.ok(open.some((c) => /dentist appointment/.test(c) && /Friday 11 December 2026 at 4pm/.test(c)), JSON.stringify(open));
    assert.ok(!open.some((c) => /Monday 7 December/.test(c)), JSON.stringify(open));
  });

  test('"Could we switch my booking for 8pm instead?" after a table on Friday at 7pm: Friday at 8pm', async () => {
    // On main: the booking stayed at 7pm.
    const open = await said('t-96-my-booking', ['I have a table for two at Luigi\'s on Friday at 7pm.', 'Could we switch my booking for 8pm instead?']);
    assert.ok(open.some((c) => /Luigi/.test(c) && /Friday 11 December 2026 at 8pm/.test(c)), JSON.stringify(open));
  });

  test('"I\'ll push my call for 4pm instead" still leaves the dentist booking alone (rules 93)', async () => {
    const open = await said('t-96-my-call', ['My dentist appointment is on Tuesday at 5pm.', "I'll push my call for 4pm instead."]);
    assert.ok(open.some((c) => /dentist/.test(c) && /Tuesday 8 December 2026 at 5pm/.test(c)), JSON.stringify(open));
  });
});

describe('rules 96: a plan told as made in the past stays in the past (rev93 F4)', () => {
  test('"We had planned a trip to Japan in April but then covid hit", "…in May and it was amazing"', async () => {
    // On main: "Maria and Jo are planning a trip to Japan in April 2027", "…Lisbon in May 2027".
    for (const s of ['We had planned a trip to Japan in April but then covid hit.', 'We planned a trip to Lisbon in May and it was amazing.']) {
      const facts = (await factsSaid(s, MONDAY, ['maria', 'Maria'], ['jo', 'Jo'])).map((f) => f.content);
      assert.ok(!facts.some((c) => /are planning|2027/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('"We planned a trip to Lisbon in May." is still a plan for the coming May (rules 90)', async () => {
    const facts = (await factsSaid('We planned a trip to Lisbon in May.', MONDAY, ['maria', 'Maria'], ['jo', 'Jo'])).map((f) => f.content);
    assert.ok(facts.some((c) => /planning a trip to Lisbon in May 2027/.test(c)), JSON.stringify(facts));
  });
});

describe('rules 96: "as well", "as you suggested" are no reason for a cancellation (rev93 F6)', () => {
  test('"We had to cancel the Lisbon trip as well." only closes the plan', async () => {
    // On main: an open "…cancel the Lisbon trip as well" kept as a cancellation with its reason.
    for (const [i, cancel] of ['We had to cancel the Lisbon trip as well.', 'We had to cancel the Lisbon trip, as you suggested.'].entries()) {
      const f = await memoryFixture(`t-96-as-${i}`, ['Maria', 'Jo']);
      try {
        await f.say('s1', 'Maria', ['Jo'], 'We are planning a trip to Lisbon in May.', MONDAY);
        await f.say('s1', 'Maria', ['Jo'], cancel, LATER);
        const open = (await f.memory.listFacts(`t-96-as-${i}`)).map((x) => x.content);
        assert.deepEqual(open, [], cancel);
      } finally {
        await f.close();
      }
    }
  });
});
