/**
 * Rules 87 (newfix; issue #16 items 2–4, a newcomer's trial): a day, date or time beside a relation is never the relative's
 * name (H5); a booking moved by the receptionist or at the caller's asking closes the booking it moves (C4). Each fails on
 * main 6a172dc1 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { factsSaid } from '../../helpers/extract-said.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-11-30T09:00:00.000Z';
const LATER = '2026-11-30T09:01:00.000Z';
const MARIA = ['maria', 'Maria Lopez'] as const;
const JESS = ['jess', 'Jess'] as const;

const contents = (facts: readonly { content: string }[]): string[] => facts.map((f) => f.content);
const relations = (facts: readonly { content: string; kind: string }[]): string[] => facts.filter((f) => f.kind === 'relation').map((f) => f.content);

describe('rules 87: a day, date or time beside a relation is no name (trial H5)', () => {
  test('"I will visit my mother Tuesday.": no relation, the visit kept', async () => {
    // On main: "Tuesday 1 December 2026 is Maria Lopez's mother" besides the visit.
    const facts = await factsSaid('I will visit my mother Tuesday.', MONDAY, MARIA, JESS);
    assert.deepEqual(relations(facts), []);
    assert.deepEqual(contents(facts), ['Maria Lopez will visit their mother on Tuesday 1 December 2026']);
  });

  test('a weekday with a time, a month with its day, tonight: no relation', async () => {
    // On main: "Friday is Maria Lopez's brother", "December is Maria Lopez's mother".
    for (const s of ['I will call my brother Friday at 3pm.', 'I will visit my mother December 3.', 'I will visit my mother May 3rd.',
      'I will call my sister Tomorrow.']) {
      const facts = await factsSaid(s, MONDAY, MARIA, JESS);
      assert.deepEqual(relations(facts), [], `${s}: ${JSON.stringify(contents(facts))}`);
      assert.ok(facts.some((f) => f.kind === 'commitment'), `${s}: ${JSON.stringify(contents(facts))}`);
    }
  });

  test('a name beside the relation is still the relative, a month that is a name too', async () => {
    const ana = await factsSaid('I will visit my mother Ana on Tuesday.', MONDAY, MARIA, JESS);
    assert.deepEqual(relations(ana), ["Ana is Maria Lopez's mother"]);
    const april = await factsSaid('My daughter April starts school on Monday.', MONDAY, MARIA, JESS);
    // The relation is kept (its text's "April" is dated apart, as before: not this rule's).
    assert.deepEqual(april.filter((f) => f.kind === 'relation').map((f) => f.value), ['April']);
  });
});

describe('rules 87: a booking moved closes the booking it moves (trial C4)', () => {
  const fixtures: MemoryFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });
  /** The open facts after the turns, each [speaker, text], said between Jess and Maria Lopez in one session. */
  const openAfter = async (tenant: string, turns: [speaker: 'Jess' | 'Maria Lopez', text: string][]): Promise<string[]> => {
    const f = await memoryFixture(tenant, ['Jess', 'Maria Lopez']);
    fixtures.push(f);
    for (const [i, [speaker, text]] of turns.entries()) {
      await f.say('s1', speaker, [speaker === 'Jess' ? 'Maria Lopez' : 'Jess'], text, i === 0 ? MONDAY : LATER);
    }
    return (await f.memory.listFacts(tenant)).filter((x) => x.validTo === null).map((x) => x.content);
  };
  const BOOKED: [speaker: 'Jess', text: string] = ['Jess', 'Great, you are booked with Dr. Patel on Tuesday at 10am.'];

  test('the receptionist\'s "I moved your appointment with Dr. Patel to Thursday at 3pm."', async () => {
    // On main: the Tuesday booking stayed open beside "Jess moved Maria Lopez's appointment … to Thursday …".
    const open = await openAfter('t-87-moved', [BOOKED, ['Jess', 'I moved your appointment with Dr. Patel to Thursday at 3pm.']]);
    assert.ok(!open.some((c) => /Tuesday/.test(c)), JSON.stringify(open));
    assert.ok(open.some((c) => /Thursday 3 December 2026 at 3pm/.test(c)), JSON.stringify(open));
  });

  test('the caller\'s "Can we move it to Thursday at 3pm instead?", then "Done, moved to Thursday at 3pm."', async () => {
    // On main: the Tuesday booking stayed open; "Moved to Thursday …" was kept as a statement of its own.
    const open = await openAfter('t-87-asked', [BOOKED, ['Maria Lopez', 'Can we move it to Thursday at 3pm instead?'],
      ['Jess', 'Done, moved to Thursday at 3pm.']]);
    assert.ok(!open.some((c) => /Tuesday/.test(c)), JSON.stringify(open));
    assert.ok(open.some((c) => /^Maria Lopez is booked with Dr\. Patel on Thursday 3 December 2026 at 3pm$/.test(c)), JSON.stringify(open));
  });

  test('a plan of the caller\'s own beside the booking is not moved', async () => {
    const open = await openAfter('t-87-own', [['Maria Lopez', 'I will visit my mother on Wednesday.'], BOOKED,
      ['Jess', 'I moved your appointment with Dr. Patel to Thursday at 3pm.']]);
    assert.ok(open.includes('Maria Lopez will visit their mother on Wednesday 2 December 2026'), JSON.stringify(open));
    assert.ok(!open.some((c) => /Tuesday/.test(c)), JSON.stringify(open));
  });

  test('a move naming another thing leaves the booking', async () => {
    const open = await openAfter('t-87-other', [BOOKED, ['Jess', 'I moved the staff meeting to Thursday at 3pm.']]);
    assert.ok(open.includes('Maria Lopez is booked with Dr. Patel on Tuesday 1 December 2026 at 10am'), JSON.stringify(open));
  });
});

describe('rules 87: a value of one\'s own told after a comma is kept beside the clause before it (trial C5)', () => {
  test('"Actually I just moved to Oakland, my new number is 555 0123.": the residence and the number', async () => {
    // On main: ["Maria Lopez moved to Oakland"] alone.
    const facts = contents(await factsSaid('Actually I just moved to Oakland, my new number is 555 0123.', MONDAY, MARIA, JESS));
    const alone = contents(await factsSaid('My new number is 555 0123.', MONDAY, MARIA, JESS));
    assert.ok(facts.includes('Maria Lopez moved to Oakland'), JSON.stringify(facts));
    assert.ok(alone.length > 0 && alone.every((c) => facts.includes(c)), JSON.stringify({ facts, alone }));
  });

  test('"my … is" with no clause of its own before it is one sentence, as before', async () => {
    const facts = contents(await factsSaid('Honestly, my new number is 555 0123.', MONDAY, MARIA, JESS));
    const alone = contents(await factsSaid('My new number is 555 0123.', MONDAY, MARIA, JESS));
    assert.deepEqual(facts, alone);
  });
});
