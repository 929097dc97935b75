/**
 * Rules 81 (fixrt; review of rules 79 and 80): a clause with its own action at a new hour "instead" is its own plan,
 * not a retime; an evening's outing is the thing booked, not any word; a moved evening booking keeps the evening; a
 * thanks the request's verb takes stays. Each fails on main 251d0f4b (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { hourInstead } from '../../../pipelines/memory/clock-time.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { factsSaid } from '../../helpers/extract-said.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';

const fixtures: MemoryFixture[] = [];
after(async () => {
  for (const f of fixtures) await f.close();
});

/** The open facts' texts of `tenant` after `turns` (speaker Maria, to Jo, in one session). */
async function said(tenant: string, turns: string[]): Promise<string[]> {
  const f = await memoryFixture(tenant, ['Maria', 'Jo']);
  fixtures.push(f);
  for (const [i, turn] of turns.entries()) await f.say('s1', 'Maria', ['Jo'], turn, i === 0 ? MONDAY : LATER);
  return (await f.memory.listFacts(tenant)).filter((x) => x.validTo === null).map((x) => x.content);
}

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
