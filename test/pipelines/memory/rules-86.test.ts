/**
 * Rules 86 (review of rules 81, findings 1–3 and 10): a dinner or drinks "meeting" someone stays in the evening, an
 * evening booking moved to a bare hour stays in the evening, "meet at 7 instead" moves the booking under discussion,
 * a film festival is an evening outing. Each failed on main 7b76b708 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { openFactsAfter } from '../../helpers/memory-fixture.js';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);

/** The facts of `text` said alone by Maria to Ben. */
const alone = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, MONDAY, ['maria', 'Maria'], ['ben', 'Ben']);

describe('rules 86: an evening outing with a business word nearby (finding 1, HIGH)', () => {
  test('meeting someone for dinner or drinks, a dinner to talk about the trip, a film festival: the evening', async () => {
    // On main: each at 8am / 9am.
    for (const [s, at] of [["I'm meeting Ana for dinner on Friday at 8", '8pm'], ["I'm meeting friends for drinks on Friday at 9", '9pm'],
      ["We're having dinner on Friday at 8 to talk about the trip", '8pm'], ["We're going to the film festival on Friday at 8", '8pm']] as const) {
      const facts = await alone(s);
      assert.ok(facts.some((f) => new RegExp(`Friday 11 December 2026 at ${at}\\b`).test(f.content)), `${s}: ${JSON.stringify(facts.map((f) => f.content))}`);
    }
  });

  test('a meeting about a party and a table tennis match keep business hours', async () => {
    for (const [s, at] of [['I have a meeting about the Christmas party on Friday at 10', '10am'], ['I have a table tennis match on Friday at 10', '10am']] as const) {
      const facts = await alone(s);
      assert.ok(facts.some((f) => f.content.endsWith(`Friday 11 December 2026 at ${at}`)), `${s}: ${JSON.stringify(facts.map((f) => f.content))}`);
    }
  });
});

describe('rules 86: a bare new hour for a booking already in the evening (findings 1 and 2)', () => {
  test('a dinner, a call and a shift in the evening move to the evening hour', async () => {
    // On main: 9am, 9am, 11am.
    for (const [i, [first, move, at]] of ([
      ["I'm meeting Ana for dinner on Tuesday at 8pm", 'How about 9 instead?', 'at 9pm'],
      ['My call with Ana is Tuesday at 8pm', 'How about 9 instead?', 'at 9pm'],
      ['My shift starts Tuesday at 10pm', 'How about 11 instead?', 'at 11pm'],
    ] as const).entries()) {
      const current = await said(`t-86-eve-${i}`, [first, move]);
      assert.ok(current.some((c) => c.includes('Tuesday 8 December 2026') && c.endsWith(at)), `${first} / ${move}: ${JSON.stringify(current)}`);
    }
  });

  test('a dentist at 5 moved to "10" is still the morning', async () => {
    const current = await said('t-86-dentist', ['My dentist appointment is Tuesday at 5', 'How about 10 instead?']);
    assert.ok(current.includes("Maria's dentist appointment is on Tuesday 8 December 2026 at 10am"), JSON.stringify(current));
  });
});

describe('rules 86: "meet at 7 instead" moves the booking under discussion (finding 3)', () => {
  test('"Can we meet at 7 instead?" after a dentist appointment at 5', async () => {
    // On main: no retime, and a new fact "…can meet on Tuesday 8 December 2026 at 7am instead".
    const current = await said('t-86-meet', ['My dentist appointment is Tuesday at 5', 'Can we meet at 7 instead?']);
    assert.ok(current.includes("Maria's dentist appointment is on Tuesday 8 December 2026 at 7pm"), JSON.stringify(current));
    assert.ok(!current.some((c) => /7am/.test(c)), JSON.stringify(current));
  });
});
