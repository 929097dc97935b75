import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import type { Utterance } from '../../../graph/types.js';
import { diversify } from '../../../pipelines/retrieval/diversify.js';
import { answerItems, type MemoryLayerInput } from '../../../pipelines/retrieval/memory-layer.js';
import { NameResolver } from '../../../pipelines/retrieval/memory-items.js';
import { storedFact } from '../../helpers/stored-fact.js';

const v = (...xs: number[]): Float32Array => Float32Array.from(xs);

describe('diversify (maximal marginal relevance)', () => {
  const items = [
    { id: 'a', score: 1, vec: v(1, 0, 0) }, { id: 'b', score: 0.9, vec: v(0.99, 0.1, 0) },
    { id: 'c', score: 0.85, vec: v(0.98, 0, 0.1) }, { id: 'd', score: 0.8, vec: v(0, 1, 0) }, { id: 'e', score: 0.1, vec: undefined },
  ];
  const by = { score: (x: (typeof items)[number]) => x.score, vector: (x: (typeof items)[number]) => x.vec, floor: 0.7 };

  test('a distinct item moves above paraphrases of the best one, which stay below rather than dropped', () => {
    assert.deepEqual(diversify(items, { ...by, weight: 0.5 }).map((x) => x.id), ['a', 'd', 'b', 'c', 'e']);
  });

  test('weight 0 keeps the order; items past the pool follow in order', () => {
    assert.deepEqual(diversify(items, { ...by, weight: 0 }).map((x) => x.id), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(diversify(items, { ...by, weight: 0.5, pool: 3 }).map((x) => x.id), ['a', 'b', 'c', 'd', 'e']);
  });

  test('similarity below the floor costs nothing', () => {
    assert.deepEqual(diversify(items, { ...by, weight: 0.5, floor: 0.999 }).map((x) => x.id), ['a', 'b', 'c', 'd', 'e']);
  });

  test('a bad weight or floor is a clear error', () => {
    assert.throws(() => diversify(items, { ...by, weight: -1 }), /weight is at least 0/);
    assert.throws(() => diversify(items, { ...by, weight: 0.5, floor: 1 }), /floor is from 0 to below 1/);
  });
});

// "Where has Ana camped?": gold turns g1 (ranked first) and g2 (ranked seventh); between them five turns
// paraphrasing one camping topic, three of them served as facts ("Ana loves camping" …).
const turn = (id: string, seq: number, text: string): Utterance => ({
  id, sessionId: 's1', seq: seq * 10, speakerId: 'p_ana', addresseeIds: ['p_ben'], text, time: `2026-11-0${seq}T10:00:00Z`,
} as Utterance);
const fact = (id: string, turnId: string, content: string): Fact =>
  storedFact('2026-11-01T10:00:00Z', { id, content, speakerId: 'p_ana', subjectId: 'p_ana', addresseeIds: ['p_ben'], referIds: [turnId], sessionId: 's1' });
const TURNS = [
  turn('g1', 1, 'We camped on the beach last summer.'), turn('u2', 2, 'I love camping so much.'), turn('u3', 3, 'Camping is my favourite thing.'),
  turn('u4', 4, 'Nothing beats camping for me.'), turn('u5', 5, 'Camping always relaxes me.'), turn('u6', 6, 'I could go camping every weekend.'),
  turn('g2', 7, 'In May we camped up in the mountains.'),
];
const FACTS = [fact('f2', 'u2', 'Ana loves camping'), fact('f3', 'u3', 'Camping is Ana\'s favourite thing'), fact('f4', 'u4', 'Ana enjoys camping most')];
/** Stored vectors: the paraphrases (turns and facts) nearly one point, the gold turns apart from it and from each other. */
const topic = (i: number): Float32Array => v(1, 0.02 * i, 0);
const VECTORS: Record<string, Record<string, Float32Array>> = {
  memory_interaction: { g1: v(0.8, 0.6, 0), g2: v(0.6, 0, 0.8), u2: topic(2), u3: topic(3), u4: topic(4), u5: topic(5), u6: topic(6) },
  memory_fact: { f2: topic(2), f3: topic(3), f4: topic(4) },
};

function input(): MemoryLayerInput {
  const graph = {
    getParticipants: async (_t: string, ids: string[]) => ids.map((id) => ({ id, name: id })),
    getUtterances: async (_t: string, ids: string[]) => TURNS.filter((u) => ids.includes(u.id)),
  };
  const stores = {
    graph,
    vectors: {
      search: async () => [],
      get: async (_t: string, collection: string, ids: string[]) =>
        ids.flatMap((id) => (VECTORS[collection]?.[id] ? [{ id, vector: VECTORS[collection][id], payload: {} }] : [])),
    },
    lexical: { search: async () => FACTS.map((f, i) => ({ id: f.id, score: 3 - i })) },
    memory: { listFacts: async () => FACTS, getFact: async () => null },
  } as unknown as MemoryLayerInput['stores'];
  return {
    stores, tenant: 't_div', names: new NameResolver(graph as never, 't_div'), question: 'Where has Ana camped?', keywords: 'camping',
    vector: null, filters: {}, askerId: null, factor: () => 1, intent: null, k: 5, rrfK: 5, depth: 10, terms: ['camping'],
    turns: TURNS.map((u, i) => ({ u, score: 1 / (i + 1) })),
  } as MemoryLayerInput;
}
const sources = (items: { refer_ids: string[] }[]): string[] => items.flatMap((i) => i.refer_ids);
const opts = { validity: false, personaItemWeight: 0 };

describe('memory layer: diversity by meaning (diversityWeight)', () => {
  test('off (the default): paraphrases of one topic fill the top 5 and push the second gold turn out', async () => {
    const items = await answerItems(input(), opts);
    assert.deepEqual(sources(items), ['g1', 'u2', 'u3', 'u4', 'u5']);
  });

  for (const by of ['source', 'text'] as const) {
    test(`on (by ${by}): the second gold turn takes a top-5 place, above the paraphrases`, async () => {
      const items = await answerItems(input(), { ...opts, diversityWeight: 1, diversityBy: by });
      assert.equal(items.length, 5);
      assert.deepEqual(sources(items).slice(0, 3), ['g1', 'g2', 'u2'], 'the distinct gold turn rises above the paraphrases (g1 itself is near them)');
      assert.equal(items[2]?.id, 'f2', 'the best paraphrase follows, served as its fact');
    });
  }

  test('a bad diversityBy or pool is a clear error', async () => {
    await assert.rejects(answerItems(input(), { ...opts, diversityWeight: 1, diversityBy: 'words' as never }), /diversityBy is 'source' or 'text'/);
    await assert.rejects(answerItems(input(), { ...opts, diversityWeight: 1, diversityPool: 0 }), /diversityPool is a positive whole number/);
  });
});
