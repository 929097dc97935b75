import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import type { LexicalDoc, LexicalHit, LexicalIndex } from '../../../graph/lexical-index.js';
import { contractSuite } from './contract-suite.js';

export interface LexicalIndexFixture {
  index: LexicalIndex;
  cleanup(): Promise<void>;
}

/** The behaviour every LexicalIndex implementation must show. */
export function lexicalIndexContract(name: string, factory: () => Promise<LexicalIndexFixture>, skip?: string): void {
  contractSuite(`LexicalIndex contract: ${name}`, skip, () => {
    let fx: LexicalIndexFixture;
    beforeEach(async () => {
      fx = await factory();
      await fx.index.index('t1', [
        { id: 'u1', text: 'Ana promised to send Ben the draft on Friday', layer: 'interaction', speakerId: 'ana', addresseeIds: ['ben'], sessionId: 's1' },
        { id: 'u2', text: 'Ben adopted a cat called Miko', layer: 'interaction', speakerId: 'ben', addresseeIds: ['ana'], sessionId: 's1' },
        { id: 'f1', text: 'Ben has a cat named Miko; the cat likes tuna', layer: 'fact', speakerId: 'ben', sessionId: 's2' },
        { id: 'u3', text: 'The weather is lovely today', layer: 'interaction', speakerId: 'ana', sessionId: 's2' },
      ]);
    });
    afterEach(async () => {
      await fx.cleanup();
    });

    test('ranks by BM25 with stemming', async () => {
      const hits = await fx.index.search('t1', 'cats Miko', 5);
      assert.deepEqual(hits.map((h) => h.id).sort(), ['f1', 'u2']);
      assert.ok(hits[0]!.score >= hits[1]!.score);
      assert.deepEqual((await fx.index.search('t1', 'promise draft', 5)).map((h) => h.id), ['u1']);
    });

    test('filters by layer, speaker, addressee, session and id pool', async () => {
      assert.deepEqual((await fx.index.search('t1', 'Miko', 5, { layer: 'fact' })).map((h) => h.id), ['f1']);
      assert.deepEqual((await fx.index.search('t1', 'Miko cat draft', 5, { speakerId: 'ana' })).map((h) => h.id), ['u1']);
      assert.deepEqual((await fx.index.search('t1', 'Miko cat draft', 5, { addresseeId: 'ana' })).map((h) => h.id), ['u2']);
      assert.deepEqual((await fx.index.search('t1', 'Miko', 5, { sessionId: 's2' })).map((h) => h.id), ['f1']);
      assert.deepEqual((await fx.index.search('t1', 'Miko', 5, { ids: ['u2'] })).map((h) => h.id), ['u2']);
    });

    test('operators and punctuation are plain words; empty queries find nothing', async () => {
      assert.deepEqual(await fx.index.search('t1', '"AND OR NOT ( * :', 5), []);
      assert.deepEqual(await fx.index.search('t1', '', 5), []);
      assert.deepEqual((await fx.index.search('t1', 'weather? "lovely" -today*', 5)).map((h) => h.id), ['u3']);
    });

    test('a number said in words finds the same number kept in digits (rules 55)', async () => {
      await fx.index.index('t1', [{ id: 'f2', text: "Ben's order number is 5520", layer: 'fact', speakerId: 'ben', sessionId: 's2' }]);
      assert.deepEqual((await fx.index.search('t1', 'five five two zero', 5)).map((h) => h.id), ['f2']);
      assert.equal((await fx.index.search('t1', 'order five five two zero', 5))[0]?.id, 'f2');
      // Two words of one digit each read no number worth a term: "two cats" finds the cats, not "5520".
      assert.ok(!(await fx.index.search('t1', 'two cats', 5)).some((h) => h.id === 'f2'));
    });

    test('re-indexing replaces; delete removes; tenants are separate', async () => {
      await fx.index.index('t1', [{ id: 'u3', text: 'It is raining', layer: 'interaction' }]);
      assert.deepEqual(await fx.index.search('t1', 'weather', 5), []);
      assert.deepEqual((await fx.index.search('t1', 'raining', 5)).map((h) => h.id), ['u3']);
      await fx.index.delete('t1', ['u3', 'nope']);
      assert.deepEqual(await fx.index.search('t1', 'raining', 5), []);
      assert.deepEqual(await fx.index.search('t2', 'Miko', 5), []);
    });
  });
}

/**
 * BM25 statistics are kept per tenant: tenant `tB` indexes three documents and asks "Miko garden tuna" (all three found),
 * then tenant `tA` indexes `flood` (the same words, many times; default 200 short documents); tB's hits, scores
 * included, do not move. Returns them.
 */
export async function assertFloodKeepsScores(
  index: LexicalIndex,
  flood: LexicalDoc[] = Array.from({ length: 200 }, (_, i) => ({ id: `a${i}`, text: i % 2 ? 'tuna tuna tuna' : 'Miko and more Miko', layer: 'fact' })),
): Promise<LexicalHit[]> {
  await index.index('tB', [
    { id: 'b1', text: 'Miko the cat likes tuna', layer: 'fact' },
    { id: 'b2', text: 'the garden needs water', layer: 'fact' },
    { id: 'b3', text: 'Miko sleeps in the garden', layer: 'fact' },
  ]);
  const before = await index.search('tB', 'Miko garden tuna', 5);
  assert.equal(before.length, 3);
  await index.index('tA', flood);
  assert.deepEqual(await index.search('tB', 'Miko garden tuna', 5), before, "another tenant's documents moved tB's scores");
  return before;
}
