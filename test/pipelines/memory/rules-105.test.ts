/**
 * Rules 105 (fix98; review rv98 of rules 98): a cancellation by another person closes that person's plan only, never the
 * speaker's own plan of the same thing; a booking of the listener is past or a mistake only by what the clause holding it
 * says; "you're all set for tomorrow / today / tonight's show" books that day. Each failed on main 042443b7 (what it did
 * there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readSaid, type ReadFact } from '../../helpers/extract-said.js';
import { allFactsAfter } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';

/** The facts of `text` said alone by Jo (the receptionist) to Ana (the caller): [content, kind, eventTime]. */
const toCaller = (text: string): Promise<ReadFact[]> =>
  readSaid(text, MONDAY, ['jo', 'Jo'], ['ana', 'Ana']);

describe('rules 105: a booking is past or a mistake only by the clause that holds it (rv98 H1)', () => {
  test('a past time or a mistake told in another clause leaves the booking standing', async () => {
    // On main: "Jo booked Ana in for Friday 11 December 2026 at 9am because…" (a statement), or no fact at all.
    for (const [s, want] of [
      ["I booked you in for Friday at 9am because you missed last week's appointment", /^Ana is booked in for Friday 11 December 2026 at 9am\b/],
      ["I've booked you in for Wednesday at 4pm, the last time you came was in May", /^Ana is booked in for Wednesday 9 December 2026 at 4pm\b/],
      ['I booked you for Friday at 9am, you were wrong about Thursday', /^Ana is booked for Friday 11 December 2026 at 9am\b/],
      ['I booked you in for Friday at 9am, not Thursday as you wrongly thought', /^Ana is booked in for Friday 11 December 2026 at 9am\b/],
      ['I booked you in for Friday, I did it yesterday', /^Ana is booked in for Friday 11 December 2026\b/],
      ['Your appointment from last week is moved, I booked you in for Friday at 9am', /\bAna is booked in for Friday 11 December 2026 at 9am\b/],
      ['Same as last time, I\'ve booked you in for Friday at 9am', /\bAna is booked in for Friday 11 December 2026 at 9am\b/],
    ] as const) {
      const facts = await toCaller(s);
      // A sentence that opens with another day ("Your appointment from last week…") is dated by it, as on rules 97.
      assert.ok(facts.some(([c, kind, t]) => want.test(c) && kind === 'plan' && (!want.source.startsWith('^') || t! >= '2026-12-07')),
        `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('a past time or a mistake in the booking\'s own clause still makes it the speaker\'s past act', async () => {
    for (const s of ['Sorry, I booked you for the wrong day last week', 'Last week I booked you in for Friday at 9am',
      'so i booked you in for the cleaning last week and you didn\'t show up']) {
      const facts = await toCaller(s);
      assert.ok(!facts.some(([c]) => /\bAna is booked\b/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });
});

describe('rules 105: a time behind that dates the act of booking, not the slot, leaves the booking standing (rv98 H2)', () => {
  test('"I booked you in yesterday for Friday at 9am" is Ana\'s booking for the coming Friday', async () => {
    // On main: "Jo booked Ana in Sunday 6 December 2026 for Friday 11 December 2026 at 9am" (a statement).
    for (const [s, want] of [
      ['I booked you in yesterday for Friday at 9am', /^Ana is booked in for Friday 11 December 2026 at 9am$/],
      ['I booked you yesterday for next Tuesday at 10am', /^Ana is booked for (?:next )?Tuesday 15 December 2026 at 10am$/],
      ['I booked you in this morning for Thursday at 2pm', /^Ana is booked in for Thursday 10 December 2026 at 2pm$/],
    ] as const) {
      const facts = await toCaller(s);
      assert.ok(facts.some(([c, kind]) => want.test(c) && kind === 'plan'), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('one booked yesterday for the wrong day stays the speaker\'s past act', async () => {
    const facts = await toCaller('I booked you in yesterday for the wrong day');
    assert.ok(!facts.some(([c]) => /\bAna is booked\b/.test(c)), JSON.stringify(facts));
  });
});

describe('rules 105: "you\'re all set for tomorrow / today / tonight\'s show" books that day (rv98 H3)', () => {
  test('a day said by its name from today books it', async () => {
    // On main: no fact.
    for (const [s, want] of [
      ["You're all set for tomorrow", /^Ana is booked in for Tuesday 8 December 2026$/],
      ["Perfect, you're all set for tomorrow, just bring your insurance card", /\bAna is booked in for Tuesday 8 December 2026\b/],
      ["You're all set for today", /^Ana is booked in for Monday 7 December 2026$/],
      ["You're all set for tonight's show, enjoy", /\bAna is booked in for\b.*\bshow\b/],
    ] as const) {
      const facts = await toCaller(s);
      assert.ok(facts.some(([c, kind]) => want.test(c) && kind === 'plan'), `${s}: ${JSON.stringify(facts)}`);
    }
  });
});

describe('rules 105: a cancellation closes only the plans of whose it is (rv98 H4)', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"Sarah cancelled the concert" closes Sarah\'s plan and leaves the speaker\'s own', async () => {
    // On main: both plans closed.
    for (const [i, turns] of [
      ['Sarah is going to the concert on Saturday.', 'I am going to the concert on Friday.', 'Sarah cancelled the concert.'],
      ['I am going to the concert on Friday.', 'Sarah is going to the concert on Saturday.', 'Sarah cancelled the concert.'],
      ['Tom is going to the cinema on Saturday.', 'I am going to the cinema on Friday.', 'Tom cancelled the cinema.'],
      ["I'm going to the gym on Tuesday.", 'My sister is going to the gym on Wednesday.', 'My sister cancelled the gym.'],
    ].entries()) {
      const all = await factsAfter(`t-105-other-${i}`, turns);
      const open = all.filter((x) => x.validTo === null).map((x) => x.content);
      const closed = all.filter((x) => x.validTo !== null).map((x) => x.content);
      assert.ok(open.some((c) => /^Maria is going to the (?:concert|cinema|gym) on/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
      assert.ok(closed.some((c) => /(?:Sarah|Tom|sister) is going to the/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
    }
  });
});
