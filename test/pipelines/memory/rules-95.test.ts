/**
 * Rules 95 (fix93; review of rules 93, rev93 F1, F2): a name opening a later sentence whose statement is about the name
 * ("Emma, she's seven") keeps its subject; a value told after a clause opening "when / since / because…" is kept as a
 * fact of its own, the opening clause never glued to it. Each failed on main 002d4877 (what it did there in the comment).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ExtractedFact } from '../../../pipelines/memory/extractor.js';
import { splitPlanClauses } from '../../../pipelines/memory/clause-split.js';
import { wink } from '../../../pipelines/wink.js';
import { factsSaid } from '../../helpers/extract-said.js';

const WHEN = '2026-12-07T10:00:00.000Z';
const show = (facts: readonly ExtractedFact[]): string => JSON.stringify(facts.map((f) => [f.content, f.addresseeIds]));

describe('rules 95: a name that is the later sentence\'s subject is no call (rev93 F1)', () => {
  /** The facts of `text` said by Tom to Ana, Ben and Chen taking part. */
  const told = async (text: string): Promise<ExtractedFact[]> => factsSaid(text, WHEN, ['tom', 'Tom'], ['ana', 'Ana'], [['ben', 'Ben'], ['chen', 'Chen']]);

  test('"Emma, she\'s seven…", "Lisbon, it\'s my favourite place…": the name kept in the fact', async () => {
    // On main: "She's seven and she loves swimming", "He's moving to Denver…", and no fact at all for Lisbon.
    for (const [s, name] of [
      ["I have two kids. Emma, she's seven and she loves swimming.", 'Emma'],
      ["I talked to my brother yesterday. Tom, he's moving to Denver in March.", 'Tom'],
      ['My neighbours are lovely. Sarah, she works at the hospital as a nurse.', 'Sarah'],
      ["I've got a dog now. Rex, he's a golden retriever.", 'Rex'],
      ['Great news. Sarah, my sister had her baby yesterday.', 'Sarah'],
      ["I love that city. Lisbon, it's my favourite place in the world.", 'Lisbon'],
    ] as const) {
      const facts = await told(s);
      assert.ok(facts.some((f) => f.content.includes(name) && f.content.length > name.length + 12), `${s}: ${show(facts)}`);
    }
  });

  test('a participant called before a statement about someone else: still said to them', async () => {
    const facts = await told('Thanks. Chen, the report is due Friday.');
    const f = facts.find((x) => x.content.startsWith('The report is due'));
    assert.ok(f, show(facts));
    assert.deepEqual(f.addresseeIds, ['chen'], show(facts));
  });
});

describe('rules 95: a value after "when / since / because…" is a fact of its own (rev93 F2)', () => {
  const said = async (text: string): Promise<string[]> => (await factsSaid(text, WHEN, ['maria', 'Maria Lopez'], ['jess', 'Jess'])).map((f) => f.content);

  test('the value kept, the opening clause neither glued to it nor stored as a fragment', async () => {
    // On main: no email; no address (twice); no commute; "Since Maria Lopez started at Google, their new manager is Sam".
    for (const [s, value] of [
      ['When you get a chance, my new email is ana@example.com.', 'ana@example.com'],
      ['Now that I moved to Oakland, my new address is 4 Rose Court.', '4 Rose Court'],
      ['When I moved to Austin, my new address is 5 Oak Lane.', '5 Oak Lane'],
      ['Because I moved to Denver, my new commute is an hour.', 'commute'],
      ['Since I started at Google, my new manager is Sam.', 'manager is Sam'],
    ] as const) {
      const facts = await said(s);
      assert.ok(facts.some((c) => c.includes(value)), `${s}: ${JSON.stringify(facts)}`);
      assert.ok(!facts.some((c) => /^(?:when|now that|because|since)\b/i.test(c)), `${s}: ${JSON.stringify(facts)}`);
      assert.ok(!facts.some((c) => c.includes(value) && /Oakland|Austin|Denver|Google|chance/.test(c)), `${s}: ${JSON.stringify(facts)}`);
    }
  });

  test('a past act of one\'s own in the opening clause is read without its subordinator; a mere setting is dropped', () => {
    assert.deepEqual(splitPlanClauses(wink(), 'Since I started at Google, my new manager is Sam.'), ['I started at Google.', 'My new manager is Sam.']);
    assert.deepEqual(splitPlanClauses(wink(), 'When you get a chance, my new email is ana@example.com.'), ['My new email is ana@example.com.']);
  });
});
