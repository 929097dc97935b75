/**
 * Rules 88 (review of rules 82–86, review2): "reschedule for 3pm instead" retimes the booking with its day kept again;
 * a later sentence opening with a name and an aside ("Sarah, my sister, starts…") is no call; "convey thanks" keeps its
 * thanks. Each failed on main 1581bdc4 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { withoutCourtesyTail } from '../../../pipelines/memory/call-phrases.js';
import { openFactsAfter } from '../../helpers/memory-fixture.js';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);

/** The facts of `text` said alone by Tom to Ana. */
const alone = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, MONDAY, ['tom', 'Tom'], ['ana', 'Ana']);

describe('rules 88: "for 3pm instead" after any verb retimes the booking, its day kept (review2 finding 1, HIGH)', () => {
  test('reschedule / go / aim / change / book for an hour instead', async () => {
    // On main: moved to Monday 7 December (today), or the booking closed and a request kept instead.
    for (const [i, [first, move, day, at]] of ([
      ['My dentist appointment is Tuesday at 5pm', 'Can we reschedule for 3pm instead?', 'Tuesday 8 December 2026', 'at 3pm'],
      ['My dentist appointment is Tuesday at 5pm', "Let's reschedule it for 3pm instead", 'Tuesday 8 December 2026', 'at 3pm'],
      ["Let's have dinner on Friday at 7pm", 'Can we go for 8pm instead?', 'Friday 11 December 2026', 'at 8pm'],
      ["Let's have dinner on Friday at 7pm", "Let's aim for 8pm instead", 'Friday 11 December 2026', 'at 8pm'],
    ] as const).entries()) {
      const current = await said(`t-88-for-${i}`, [first, move]);
      assert.ok(current.some((c) => c.includes(day) && c.endsWith(at)), `${first} / ${move}: ${JSON.stringify(current)}`);
      assert.ok(!current.some((c) => c.includes('Monday 7 December')), `${first} / ${move}: ${JSON.stringify(current)}`);
    }
  });

  test('an own action at about an hour instead stays its own plan (rules 82)', async () => {
    const current = await said('t-88-own', ['My dentist appointment is Tuesday at 5', "I'll leave work at about 4pm instead."]);
    assert.ok(current.includes("Maria's dentist appointment is on Tuesday 8 December 2026 at 5pm"), JSON.stringify(current));
  });
});

describe('rules 88: a name with an aside opening a later sentence is its subject, no call (review2 finding 2, HIGH)', () => {
  test('"Sarah, my sister, starts…", "Ben, the manager, will ring you back…", "Jordan, I think, is coming…"', async () => {
    // On main: "Tom's sister, starts her new job…" (Sarah cut, no listener), "The manager, will ring Ben back…", "Tom thinks, is coming…".
    for (const [s, want] of [
      ['I met Sarah yesterday. Sarah, my sister, starts her new job on Monday.', /^Sarah, Tom's sister, starts her new job/],
      ['I called the office. Ben, the manager, will ring you back on Friday.', /^Ben, the manager, will ring Ana back/],
      ['I spoke to the team. Jordan, I think, is coming on Friday.', /Jordan/],
    ] as const) {
      const facts = await alone(s);
      assert.ok(facts.some((f) => want.test(f.content)), `${s}: ${JSON.stringify(facts.map((f) => f.content))}`);
    }
  });

  test('a call with a request still goes to whom it calls (rules 84)', async () => {
    const facts = await alone('Thanks for the update. Chen, can you review the payment pull request today?');
    assert.ok(facts.some((f) => /Chen to review the payment pull request/.test(f.content)), JSON.stringify(facts.map((f) => f.content)));
  });
});

describe('rules 88: thanks conveyed (review2 finding 4)', () => {
  test('"convey / pass on / relay / return thanks" keep their thanks', () => {
    // On main: "I'd like to convey".
    for (const s of ["I'd like to convey thanks", 'I want to pass on thanks', "I'd like to relay thanks", 'I want to return thanks']) {
      assert.equal(withoutCourtesyTail(s), s, s);
    }
    assert.equal(withoutCourtesyTail("I'd like to speak to Ben thanks"), "I'd like to speak to Ben");
  });
});

describe('rules 88: a call whose request goes on after a comma is still a call', () => {
  test('"Chen, can you review the docs, thanks?" and "Chen, can you check it, unless you are busy?"', async () => {
    for (const s of ['Thanks for the update. Chen, can you review the docs, thanks?', 'Thanks for the update. Chen, can you check the logs, unless you are busy?']) {
      const facts = await alone(s);
      assert.ok(facts.some((f) => /Chen to (?:review|check)/.test(f.content)), `${s}: ${JSON.stringify(facts.map((f) => f.content))}`);
    }
  });
});

describe('rules 88: the booking named before "for <hour> instead"', () => {
  test('"Can you change the appointment for 3pm instead?" and "Could you book the table for 9pm instead?" move it, its day kept', async () => {
    // On main: the appointment closed, a request "…to change the appointment for Monday 7 December 2026 at 3pm instead" kept.
    const dentist = await said('t-88-change', ['My dentist appointment is Tuesday at 5pm', 'Can you change the appointment for 3pm instead?']);
    assert.ok(dentist.some((c) => c.includes('Tuesday 8 December 2026') && c.endsWith('at 3pm')), JSON.stringify(dentist));
    const table = await said('t-88-table', ["Can we get a table for four at Luigi's on Friday at 8pm?", 'Could you book the table for 9pm instead?']);
    assert.ok(table.some((c) => c.includes('Friday 11 December 2026') && c.endsWith('at 9pm')), JSON.stringify(table));
  });
});
