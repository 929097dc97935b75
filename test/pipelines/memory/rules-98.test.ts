/**
 * Rules 98 (listen; issue #16 items 1, 3, 4): a booking the speaker told of the past or as a mistake is no booking of the
 * listener; "you're all set for tonight" books nothing; "I booked you both a table" is the listener's booking, not garbled;
 * a move naming the booking's doctor or the kind of doctor moves it, one naming another does not. Each failed on main
 * abd378e4 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { factsSaid } from '../../helpers/extract-said.js';
import { allFactsAfter, memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

/** The facts of `text` said alone by Jo (the receptionist) to Ana (the caller): [content, eventTime]. */
const toCaller = async (text: string): Promise<[string, string | null][]> =>
  (await factsSaid(text, MONDAY, ['jo', 'Jo'], ['ana', 'Ana'])).map((f) => [f.content, f.eventTime ?? null]);

describe('rules 98: a booking of the listener read only where one stands (issue #16 item 1)', () => {
  test('a booking told of the past or as a mistake is no booking to come', async () => {
    // On main: "Sorry, Ana is booked for the wrong day in the week of Monday 30 November 2026" (a plan).
    for (const s of ['Sorry, I booked you for the wrong day last week', 'I booked you in last time, I think, for the cleaning',
      'I booked you for Tuesday yesterday by mistake']) {
      const facts = await toCaller(s);
      assert.ok(!facts.some(([c]) => /\bAna is booked\b/.test(c)), `${s}: ${JSON.stringify(facts)}`);
      assert.ok(!facts.some(([, t]) => t !== null && t >= MONDAY.slice(0, 10)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('"You\'re all set for tonight, the car is outside" books nothing', async () => {
    // On main: "Ana is booked in for Monday 7 December 2026, the car is outside".
    const facts = await toCaller("You're all set for tonight, the car is outside");
    assert.ok(!facts.some(([c]) => /booked/.test(c)), JSON.stringify(facts));
  });

  test('"all set for" a time, with someone or for a thing still books', async () => {
    for (const [s, want] of [
      ["You're all set for Tuesday at 10am", /^Ana is booked in for Tuesday 8 December 2026 at 10am$/],
      ["You're all set for Thursday", /^Ana is booked in for Thursday 10 December 2026$/],
      ["You're all set for the cleaning on Tuesday", /^Ana is booked in for the cleaning on Tuesday 8 December 2026$/],
    ] as const) {
      const facts = await toCaller(s);
      assert.ok(facts.some(([c]) => want.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('"I booked you both a table…" is the listener\'s booking, read clean', async () => {
    // On main: "Ana is booked both a table for Friday 11 December 2026 at 8pm".
    for (const s of ['I booked you both a table for Friday at 8pm', "I've got you both booked for Friday at 8pm"]) {
      const facts = await toCaller(s);
      assert.ok(!facts.some(([c]) => /\bboth\b/.test(c)), `${s}: ${JSON.stringify(facts)}`);
      assert.ok(facts.some(([c]) => /^Ana is booked for (?:a table for )?Friday 11 December 2026 at 8pm$/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });
});

describe('rules 98: a move naming the booking\'s doctor or kind moves it, one naming another does not (issue #16 item 3)', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });
  /** The open facts after Jess told Maria Lopez her booking, then `move`. */
  const openAfter = async (tenant: string, move: string): Promise<string[]> => {
    const f = await memoryFixture(tenant, ['Jess', 'Maria Lopez']);
    fixtures.push(f);
    await f.say('s1', 'Jess', ['Maria Lopez'], "You're booked in with Dr. Patel on Tuesday at 10am.", MONDAY);
    await f.say('s1', 'Jess', ['Maria Lopez'], move, LATER);
    return (await f.memory.listFacts(tenant)).filter((x) => x.validTo === null).map((x) => x.content);
  };

  test('"I moved your dentist appointment / Dr. Patel\'s appointment to Thursday" moves the booking with Dr. Patel', async () => {
    // On main: the booking left on Tuesday beside the move.
    for (const [i, move] of ['I moved your dentist appointment to Thursday.', "I moved Dr. Patel's appointment to Thursday."].entries()) {
      const open = await openAfter(`t-98-move-${i}`, move);
      assert.ok(!open.some((c) => c.includes('Tuesday 8 December')), `${move}: ${JSON.stringify(open)}`);
      assert.ok(open.some((c) => /Dr\. Patel on Thursday 10 December 2026 at 10am/.test(c)), `${move}: ${JSON.stringify(open)}`);
    }
  });

  test('a move naming another doctor or another kind of booking leaves it', async () => {
    for (const [i, move] of ["I moved Dr. Kim's appointment to Thursday.", 'I moved your haircut to Thursday.', "I moved Tom's dentist appointment to Thursday.",
      'I moved your vet appointment to Thursday.'].entries()) {
      const open = await openAfter(`t-98-other-${i}`, move);
      assert.ok(open.includes('Maria Lopez is booked in with Dr. Patel on Tuesday 8 December 2026 at 10am'), `${move}: ${JSON.stringify(open)}`);
    }
  });
});

describe('rules 98: a cancellation closes the plan that is the thing called off, not one that mentions it (issue #16 item 2)', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"The concert got cancelled" closes going to the concert, not buying tickets for it', async () => {
    // On main: the tickets task closed and the concert left open.
    const all = await factsAfter('t-98-concert', ['I am going to the concert on Saturday.', 'I need to buy tickets for the concert.', 'The concert got cancelled.']);
    const open = all.filter((x) => x.validTo === null).map((x) => x.content);
    assert.ok(!open.some((c) => /going to the concert/.test(c)), JSON.stringify(open));
    assert.ok(open.some((c) => /buy tickets for the concert/.test(c)), JSON.stringify(open));
  });

  test('"We had to cancel the Lisbon trip…" closes the trip, and the passport task told before it stays', async () => {
    // On main: the passport fact closed and the trip left open.
    for (const [i, turns] of [
      ['We are planning a trip to Lisbon in May.', 'I need to renew my passport before the Lisbon trip.', 'We had to cancel the Lisbon trip because Ana broke her leg.'],
      ['I need to renew my passport before the Lisbon trip.', 'We are planning a trip to Lisbon in May.', 'We had to cancel the Lisbon trip because Ana broke her leg.'],
    ].entries()) {
      const all = await factsAfter(`t-98-trip-${i}`, turns);
      const open = all.filter((x) => x.validTo === null).map((x) => x.content);
      const closed = all.filter((x) => x.validTo !== null).map((x) => x.content);
      assert.ok(closed.some((c) => /trip to Lisbon in May/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
      assert.ok(!open.some((c) => /plann.*trip to Lisbon/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
      assert.ok(open.some((c) => /renew .*passport/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
    }
  });
});

describe('rules 98: "booked you two seats" books two seats', () => {
  test('a count after "booked you" is the things booked', async () => {
    // On main: "Ana is booked two seats for the concert on Sunday 20 December 2026".
    const facts = await toCaller('I booked you two seats for the concert on the 20th');
    assert.ok(facts.some(([c]) => /^Ana is booked for two seats for the concert on Sunday 20 December 2026$/.test(c)), JSON.stringify(facts));
  });
});
