import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact } from '../../../graph/memory-store.js';
import type { Utterance } from '../../../graph/types.js';
import { answerItems, type MemoryLayerInput } from '../../../pipelines/retrieval/memory-layer.js';
import { NameResolver } from '../../../pipelines/retrieval/memory-items.js';

const T = 't_layer';
const turn = (id: string, seq: number, text: string): Utterance => ({
  id, sessionId: 's1', seq, speakerId: 'p_ana', addresseeIds: ['p_ben'], text, time: `2026-11-01T10:0${seq}:00Z`,
} as Utterance);
const fact = (id: string, turnId: string, content: string): Fact => ({
  id, content, speakerId: 'p_ana', addresseeIds: ['p_ben'], subjectId: 'p_ana', kind: 'statement', layer: 'fact', slot: null, value: null,
  time: '2026-11-01T10:00:00Z', eventTime: null, referIds: [turnId], validFrom: '2026-11-01T10:00:00Z', validTo: null, validUntil: null,
  supersedes: null, supersededBy: null, confidence: 0.9, sessionId: 's1', source: 'test', createdAt: '2026-11-01T10:00:00Z',
} as Fact);

// One turn that produced three facts, ranked first, and three other turns.
const TURNS = [turn('u1', 1, 'We drove to the coast, hiked the cliffs and ate at the harbour.'), turn('u2', 2, 'The cliffs were windy.'),
  turn('u3', 3, 'The harbour was busy.'), turn('u4', 4, 'We slept in a tent.')];
const FACTS = [fact('f1', 'u1', 'Ana drove to the coast'), fact('f2', 'u1', 'Ana hiked the cliffs'), fact('f3', 'u1', 'Ana ate at the harbour')];

function input(): MemoryLayerInput {
  const graph = { getParticipant: async () => null };
  const stores = {
    graph, vectors: { search: async () => [] },
    lexical: { search: async () => FACTS.map((f, i) => ({ id: f.id, score: 3 - i })) },
    memory: { listFacts: async () => FACTS, getFact: async () => null },
  } as unknown as MemoryLayerInput['stores'];
  return {
    stores, tenant: T, names: new NameResolver(graph as never, T), question: 'Where did Ana go on the trip?', keywords: 'coast cliffs harbour',
    vector: null, filters: {}, askerId: null, factor: () => 1, intent: null, k: 4, rrfK: 5, depth: 10, terms: ['coast', 'cliffs', 'harbour'],
    turns: TURNS.map((u, i) => ({ u, score: 1 / (i + 1) })),
  } as MemoryLayerInput;
}

describe('memory layer: each source turn served once', () => {
  test('one turn\'s several facts do not fill the answer (sourceOnce, the default)', async () => {
    const items = await answerItems(input(), { validity: false, personaItemWeight: 0 });
    assert.equal(items.length, 4);
    assert.equal(items.filter((i) => i.refer_ids.includes('u1')).length, 1, items.map((i) => i.text).join(' | '));
    assert.deepEqual(items.slice(1).map((i) => i.id), ['u2', 'u3', 'u4'], 'the other turns take the places');
  });

  test('sourceOnce false: several facts of one turn may be served (as before)', async () => {
    const items = await answerItems(input(), { validity: false, personaItemWeight: 0, sourceOnce: false });
    assert.ok(items.filter((i) => i.refer_ids.includes('u1')).length >= 2, items.map((i) => i.text).join(' | '));
    assert.ok(!items.some((i) => i.id === 'u1'), 'the turn a fact restates is still not served beside it');
  });
});
