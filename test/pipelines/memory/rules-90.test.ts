/**
 * Rules 90 (newcomer trial, newc): a booking the receptionist made for the caller ("I have booked you in with Dr. Patel
 * on Tuesday at 10am") is the caller's, not the receptionist's. Failed on main 863c26dc (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The facts' texts of `text` said alone by Jo (the receptionist) to Ana (the caller). */
const toCaller = async (text: string): Promise<string[]> => (await factsSaid(text, MONDAY, ['jo', 'Jo'], ['ana', 'Ana'])).map((f) => f.content);

describe('rules 90: a booking made for the caller is the caller\'s (newcomer trial item 2)', () => {
  test('"I have booked you in…", "I\'ve booked you in…", "I booked you a table…", "you\'re all set for…"', async () => {
    // On main: "Jo has booked Ana in with Dr. Patel…" (the receptionist's act), "Jo booked Ana a table for two on Friday 4
    // December…" (last Friday), and nothing for "you're all set".
    for (const [s, want] of [
      ['I have booked you in with Dr. Patel on Tuesday at 10am', /^Ana is booked in with Dr\. Patel on Tuesday 8 December 2026 at 10am$/],
      ["I've booked you in with Dr. Patel on Tuesday at 10am", /^Ana is booked in with Dr\. Patel on Tuesday 8 December 2026 at 10am$/],
      ["Okay, I've just booked you in with Dr. Patel on Tuesday at 10am", /^Ana is booked in with Dr\. Patel on Tuesday 8 December 2026 at 10am$/],
      ['I booked you a table for two on Friday at 8pm', /^Ana is booked for a table for two on Friday 11 December 2026 at 8pm$/],
      ["You're all set for Tuesday at 10am with Dr. Patel", /^Ana is booked in for Tuesday 8 December 2026 at 10am with Dr\. Patel$/],
    ] as const) {
      const facts = await toCaller(s);
      assert.ok(facts.some((f) => want.test(f)), `${s}: ${JSON.stringify(facts)}`);
      assert.ok(!facts.some((f) => /^Jo\b/.test(f)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('a booking the speaker made for themself stays theirs', async () => {
    const facts = await toCaller('I booked a table for two for Friday at 8pm');
    assert.ok(facts.some((f) => /^Jo booked a table for two for Friday 11 December 2026 at 8pm$/.test(f)), JSON.stringify(facts));
  });
});

describe('rules 90: a cancellation told with its reason keeps the reason (newcomer trial item 1)', () => {
  /** Maria's two turns to Jo; the fixture, for its facts open and closed. */
  const cancelled = async (tenant: string, plan: string, cancel: string): Promise<MemoryFixture> => {
    const f = await memoryFixture(tenant, ['Maria', 'Jo']);
    await f.say('s1', 'Maria', ['Jo'], plan, MONDAY);
    await f.say('s1', 'Maria', ['Jo'], cancel, LATER);
    return f;
  };

  test('"We had to cancel the Lisbon trip because Ana broke her leg" closes the plan and keeps a fact with the reason', async () => {
    // On main: the plan closed and nothing kept of the cancellation ("We are planning…"), or neither closed nor read as a
    // plan ("We planned a trip to Lisbon in May" stored as done in May 2026).
    for (const [i, plan] of ['We are planning a trip to Lisbon in May.', 'We planned a trip to Lisbon in May.'].entries()) {
      const f = await cancelled(`t-90-cancel-${i}`, plan, 'We had to cancel the Lisbon trip because Ana broke her leg.');
      try {
        const all = await f.memory.listFacts(`t-90-cancel-${i}`, { includeHistory: true });
        const open = all.filter((x) => x.validTo === null).map((x) => x.content);
        assert.ok(open.some((c) => /cancel.*Lisbon trip because Ana broke her leg/.test(c)), `${plan}: ${JSON.stringify(open)}`);
        assert.ok(!open.some((c) => /plann.*trip to Lisbon/.test(c)), `${plan}: ${JSON.stringify(open)}`);
        assert.ok(all.some((x) => x.validTo !== null && /trip to Lisbon in May 2027/.test(x.content)), `${plan}: ${JSON.stringify(all.map((x) => x.content))}`);
      } finally {
        await f.close();
      }
    }
  });

  test('a cancellation told with no reason still only closes the plan', async () => {
    const f = await cancelled('t-90-cancel-bare', 'We are planning a trip to Lisbon in May.', 'We had to cancel the Lisbon trip.');
    try {
      const open = (await f.memory.listFacts('t-90-cancel-bare')).map((x) => x.content);
      assert.deepEqual(open, []);
    } finally {
      await f.close();
    }
  });
});
