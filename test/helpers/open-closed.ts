/** The cancellation tests' view of a tenant's facts: which stay open and which were closed. */
import assert from 'node:assert/strict';
import type { Fact } from '../../graph/memory-store.js';

/** Facts' texts split into those still current and those closed. */
export interface OpenClosed { open: string[]; closed: string[] }

/** The open and the closed facts' texts of `all`. */
export function openAndClosed(all: readonly Fact[]): OpenClosed {
  return {
    open: all.filter((x) => x.validTo === null).map((x) => x.content),
    closed: all.filter((x) => x.validTo !== null).map((x) => x.content),
  };
}

/** Asserts the plan `plan` matches is closed and none it matches is open (`said`: what closed it, for the message). */
export function assertCloses(facts: OpenClosed, plan: RegExp, said: string): void {
  assert.ok(facts.closed.some((c) => plan.test(c)), `${said}: ${JSON.stringify(facts)}`);
  assert.ok(!facts.open.some((c) => plan.test(c)), `${said}: ${JSON.stringify(facts)}`);
}

/** Asserts the plan `plan` matches stays open and nothing closed (`said`: what was said after it, for the message). */
export function assertLeaves(facts: OpenClosed, plan: RegExp, said: string): void {
  assert.ok(facts.open.some((c) => plan.test(c)), `${said}: ${JSON.stringify(facts)}`);
  assert.deepEqual(facts.closed, [], said);
}

/** A test row: the turn stating a plan, the turn that should close it, and what the plan's text matches. */
export type ClosingRow = readonly [first: string, said: string, plan: RegExp];

/**
 * Runs each row's two turns in its own tenant (`tenant` with the row's index) through `factsAfter`, and asserts its plan
 * closed ({@link assertCloses}), or with `leave`, that it stayed open and nothing closed ({@link assertLeaves}).
 */
export async function eachRow(factsAfter: (tenant: string, turns: readonly string[]) => Promise<Fact[]>, tenant: string,
  rows: readonly ClosingRow[], leave = false): Promise<void> {
  for (const [i, [first, said, plan]] of rows.entries()) {
    const facts = openAndClosed(await factsAfter(`${tenant}-${i}`, [first, said]));
    if (!leave) assertCloses(facts, plan, said);
    else assertLeaves(facts, plan, said);
  }
}
