/**
 * Rules 89 (retime; review2 findings 3, 5–7, a newcomer's trial): a move of a booking's day is read from its own sentence;
 * a bare new hour with a new day after an evening's booking ("dinner … at 8", "date night", "film festival") is the
 * evening; a day moved in one sentence and an hour in the next both move the booking; a slot accepted and then moved is
 * closed; a month after a relation noun is a name. Each failed on main 863c26dc (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, openFactsAfter, type MemoryFixture } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';
const SATURDAY = 'Saturday 12 December 2026';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);

describe('rules 89: a day moved in one sentence, an own plan at an hour in the next (review2 finding 3)', () => {
  test('"Can we do Saturday instead? I\'ll leave work at 5 instead." moves the dinner to Saturday', async () => {
    // On main: the dinner stayed on Friday; only the leaving work was kept.
    const open = await said('t-89-own', ["Let's have dinner on Friday at 7pm", "Can we do Saturday instead? I'll leave work at 5 instead."]);
    assert.ok(open.some((c) => /dinner/.test(c) && c.includes(SATURDAY)), JSON.stringify(open));
    assert.ok(!open.some((c) => /dinner/.test(c) && c.includes('Friday 11 December')), JSON.stringify(open));
  });
});

describe('rules 89: a bare new hour with a new day after an evening booking is the evening (review2 findings 5, 6)', () => {
  test('"Let\'s do Saturday at 7 instead" after dinner, a date night, a film festival on Friday at 8: Saturday at 7pm', async () => {
    // On main: Saturday at 7am.
    for (const [i, first] of ["I'm meeting Ana for dinner on Friday at 8", 'Our date night is on Friday at 8',
      "We're going to the film festival on Friday at 8"].entries()) {
      const open = await said(`t-89-evening-${i}`, [first, "Let's do Saturday at 7 instead"]);
      assert.ok(open.some((c) => c.includes(`${SATURDAY} at 7pm`)), `${first}: ${JSON.stringify(open)}`);
      assert.ok(!open.some((c) => /at 7am/.test(c)), `${first}: ${JSON.stringify(open)}`);
    }
  });

  test('a dentist appointment keeps business hours', async () => {
    const open = await said('t-89-dentist', ['My dentist appointment is Friday at 10am', "Let's do Saturday at 9 instead"]);
    assert.ok(open.some((c) => c.includes(`${SATURDAY} at 9am`)), JSON.stringify(open));
  });
});

describe('rules 89: a day in one sentence, an hour in the next (review2 finding 7)', () => {
  test('"Let\'s do Saturday instead. We could meet at 7 instead." after a Friday 8pm dinner: Saturday at 7pm', async () => {
    // On main: the dinner stayed on Friday at 8pm.
    const open = await said('t-89-two', ["I'm meeting Ana for dinner on Friday at 8pm", "Let's do Saturday instead. We could meet at 7 instead."]);
    assert.ok(open.some((c) => /dinner/.test(c) && c.includes(`${SATURDAY} at 7pm`)), JSON.stringify(open));
    assert.ok(!open.some((c) => /dinner/.test(c) && c.includes('Friday 11 December')), JSON.stringify(open));
  });
});

describe('rules 89: a slot accepted, then moved, is closed (newcomer)', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });

  test('"Tuesday at 10am works for me", then "I moved your appointment with Dr. Patel to Thursday at 3pm."', async () => {
    // On main: "Tuesday 8 December 2026 at 10am works for Maria Lopez" stayed open beside the move.
    const f = await memoryFixture('t-89-slot', ['Jess', 'Maria Lopez']);
    fixtures.push(f);
    const turns: [string, string][] = [['Jess', 'Dr. Patel has an opening on Tuesday at 10am.'], ['Maria Lopez', 'Tuesday at 10am works for me.'],
      ['Jess', 'I moved your appointment with Dr. Patel to Thursday at 3pm.']];
    for (const [i, [speaker, text]] of turns.entries()) {
      await f.say('s1', speaker, [speaker === 'Jess' ? 'Maria Lopez' : 'Jess'], text, i === 0 ? MONDAY : LATER);
    }
    const open = (await f.memory.listFacts('t-89-slot')).filter((x) => x.validTo === null).map((x) => x.content);
    assert.ok(!open.some((c) => /Tuesday/.test(c) && /Maria/.test(c)), JSON.stringify(open));
    assert.ok(open.some((c) => /Thursday 10 December 2026 at 3pm/.test(c)), JSON.stringify(open));
  });
});

describe('rules 89: a month right after a relation noun is a name (newcomer)', () => {
  test('"My daughter April starts school next week", "my sister May", "my friend June"', async () => {
    // On main: "April 2027 is…" (the month read as a date).
    for (const [s, name] of [['My daughter April starts school next week.', 'April'], ['My sister May is visiting on Friday.', 'May'],
      ['My friend June is moving to Leeds next month.', 'June']] as const) {
      const facts = (await factsSaid(s, MONDAY, ['maria', 'Maria'], ['jo', 'Jo'])).map((f) => f.content);
      assert.ok(!facts.some((c) => new RegExp(`${name} 20\\d\\d`).test(c)), `${s}: ${JSON.stringify(facts)}`);
      assert.ok(facts.some((c) => c.startsWith(`${name} `)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('a month for a date after a relation stays a date', async () => {
    const facts = (await factsSaid('I will visit my mother in April.', MONDAY, ['maria', 'Maria'], ['jo', 'Jo'])).map((f) => f.content);
    assert.ok(facts.some((c) => /April 2027/.test(c)), JSON.stringify(facts));
  });
});
