/**
 * Rules 90 (newcomer trial, newc): a booking the receptionist made for the caller ("I have booked you in with Dr. Patel
 * on Tuesday at 10am") is the caller's, not the receptionist's. Failed on main 863c26dc (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';

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
