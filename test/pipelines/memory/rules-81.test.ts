/**
 * Rules 81 (fixrt; review of rules 79 and 80): a clause with its own action at a new hour "instead" is its own plan,
 * not a retime; an evening's outing is the thing booked, not any word; a thanks the request's verb takes stays; a bare
 * new hour does not put a plan of business hours at night. Each fails on main 251d0f4b (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { hourInstead } from '../../../pipelines/memory/clock-time.js';
import { withoutCourtesyTail } from '../../../pipelines/memory/call-phrases.js';
import { openFactsAfter } from '../../helpers/memory-fixture.js';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
const said = openFactsAfter(MONDAY, LATER);

/** The facts of `text` said alone by Maria to Ben. */
const alone = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, MONDAY, ['maria', 'Maria'], ['ben', 'Ben']);

describe('rules 81: a clause of its own at a new hour "instead" (finding 1, HIGH)', () => {
  test('"I\'ll pick the kids up at 6 instead" keeps the pickup and leaves the dentist appointment', async () => {
    // On main: ["Maria's dentist appointment is on Tuesday 8 December 2026 at 6pm"], the pickup gone.
    for (const [i, turn] of ["I'll pick the kids up at 6 instead.", "I'll leave work at 4pm instead."].entries()) {
      const current = await said(`t-81-own-${i}`, ['My dentist appointment is Tuesday at 5', turn]);
      assert.ok(current.includes("Maria's dentist appointment is on Tuesday 8 December 2026 at 5pm"), JSON.stringify(current));
      assert.ok(current.some((c) => (i === 0 ? /pick the kids up/ : /leave work/).test(c)), JSON.stringify(current));
    }
  });

  test('said alone, it is dated today as before', async () => {
    // On main: "…will pick the kids up at 3pm instead", no date.
    const [fact] = await alone("I'll pick the kids up at 3pm instead.");
    assert.equal(fact?.eventTime?.slice(0, 10), '2026-12-07');
  });

  test('a new hour alone still retimes', () => {
    for (const s of ["Let's do 7pm instead", 'How about 7 instead?', 'Can we do 7 instead?', 'Can we do it at 7 instead?', "Let's make it at 7pm instead"]) {
      assert.ok(hourInstead(s), s);
    }
    for (const s of ["I'll pick the kids up at 6 instead.", "I'll leave work at 4pm instead.", 'We will eat at 7 instead']) assert.equal(hourInstead(s), null, s);
  });
});

describe('rules 81: an evening outing is the thing booked (finding 2)', () => {
  test('"table tennis", "move the tables", a meeting about a party, dropping off a film keep business hours', async () => {
    // On main: each at 9pm / 10pm.
    for (const [s, at] of [['I have a table tennis match on Friday at 10', '10am'], ['I need to move the tables on Friday at 10', '10am'],
      ['The new tables are being delivered on Friday at 9', '9am'], ['I have a meeting about the Christmas party on Friday at 10', '10am'],
      ["I'm dropping off the film at the photo lab on Friday at 9", '9am']] as const) {
      const facts = await alone(s);
      assert.ok(facts.some((f) => f.content.endsWith(`Friday 11 December 2026 at ${at}`)), `${s}: ${JSON.stringify(facts.map((f) => f.content))}`);
    }
  });

  test('the booked outing is still the evening', async () => {
    for (const s of ["I'm booking a table for four at Luigi's on Friday at 8", "We're going to see a film on Friday at 8", 'We are going to the Christmas party on Friday at 8']) {
      const facts = await alone(s);
      assert.ok(facts.some((f) => f.content.endsWith('Friday 11 December 2026 at 8pm')), `${s}: ${JSON.stringify(facts.map((f) => f.content))}`);
    }
  });
});

describe('rules 81: a thanks the request\'s verb takes (finding 4)', () => {
  test('"I want to give thanks", "a big thank you", "a quick thank you" keep their words', async () => {
    // On main: "Maria wants to give", "…would like to say a big", "…wants to send a quick".
    for (const [s, kept] of [['I want to give thanks.', /give thanks/], ["I'd like to say a big thank you.", /a big thank you/],
      ['I want to send a quick thank you.', /a quick thank you/]] as const) {
      const facts = await alone(s);
      assert.ok(facts.some((f) => kept.test(f.content)), `${s}: ${JSON.stringify(facts.map((f) => f.content))}`);
    }
    assert.equal(withoutCourtesyTail('I want to give thanks.'), 'I want to give thanks.');
    // A closing courtesy still goes.
    assert.equal(withoutCourtesyTail('I would like a coffee thanks'), 'I would like a coffee');
    assert.equal(withoutCourtesyTail('I want to order the salmon please'), 'I want to order the salmon');
  });
});

describe('rules 81: a new hour for a booking of business hours (finding 5)', () => {
  test('"how about 10 instead?" after a dentist appointment at 5 is 10am; 7 is still 7pm', async () => {
    // On main: "…Tuesday 8 December 2026 at 10pm".
    for (const [i, [turn, at]] of [['How about 10 instead?', '10am'], ['Can we do 10 instead?', '10am'], ['How about 7 instead?', '7pm']].entries()) {
      const current = await said(`t-81-business-${i}`, ['My dentist appointment is Tuesday at 5', turn!]);
      assert.ok(current.includes(`Maria's dentist appointment is on Tuesday 8 December 2026 at ${at}`), `${turn}: ${JSON.stringify(current)}`);
    }
  });

  test('an evening booking still takes the nearest half', async () => {
    const current = await said('t-81-evening-10', ["I'm booking a table for four at Luigi's on Friday at 8", 'How about 10 instead?']);
    assert.ok(current.includes("Maria is booking a table for four at Luigi's on Friday 11 December 2026 at 10pm"), JSON.stringify(current));
  });
});
