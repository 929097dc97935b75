/**
 * Rules 105 (fix98; review rv98 of rules 98): a cancellation by another person closes that person's plan only, never the
 * speaker's own plan of the same thing; a booking of the listener is past or a mistake only by what the clause holding it
 * says; "you're all set for tomorrow / today / tonight's show" books that day. Each failed on main 042443b7 (what it did
 * there in the comment).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';

describe('rules 105: a cancellation closes only the plans of whose it is (rv98 H4)', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });
  /** All facts after Maria's turns to Jo, one a minute apart. */
  const factsAfter = async (tenant: string, turns: string[]) => {
    const f = await memoryFixture(tenant, ['Maria', 'Jo']);
    fixtures.push(f);
    for (const [i, text] of turns.entries()) await f.say('s1', 'Maria', ['Jo'], text, new Date(Date.parse(MONDAY) + i * 60_000).toISOString());
    return f.memory.listFacts(tenant, { includeHistory: true });
  };

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
