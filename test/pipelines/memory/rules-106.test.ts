/**
 * Rules 106 (cancel): a cancellation closes the plan of whose it is, and only a cancellation told as happened closes one.
 * Each failed on main 35a87d3e (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import { allFactsAfter, type MariaJoTurn } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';

/** The open and the closed facts' texts. */
const split = (all: Fact[]): { open: string[]; closed: string[] } => ({
  open: all.filter((x) => x.validTo === null).map((x) => x.content),
  closed: all.filter((x) => x.validTo !== null).map((x) => x.content),
});

describe('rules 106: a cancellation of someone\'s plan closes theirs, not the speaker\'s (rv98 H4 remainder)', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('"Tom\'s concert got cancelled", "Tom cancelled his concert" close Tom\'s plan and leave Maria\'s', async () => {
    // On main: both plans closed ("Tom's concert got cancelled"), or neither ("Tom cancelled his concert").
    for (const [i, turns] of [
      ['I am going to a concert on Friday.', 'Tom is going to a concert on Saturday.', "Tom's concert got cancelled."],
      ['Tom is going to a concert on Saturday.', 'I am going to a concert on Friday.', "Tom's concert got cancelled."],
      ['I am going to a concert on Friday.', 'Tom is going to a concert on Saturday.', 'Tom cancelled his concert.'],
    ].entries()) {
      const { open, closed } = split(await factsAfter(`t-106-tom-${i}`, turns));
      assert.ok(open.some((c) => /^Maria is going to a concert on Friday/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
      assert.ok(closed.some((c) => /^Tom is going to a concert on Saturday/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
      assert.ok(!open.some((c) => /^Tom is going to a concert/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
    }
  });

  test('"Your concert got cancelled" said by Jo, "Maria\'s concert got cancelled", close Maria\'s plan and leave Tom\'s', async () => {
    // On main: both plans closed.
    for (const [i, last] of ([['Jo', 'Your concert got cancelled.'], "Maria's concert got cancelled."] as MariaJoTurn[]).entries()) {
      const { open, closed } = split(await factsAfter(`t-106-maria-${i}`, ['I am going to a concert on Friday.', 'Tom is going to a concert on Saturday.', last]));
      assert.ok(closed.some((c) => /^Maria is going to a concert on Friday/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
      assert.ok(open.some((c) => /^Tom is going to a concert on Saturday/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
    }
  });
});

describe('rules 106: a cancellation denied, in a condition or only maybe closes nothing', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('the plan stays open', async () => {
    // On main: the plan closed by each.
    for (const [i, said] of ["The concert didn't get cancelled.", "The concert wasn't cancelled after all.", "The concert hasn't been cancelled.",
      "If the concert gets cancelled, I'll stay home.", 'They might cancel the concert.', 'The concert may be cancelled.'].entries()) {
      const { open, closed } = split(await factsAfter(`t-106-not-${i}`, ['I am going to a concert on Friday.', said]));
      assert.ok(open.some((c) => /^Maria is going to a concert on Friday/.test(c)), `${said}: ${JSON.stringify({ open, closed })}`);
    }
  });
});

describe('rules 106: "I cancelled date night" closes date night', () => {
  const factsAfter = allFactsAfter(MONDAY);

  test('told with "we have"', async () => {
    // On main: "Maria and others have date night…" left open ("Date night is on Friday at 8" was closed already).
    for (const [i, first] of ['Date night is on Friday at 8.', 'We have date night on Friday at 8pm.'].entries()) {
      const { open, closed } = split(await factsAfter(`t-106-date-${i}`, [first, 'I cancelled date night.']));
      assert.ok(closed.some((c) => /date night on Friday|Date night is on Friday/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
      assert.ok(!open.some((c) => /date night on Friday|Date night is on Friday/.test(c)), `${i}: ${JSON.stringify({ open, closed })}`);
    }
  });
});
