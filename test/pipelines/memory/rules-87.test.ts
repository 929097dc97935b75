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
