/**
 * Rules 99 (people; issue #16 items 2–4, brief items 1–4): two people's clauses joined by "and" are a fact each ("Liam
 * wants the blue logo and Ava wants the green one"), one proposition stays one; a dated plan of a named person or a
 * group naming one is a plan ("Priya and others plan to…"); "it" / "that" after a later "Name," is said to the name.
 * Those with "On main" failed on main abd378e4 (what it did there in the comment); the rest guard what main did right
 * ("I changed banks, my current bank is Chase" already replaced the bank held).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact, ExtractionInput } from '../../../pipelines/memory/extractor.js';
import { partsCalled } from '../../../pipelines/memory/later-call.js';
import { factsSaid } from '../../helpers/extract-said.js';
import { openFactsAfter } from '../../helpers/memory-fixture.js';

const MONDAY = '2026-12-07T10:00:00.000Z';
const LATER = '2026-12-07T10:01:00.000Z';
const show = (facts: readonly ExtractedFact[]): string => JSON.stringify(facts.map((f) => [f.content, f.kind, f.addresseeIds]));
/** The facts of `text` said by Tom to Ana, Ben, Chen and Priya taking part. */
/** `text` as a turn said by Tom to Ana, Ben, Chen and Priya taking part. */
const input = (text: string): ExtractionInput => ({ current: { id: 'u1', speakerId: 'tom', addresseeIds: ['ana'], text, time: MONDAY, sessionId: 's' } as never,
  previous: [], names: { tom: 'Tom', ana: 'Ana', ben: 'Ben', chen: 'Chen', priya: 'Priya' } });
const told = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, MONDAY, ['tom', 'Tom'], ['ana', 'Ana'], [['ben', 'Ben'], ['chen', 'Chen'], ['priya', 'Priya']]);

describe('rules 99: two people\'s clauses joined by "and" are a fact each (brief item 1)', () => {
  test('"Liam wants the blue logo and Ava wants the green one": one fact per person, "one" read as the logo', async () => {
    // On main: one fact "Liam wants the blue logo and Ava wants the green one".
    const facts = (await told('Liam wants the blue logo and Ava wants the green one.')).map((f) => f.content);
    assert.deepEqual(facts, ['Liam wants the blue logo', 'Ava wants the green logo']);
  });

  test('"Liam likes tea and Ava likes coffee", "Ana lives in Porto and Ben lives in Lyon": two facts', async () => {
    // On main: one fact, and none at all for Porto and Lyon.
    for (const [s, first, second] of [
      ['Liam likes tea and Ava likes coffee.', /^Liam likes tea$/, /^Ava likes coffee$/],
      ['Ana lives in Porto and Ben lives in Lyon.', /Porto/, /Lyon/],
    ] as const) {
      const facts = await told(s);
      assert.ok(facts.some((f) => first.test(f.content) && !second.test(f.content)), `${s}: ${show(facts)}`);
      assert.ok(facts.some((f) => second.test(f.content) && !first.test(f.content)), `${s}: ${show(facts)}`);
    }
  });

  test('one proposition stays one fact: "Liam and Ava want the blue logo", "Liam wants the logo and the slides"', async () => {
    for (const s of ['Liam and Ava want the blue logo.', 'Liam wants the logo and the slides.']) {
      const facts = (await told(s)).map((f) => f.content);
      assert.deepEqual(facts, [s.replace(/\.$/, '')], s);
    }
  });
  test('a clause that cannot stand alone keeps the sentence whole: a shared day, a pronoun, a short clause', async () => {
    // Split, the day would date only Ava's part, "them" stand for nothing, and "I met Ana." or "Ben stayed home." be lost.
    for (const s of ['Liam will bring the cake and Ava will bring the drinks on Saturday.', 'Liam hates mornings and Ava loves them.',
      'I met Ana and Ben called me later.', 'Tom and Ana went to Porto and Ben stayed home.']) {
      const facts = await told(s);
      assert.equal(facts.length, 1, `${s}: ${show(facts)}`);
      assert.ok(/\band\b/.test(facts[0]!.content), `${s}: ${show(facts)}`);
    }
  });

  test('a count or an adjective\'s "one" reads the thing of the clause before', async () => {
    assert.deepEqual((await told('Liam has two kids and Ava has three.')).map((f) => f.content), ['Liam has two kids', 'Ava has three kids']);
    assert.deepEqual((await told('Liam bought a red car and Ava bought a blue one.')).map((f) => f.content), ['Liam bought a red car', 'Ava bought a blue car']);
  });
});

