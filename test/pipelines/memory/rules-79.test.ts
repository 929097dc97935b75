/**
 * Rules 79 (retime): bookings retimed the way people say it. Each test fails on main 8c75e332 (what it did there in the
 * comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { reclockedText, retellsHour } from '../../../pipelines/memory/retimed.js';
import { openFactsAfter } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);

describe('"how about 7 instead?" (finding 1)', () => {
  test('retimes the booking to the hour', async () => {
    // On main: the 5pm appointment stayed, and "…how about 7 instead?" was a fact beside it.
    for (const [i, turn] of ['How about 7 instead?', 'What about 7:30 instead?', 'Could we say 7 instead?'].entries()) {
      const current = await said(`t-79-how-${i}`, ['My dentist appointment is Tuesday at 5', turn]);
      const at = i === 1 ? '7:30pm' : '7pm';
      assert.ok(current.includes(`Maria's dentist appointment is on Tuesday 8 December 2026 at ${at}`), JSON.stringify(current));
      assert.ok(!current.some((c) => /5pm/.test(c)), JSON.stringify(current));
    }
  });

  test('"how about / what about N instead" is an hour only when N can be a clock hour', () => {
    // A party size or a count is no hour; nor a number no clock shows.
    const read = Object.fromEntries(['How about 7 instead?', 'What about 11 instead?', 'What about 7:30 instead?', 'How about a table for 2 instead?',
      'How about 2 tickets instead?', 'How about 20 instead?', 'What about 0 instead?', 'How about 7 of them instead?'].map((s) => [s, retellsHour(s)]));
    assert.deepEqual(read, { 'How about 7 instead?': true, 'What about 11 instead?': true, 'What about 7:30 instead?': true,
      'How about a table for 2 instead?': false, 'How about 2 tickets instead?': false, 'How about 20 instead?': false,
      'What about 0 instead?': false, 'How about 7 of them instead?': false });
  });

  test('"how about a table for 2 instead" stays a count', async () => {
    const current = await said('t-79-how-count', ["I am booking a table for four at Luigi's on Friday at 8", 'How about a table for 2 instead?']);
    assert.ok(!current.some((c) => /\b2(?:am|pm)\b/.test(c)), JSON.stringify(current));
  });
});

describe('a bare evening hour for an evening booking (finding 2)', () => {
  /** Each sentence said alone (tenants `t-79-<name>-<i>`) leaves a fact that ends with its day and hour. */
  const endsWith = async (name: string, cases: ReadonlyArray<readonly [string, string]>): Promise<void> => {
    for (const [i, [turn, at]] of cases.entries()) {
      const current = await said(`t-79-${name}-${i}`, [turn]);
      assert.ok(current.some((c) => c.endsWith(at)), `${turn}: ${JSON.stringify(current)}`);
    }
  };

  test('a table, a dinner, drinks, a concert, a date night at 7–11 is the evening', async () => {
    // On main: "Maria is booking a table for four at Luigi's on Friday 11 December 2026 at 8am".
    assert.ok((await said('t-79-table', ["I am booking a table for four at Luigi's on Friday at 8"]))
      .includes("Maria is booking a table for four at Luigi's on Friday 11 December 2026 at 8pm"));
    await endsWith('evening', [
      ["We are having dinner at Luigi's on Saturday at 7", 'Saturday 12 December 2026 at 7pm'],
      ['We are going to a concert on Friday at 9', 'Friday 11 December 2026 at 9pm'],
      ['We are going for drinks on Thursday at 10', 'Thursday 10 December 2026 at 10pm'],
      ['I have a date night with Jo on Saturday at 8:30', 'Saturday 12 December 2026 at 8:30pm'],
    ]);
  });

  test('an evening booking with no time of its own moves to the evening; a table for an earlier meal keeps business hours', async () => {
    const plan = (content: string): Fact => ({ content, eventTime: '2026-12-08', slot: null, kind: 'statement' }) as Fact;
    // On main: "…Tuesday 8 December 2026 at 8am".
    assert.equal(reclockedText(plan("Maria's dinner at Luigi's is on Tuesday 8 December 2026"), 'Can Maria and Jo do 8 instead?')?.content,
      "Maria's dinner at Luigi's is on Tuesday 8 December 2026 at 8pm");
    assert.equal(reclockedText(plan("Maria's dentist appointment is on Tuesday 8 December 2026"), 'Can Maria and Jo do 8 instead?')?.content,
      "Maria's dentist appointment is on Tuesday 8 December 2026 at 8am");
    await endsWith('brunch', [['I am booking a table for brunch on Sunday at 10', 'Sunday 13 December 2026 at 10am']]);
  });

  test('a business booking keeps business hours', async () => {
    await endsWith('business', [
      ['My dentist appointment is Tuesday at 8', 'Tuesday 8 December 2026 at 8am'],
      ['I need to book a cleaning on Friday at 10', 'Friday 11 December 2026 at 10am'],
      ['My haircut is Thursday at 9', 'Thursday 10 December 2026 at 9am'],
      ['We have a meeting on Wednesday at 11', 'Wednesday 9 December 2026 at 11am'],
    ]);
  });
});

describe('"let\'s do 7pm instead" after a booking on another day (finding 3)', () => {
  test('retimes the booking, its day kept', async () => {
    // On main: the 5pm appointment stayed and a fact dated today was added beside it.
    const current = await said('t-79-pm', ['My dentist appointment is Tuesday at 5', "Let's do 7pm instead."]);
    assert.ok(current.includes("Maria's dentist appointment is on Tuesday 8 December 2026 at 7pm"), JSON.stringify(current));
    assert.ok(!current.some((c) => /5pm|Monday 7 December/.test(c)), JSON.stringify(current));
  });
});
