/**
 * Neo4j finds the facts that name an erased person only in their text (`MemoryStore.erasedFactIds`) through the
 * full-text index of fact words, not by reading every fact of the tenant: the work does not grow with the tenant's
 * unrelated facts, and every fact naming them as a whole word (`textNames`) is still found.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Neo4jMemoryStore } from '../../graph/neo4j/neo4j-memory-store.js';
import type { NewFact } from '../../graph/memory-store.js';
import { hitsOf, profiledReads } from '../helpers/neo4j-profile.js';
import { NEO4J_SKIP, neo4jTestOptions } from '../helpers/stores.js';

const AT = '2026-12-01T00:00:00.000Z';
const fact = (content: string, speakerId = 'p_cara'): NewFact => ({
  content, speakerId, subjectId: speakerId, addresseeIds: [], kind: 'statement', slot: null, value: null, time: AT,
  referIds: [], validFrom: AT, supersedes: null, confidence: 0.9, sessionId: 's1', source: 'test',
});

/** The database hits of every read `run` makes on `store` (each query profiled), summed. */
async function dbHits(store: Neo4jMemoryStore, run: () => Promise<unknown>): Promise<number> {
  return (await profiledReads(store, run)).reduce((sum, plan) => sum + hitsOf(plan), 0);
}

describe('Neo4j: facts naming an erased person, by the fact words index', { skip: NEO4J_SKIP }, () => {
  test('every fact naming them as a whole word is found (possessive, hyphen, accent, any script; a name with no letter by scan), and only those', async () => {
    const memory = new Neo4jMemoryStore(neo4jTestOptions('test-erased-search'));
    try {
      const naming = await memory.addFacts('t1', [
        fact("Cara borrowed Rose's bike"), fact('Cara met Rose Park at the market'), fact('Cara and Jean-Luc cook on Sundays'),
        fact('Cara writes to Zoë every week'), fact('Cara calls R2 at noon'), fact('Cara sent 4471 a card'), fact('Cara thanks 李明 for tea'),
      ]);
      const others = await memory.addFacts('t1', [
        fact('Cara walks in Central Park'), fact('Cara roses the garden'), fact('Cara likes Jean'), fact('Cara met Zoe'), fact('Cara sent 44712 cards'),
        fact('Cara thanks 李明明 for tea'),
      ]);
      await memory.addFacts('t2', [fact("Cara borrowed Rose's bike")]);
      const names = ['Rose', 'Rose Park', 'Jean-Luc', 'Zoë', 'R2', '4471', '李明'];
      const found = await memory.erasedFactIds('t1', 'p_gone', names);
      assert.deepEqual([...found].sort(), naming.map((f) => f.id).sort());
      assert.ok(!others.some((f) => found.includes(f.id)));
      assert.deepEqual(await memory.erasedFactIds('t1', 'p_gone', ['Quillon "the" Varbeck\\']), [], 'query syntax in a name is text');
    } finally {
      await memory.eraseAll();
      await memory.close();
    }
  });

  test('the work does not grow with the tenant\'s unrelated facts (database hits, profiled)', async () => {
    const memory = new Neo4jMemoryStore(neo4jTestOptions('test-erased-scale'));
    try {
      await memory.addFacts('t1', [fact('Cara lent Quillon a ladder'), fact('Quillon, that is a rare trade', 'p_ben')]);
      const small = await dbHits(memory, () => memory.erasedFactIds('t1', 'p_gone', ['Quillon Varbeck', 'Quillon']));
      for (let i = 0; i < 4; i++) await memory.addFacts('t1', Array.from({ length: 500 }, (_, j) => fact(`Cara likes tea number ${i * 500 + j}`)));
      const found = await memory.erasedFactIds('t1', 'p_gone', ['Quillon Varbeck', 'Quillon']);
      const large = await dbHits(memory, () => memory.erasedFactIds('t1', 'p_gone', ['Quillon Varbeck', 'Quillon']));
      assert.equal(found.length, 2);
      assert.ok(large - small < 200, `2,000 unrelated facts more cost ${large - small} more database hits (${small} → ${large})`);
    } finally {
      await memory.eraseAll();
      await memory.close();
    }
  });
});