describe('rules 99: a dated plan of a group naming someone is a plan (brief item 2)', () => {
  test('"Priya and others plan to start the stand-up at 9" is a plan, as is "Priya plans to…"', async () => {
    // On main: a statement each.
    for (const s of ['Priya and others plan to start the stand-up at 9.', 'Priya plans to start the stand-up at 9.', 'Priya and Ben are planning to start the stand-up at 9.']) {
      const facts = await told(s);
      assert.ok(facts.some((f) => f.kind === 'plan' && /^Priya\b.*stand-up on Tuesday 8 December 2026 at 9am/.test(f.content)), `${s}: ${show(facts)}`);
    }
  });

  test('a plan in the past or a question stays no plan', async () => {
    for (const s of ['Priya and others planned to start the stand-up at 9.', 'Do Priya and others plan to start the stand-up at 9?']) {
      const facts = await told(s);
      assert.ok(!facts.some((f) => f.kind === 'plan'), `${s}: ${show(facts)}`);
    }
  });
});

describe('rules 99: "I changed banks, my current bank is Chase" (brief item 3)', () => {
  const said = openFactsAfter(MONDAY, LATER);

  test('the new bank replaces the bank held', async () => {
    const open = await said('t-99-bank', ['My bank is HSBC.', 'I changed banks, my current bank is Chase.']);
    assert.ok(open.some((c) => /Chase/.test(c)), JSON.stringify(open));
    assert.ok(!open.some((c) => /HSBC/.test(c)), JSON.stringify(open));
  });

  test('"I changed banks" alone keeps the bank held and stores nothing else', async () => {
    const open = await said('t-99-banks-alone', ['My bank is HSBC.', 'I changed banks.']);
    assert.ok(open.every((c) => /HSBC/.test(c)), JSON.stringify(open));
  });
});

describe('rules 99: "it" / "that" after a later "Name," is said to the name (brief item 4)', () => {
  test('"Thanks. Chen, it\'s due Friday." is told to Chen', async () => {
    // On main: the part stayed said to Ana, and "Chen, it's due on Friday 11 December 2026" was a fact told to her.
    for (const s of ["Thanks. Chen, it's due Friday.", "Thanks. Chen, that's due Friday.", 'Thanks. Chen, it needs to go out on Friday.']) {
      const parts = partsCalled(input(s));
      assert.ok(parts, s);
      assert.deepEqual(parts.map((p) => [p.current.text, p.current.addresseeIds]), [['Thanks.', ['ana']], [s.slice('Thanks. '.length), ['chen']]], s);
      const facts = await told(s);
      assert.ok(!facts.some((f) => /Chen/.test(f.content) || f.addresseeIds.includes('ana')), `${s}: ${show(facts)}`);
    }
  });

  test('"Emma, she\'s seven…", "Chen, he\'s off on Friday", "Lisbon, it\'s my favourite place": still about the name (rules 95)', async () => {
    const facts = await told("I have two kids. Emma, she's seven and she loves swimming.");
    assert.ok(facts.some((f) => /Emma/.test(f.content) && /seven/.test(f.content)), show(facts));
    for (const s of ["Thanks. Chen, he's off on Friday.", "I love that city. Lisbon, it's my favourite place in the world."]) assert.equal(partsCalled(input(s)), null, s);
  });
});
