/**
 * Rules 94 (review of rules 89): a slot accepted at the new time does not swallow the move of the booking it stands
 * for, a move of one thing closes no slot accepted for another, and a meeting about a party keeps business hours. Each
 * failed on main 5d4b2e35 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { memoryFixture, openFactsAfter, type MemoryFixture } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';
const SATURDAY = 'Saturday 12 December 2026';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);

describe('rules 94: accepted slots and moves (review of rules 89, F1, F2)', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });
  /** The open facts of `tenant` after `turns` between Jess (the receptionist) and Maria Lopez. */
  const call = async (tenant: string, turns: [string, string][]): Promise<string[]> => {
    const f = await memoryFixture(tenant, ['Jess', 'Maria Lopez']);
    fixtures.push(f);
    for (const [i, [speaker, text]] of turns.entries()) {
      await f.say('s1', speaker, [speaker === 'Jess' ? 'Maria Lopez' : 'Jess'], text, i === 0 ? MONDAY : LATER);
    }
    return (await f.memory.listFacts(tenant)).filter((x) => x.validTo === null).map((x) => x.content);
  };

  test('a Tuesday booking, the new slot accepted, then the move: the booking is on Thursday, Tuesday is closed', async () => {
    // On main: "…with Dr. Patel on Tuesday 8 December 2026 at 10am" stayed open and the move was dropped.
    const open = await call('t-94-accepted-move', [['Maria Lopez', 'I have an appointment with Dr. Patel on Tuesday at 10am.'],
      ['Jess', 'Dr. Patel also has an opening on Thursday at 3pm.'], ['Maria Lopez', 'Thursday at 3pm works for me.'],
      ['Jess', 'I moved your appointment with Dr. Patel to Thursday at 3pm.']]);
    assert.ok(!open.some((c) => /Tuesday 8 December/.test(c) && /Dr\. Patel/.test(c)), JSON.stringify(open));
    assert.ok(open.some((c) => /Dr\. Patel/.test(c) && /Thursday 10 December 2026 at 3pm/.test(c)), JSON.stringify(open));
  });

  test('a slot accepted for the plumber stays open when the dentist appointment is moved', async () => {
    // On main: the plumber's slot was closed by the dentist's move.
    const open = await call('t-94-other-thing', [['Maria Lopez', 'Friday at 2pm works for me for the plumber.'],
      ['Jess', 'I moved your dentist appointment to Monday at 9am.']]);
    assert.ok(open.some((c) => /plumber/.test(c) && /Friday 11 December 2026 at 2pm/.test(c)), JSON.stringify(open));
    assert.ok(open.some((c) => /dentist/.test(c) && /Monday 14 December 2026 at 9am/.test(c)), JSON.stringify(open));
  });
});

describe('rules 94: a meeting about an evening thing keeps business hours (review of rules 89, F3)', () => {
  test('"I\'m meeting Tom about the party / at the cinema on Friday at 10am", then "Saturday at 9 instead": 9am', async () => {
    // On main: Saturday at 9pm.
    for (const [i, first] of ["I'm meeting Tom about the party on Friday at 10am", "I'm meeting Tom at the cinema on Friday at 10am"].entries()) {
      const open = await said(`t-94-meeting-${i}`, [first, "Let's do Saturday at 9 instead"]);
      assert.ok(open.some((c) => c.includes(`${SATURDAY} at 9am`)), `${first}: ${JSON.stringify(open)}`);
      assert.ok(!open.some((c) => /at 9pm/.test(c)), `${first}: ${JSON.stringify(open)}`);
    }
  });

  test('"meeting Ana for dinner" stays the evening', async () => {
    const open = await said('t-94-dinner', ["I'm meeting Ana for dinner on Friday at 8", "Let's do Saturday at 7 instead"]);
    assert.ok(open.some((c) => c.includes(`${SATURDAY} at 7pm`)), JSON.stringify(open));
  });
});
