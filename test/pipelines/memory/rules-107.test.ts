/**
 * Rules 107 (mends): a slot booked on a weekday is behind only by a time told of the past (spoken-clauses.ts `PAST_TIME`),
 * not by "last" or "past" alone ("the last flight", "half past 7"); an hour said between "for" and the weekday is the
 * slot's; a negated booking of a slot books nothing behind; "booked you in for 9:30 on Monday" keeps its hour; a party
 * after a possessive ("Tom's party") is the evening; the listener's booking reads the months by months.ts. Each but the
 * last failed on main 35a87d3e (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readSaid, type ReadFact } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';

/** The facts of `text` said alone by Maria to Jo: [content, kind, eventTime]. */
const said = (text: string): Promise<ReadFact[]> =>
  readSaid(text, MONDAY, ['maria', 'Maria'], ['jo', 'Jo']);

describe('rules 107: booked times read right', () => {
  test('"last" or "past" that is no time gone by leaves a booked slot ahead', async () => {
    // On main: each dated Friday 4 December 2026 (the Friday before).
    for (const [s, want] of [
      ['I booked a table for half past 7 on Friday.', /\bFriday 11 December 2026\b/],
      ['I booked the last flight on Friday at 9pm.', /\bFriday 11 December 2026 at 9pm\b/],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some(([c, , t]) => want.test(c) && t === '2026-12-11'), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('"the first / last <slot> on Friday", or the hour before the weekday, books a slot ahead', async () => {
    // On main: each dated Friday 4 December 2026 (the Friday before).
    for (const s of ['I booked the last flight on Friday.', 'I booked the first session on Friday.',
      'I booked a table at 7:30pm on Friday.']) {
      const facts = await said(s);
      assert.ok(facts.some(([c, , t]) => /\bFriday 11 December 2026\b/.test(c) && t === '2026-12-11'), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('a booking told with a time gone by, or of the act\'s day with no hour, stays behind', async () => {
    for (const s of ['I booked a table last Friday.', 'I booked a table last Friday at 7pm.', 'I booked the flights on Friday.',
      'I booked the last flight last Friday.', 'I booked the last tickets on Friday.']) {
      const facts = await said(s);
      assert.ok(facts.some(([c, , t]) => /\bFriday 4 December 2026\b/.test(c) && t === '2026-12-04'), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('a negated booking of a slot books nothing behind, and no plan', async () => {
    // On main: "Maria didn't book a table on Friday 4 December 2026 at 7pm", dated 4 December.
    for (const s of ["I didn't book a table on Friday at 7pm.", 'I did not reserve a room on Saturday at 3pm.']) {
      const facts = await said(s);
      assert.ok(facts.length > 0, s);
      assert.ok(facts.every(([c, kind, t]) => kind !== 'plan' && (t === null || t >= '2026-12-07') && !/\b[45] December\b/.test(c)),
        `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('"booked you in for 9:30 on Monday" keeps its hour, as "for 9am on Monday" does', async () => {
    // On main: "Jo is booked in for Monday 14 December 2026" (the hour lost).
    for (const [s, want] of [
      ["I've just booked you in for 9:30 on Monday.", /^Jo is booked in for Monday 14 December 2026 at 9:30\s*am\b/i],
      ["I've just booked you in for 9am on Monday.", /^Jo is booked in for Monday 14 December 2026 at 9am\b/],
      ["I've booked you in for 2:15 on Thursday.", /^Jo is booked in for Thursday 10 December 2026 at 2:15\s*pm\b/i],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some(([c, kind]) => want.test(c) && kind === 'plan'), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('a party after a possessive is the evening; a meeting about it keeps business hours', async () => {
    // On main: "… Tom's party on Friday 11 December 2026 at 10am", "… Anna's birthday party … at 9am".
    for (const [s, want] of [
      ["We're going to Tom's party on Friday at 10.", /\bTom's party on Friday 11 December 2026 at 10pm\b/],
      ["We're going to Anna's birthday party on Saturday at 9.", /\bAnna's birthday party on Saturday 12 December 2026 at 9pm\b/],
      ["I'm meeting Tom about the party on Friday at 10.", /\bFriday 11 December 2026 at 10am\b/],
      ["I'm meeting Tom about Anna's party on Friday at 10.", /\bFriday 11 December 2026 at 10am\b/],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some(([c]) => want.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('the listener\'s booking reads a month\'s short form ("Dec 14", "Sept 12") as a date it books', async () => {
    // Passed on main too: the month forms are read by months.ts now, the behaviour kept.
    for (const [s, want] of [
      ["You're all set for Dec 14 at 10am.", /^Jo is booked in for Monday 14 December 2026 at 10am\b/],
      ["You're all set for Sept 12.", /^Jo is booked in for Sunday 12 September 2027\b/],
      ["You're all set for September 12.", /^Jo is booked in for Sunday 12 September 2027\b/],
      ['I booked you in yesterday for Dec 14 at 10am.', /^Jo is booked in for Monday 14 December 2026 at 10am\b/],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some(([c, kind]) => want.test(c) && kind === 'plan'), `${s}: ${JSON.stringify(facts)}`);
    }
    // "all set for" with no date, hour or thing after it books nothing ("You're all set for decisions 3 times over").
    const none = await said("You're all set for tonight, the car is outside.");
    assert.ok(!none.some(([c]) => /\bJo is booked\b/.test(c)), JSON.stringify(none));
  });
  test('review H1: "this morning / this afternoon" dates the act of booking, not the slot', async () => {
    // Before the fix: each dated the Friday / Saturday before.
    for (const [s, want, day] of [
      ["This morning I booked a table at Luigi's on Friday at 8pm.", /\bFriday 11 December 2026 at 8pm\b/, '2026-12-11'],
      ['I booked a table on Friday at 8pm this morning.', /\bFriday 11 December 2026 at 8pm\b/, '2026-12-11'],
      ['this afternoon we reserved a court on saturday at 10am', /\bSaturday 12 December 2026 at 10am\b/, '2026-12-12'],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some(([c]) => want.test(c)) && !facts.some(([c]) => /\b[45] December\b/.test(c)), `${s} (${day}): ${JSON.stringify(facts)}`);
    }
  });

  test('review H2: "last time", "the previous time", "the previous Friday" keep a booked slot behind', async () => {
    for (const [s, want, day] of [
      ['Last time I booked a room on Saturday at 3pm.', /\bSaturday 5 December 2026 at 3pm\b/, '2026-12-05'],
      ['last time we booked a table on friday at 7pm', /\bFriday 4 December 2026 at 7pm\b/, '2026-12-04'],
      ['The previous time I booked a court on Saturday at 10am.', /\bSaturday 5 December 2026 at 10am\b/, '2026-12-05'],
      ['I booked a table on the previous Friday at 7pm.', /\bFriday 4 December 2026 at 7pm\b/, '2026-12-04'],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some(([c, , t]) => want.test(c) && t === day), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('review H3: "for <hour> on <weekday>" told with an outcome or a time gone by stays behind', async () => {
    for (const [s, want] of [
      ['We booked a table for half past 7 on Friday and it was lovely.', /\bFriday 4 December 2026\b/],
      ['We booked a table for quarter past 8 on Saturday and the food was great.', /\bSaturday 5 December 2026\b/],
      ['I booked a table for half past 7 on Friday but we never went.', /\bFriday 4 December 2026\b/],
      ['I reserved a room for half past 3 on Saturday last weekend.', /\bSaturday 5 December 2026\b/],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some(([c]) => want.test(c)) && !facts.some(([c]) => /\b1[12] December\b/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });
  test('review M1: someone\'s party planning meeting or show and tell keeps business hours', async () => {
    // Before the fix: each at 10pm.
    for (const [s, want] of [
      ["I've got Sam's party planning meeting on Friday at 10.", /\bFriday 11 December 2026 at 10am\b/],
      ["Ana's show and tell is on Friday at 10.", /\bFriday 11 December 2026 at 10am\b/],
      ["We're going to Tom's party on Friday at 10.", /\bFriday 11 December 2026 at 10pm\b/],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some(([c]) => want.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });
});
