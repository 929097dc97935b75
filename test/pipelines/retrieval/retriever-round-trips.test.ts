import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { memoryFixture, SNIPPETS, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_trips';

/** Counts the calls made through `target`'s methods, by method name. */
function counted<S extends object>(target: S, calls: Map<string, number>, name: string): S {
  return new Proxy(target, {
    get(obj, key, receiver) {
      const value = Reflect.get(obj, key, receiver) as unknown;
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(`${name}.${key}`, (calls.get(`${name}.${key}`) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(obj, args);
      };
    },
  });
}

// With networked stores every store call is a round trip; a retrieval's calls must not grow with
// the number of items it returns (names and validity of each item looked up one by one did).
describe('store calls of one retrieval (real USE-lite, SQLite, consolidation)', () => {
  let f: MemoryFixture;
  const calls = new Map<string, number>();
  let retriever: Retriever;

  before(async () => {
    f = await memoryFixture(T, ['Ana', 'Ben', 'Clara']);
    for (const s of SNIPPETS) await f.say(s.session, s.speaker, s.to, s.text, s.time);
    const stores = {
      graph: counted(f.graph, calls, 'graph'), memory: counted(f.memory, calls, 'memory'),
      vectors: counted(f.vectors, calls, 'vectors'), lexical: counted(f.lexical, calls, 'lexical'),
    };
    retriever = new Retriever(stores, counted(f.entities, calls, 'entities'), f.embedder, { minPool: 1 });
  });
  after(async () => {
    await f.close();
  });

  const run = async (k: number): Promise<{ total: number; byMethod: Map<string, number>; items: number; named: number }> => {
    calls.clear();
    const r = await retriever.retrieve({ tenant: T, text: 'What did Ana promise Ben about the report and the cat?', k, askerId: f.people.Ana! });
    const total = [...calls.values()].reduce((a, b) => a + b, 0);
    const named = r.items.filter((i) => i.speaker?.name).length;
    return { total, byMethod: new Map(calls), items: r.items.length, named };
  };

  test('names and validity of all items are read in one call each, not one per item', async () => {
    const few = await run(2);
    const many = await run(12);
    assert.ok(many.items > few.items + 3, `more items with a larger k (${few.items} → ${many.items})`);
    assert.equal(many.named, many.items, 'every item still names its speaker');
    assert.equal(many.byMethod.get('graph.getParticipant') ?? 0, 0, 'no participant read one by one');
    assert.equal(many.byMethod.get('memory.processedFacts') ?? 0, 0, 'no consolidation record read one by one');
    assert.equal(many.byMethod.get('graph.getParticipants'), 1);
    assert.equal(many.byMethod.get('memory.processedFactsOf'), 1);
    // At most one call more: the facts of the turns, read only when a returned turn produced any.
    assert.ok(many.total <= few.total + 1, `store calls do not grow with the items returned: ${JSON.stringify([...few.byMethod])} → ${JSON.stringify([...many.byMethod])}`);
  });
});
