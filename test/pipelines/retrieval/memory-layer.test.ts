import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Fact, PersonaNode } from '../../../graph/memory-store.js';
import type { Utterance } from '../../../graph/types.js';
import { answerItems, type MemoryLayerInput } from '../../../pipelines/retrieval/memory-layer.js';
import { NameResolver, personaItem, personaText } from '../../../pipelines/retrieval/memory-items.js';

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

/** The layer's input over `turns` (ranked in order) and `facts` (matched in order); `stored` are turns outside the ranking. */
function input(facts: Fact[] = FACTS, turns: Utterance[] = TURNS, stored: Utterance[] = [], terms = ['coast', 'cliffs', 'harbour']): MemoryLayerInput {
  const all = [...turns, ...stored];
  const graph = {
    calls: { one: 0, many: 0 },
    getParticipant: async () => {
      graph.calls.one++;
      return null;
    },
    getParticipants: async (_t: string, ids: string[]) => {
      graph.calls.many++;
      return ids.map((id) => ({ id, name: `name of ${id}` }));
    },
    getUtterances: async (_t: string, ids: string[]) => all.filter((u) => ids.includes(u.id)),
  };
  const stores = {
    graph, vectors: { search: async () => [] },
    lexical: { search: async () => facts.map((f, i) => ({ id: f.id, score: 3 - i })) },
    memory: { listFacts: async () => facts, getFact: async () => null },
  } as unknown as MemoryLayerInput['stores'];
  return {
    stores, tenant: T, names: new NameResolver(graph as never, T), question: 'Where did Ana go on the trip?', keywords: terms.join(' '),
    vector: null, filters: {}, askerId: null, factor: () => 1, intent: null, k: 4, rrfK: 5, depth: 10, terms,
    turns: turns.map((u, i) => ({ u, score: 1 / (i + 1) })),
  } as MemoryLayerInput;
}

describe('memory layer: each source turn served once', () => {
  test('one turn\'s several facts do not fill the answer (sourceOnce, the default)', async () => {
    const items = await answerItems(input(), { validity: false, personaItemWeight: 0 });
    assert.equal(items.length, 4);
    assert.equal(items.filter((i) => i.refer_ids.includes('u1')).length, 1, items.map((i) => i.text).join(' | '));
    assert.deepEqual(items.slice(1).map((i) => i.id), ['u2', 'u3', 'u4'], 'the other turns take the places');
  });

  test('sourceOnce false, facts as items: several facts of one turn may be served (as before)', async () => {
    const items = await answerItems(input(), { validity: false, personaItemWeight: 0, sourceOnce: false, factsAsPointers: false });
    assert.ok(items.filter((i) => i.refer_ids.includes('u1')).length >= 2, items.map((i) => i.text).join(' | '));
    assert.ok(!items.some((i) => i.id === 'u1'), 'the turn a fact restates is still not served beside it');
  });
});

describe('memory layer: names of the served items', () => {
  test('every speaker and addressee is read in one store call, not one per person', async () => {
    const i = input();
    const graph = i.stores.graph as unknown as { calls: { one: number; many: number } };
    const items = await answerItems(i, { validity: false, personaItemWeight: 0 });
    assert.ok(items.length >= 3);
    assert.deepEqual(graph.calls, { one: 0, many: 1 });
    assert.ok(items.every((it) => it.speaker?.name === `name of ${it.speaker?.id}`), JSON.stringify(items.map((it) => it.speaker)));
  });
});

describe('memory layer: facts as pointers to their turns (the default)', () => {
  const opts = { validity: false, personaItemWeight: 0 };

  test('a turn with a fact the question matches is served as that fact, carrying the turn\'s words', async () => {
    const items = await answerItems(input(), opts);
    assert.equal(items[0]?.layer, 'fact');
    assert.deepEqual(items[0]?.refer_ids, ['u1']);
    assert.equal(items[0]?.source_text, TURNS[0]?.text);
    assert.ok(items.slice(1).every((i) => i.layer === 'interaction' && i.source_text === null));
  });

  test('a fact matched on names alone stands for its turn in the turn\'s place, carrying the turn\'s words', async () => {
    // "Ana is Ben's friend" holds none of the question's content words (it matched on the names).
    const items = await answerItems(input([fact('fn', 'u2', 'Ana is Ben\'s friend')]), opts);
    assert.deepEqual(items.map((i) => i.refer_ids[0]), ['u1', 'u2', 'u3', 'u4'], items.map((i) => `${i.layer}: ${i.text}`).join(' | '));
    assert.equal(items[1]?.id, 'fn');
    assert.equal(items[1]?.source_text, TURNS[1]?.text);
  });

  test('a matched fact lifts its source turn from outside the ranking, served as the fact with the turn\'s words', async () => {
    const far = turn('u9', 9, 'Last summer we also sailed along the coast to a tiny island.');
    const facts = [{ ...fact('f9', 'u9', 'Ana sailed along the coast'), speakerId: 'p_ana' }];
    const lifted = await answerItems({ ...input(facts, TURNS, [far]), factor: () => 3 }, { ...opts, factLiftWeight: 0.5 });
    const item = lifted.find((i) => i.id === 'f9');
    assert.ok(item, lifted.map((i) => i.id).join(', '));
    assert.equal(item.source_text, far.text);
    assert.equal(lifted.length, 4);
    assert.equal(new Set(lifted.flatMap((i) => i.refer_ids)).size, 4, 'four different turns');
  });

  test('by default (factLiftWeight 0) a fact never moves a turn, it only stands for a ranked one', async () => {
    const far = turn('u9', 9, 'Last summer we also sailed along the coast to a tiny island.');
    const facts = [fact('f9', 'u9', 'Ana sailed along the coast'), fact('f3', 'u3', 'The harbour was busy with boats')];
    const items = await answerItems({ ...input(facts, TURNS, [far]), factor: () => 3 }, opts);
    assert.deepEqual(items.map((i) => i.refer_ids[0]), ['u1', 'u2', 'u3', 'u4']);
    assert.equal(items[2]?.id, 'f3', 'the ranked turn is served as its fact');
  });
});

test('a persona item of an unnamed person never shows their id', async () => {
  const node: PersonaNode = {
    id: 'pn_1', participantId: 'p_3f9a', kind: 'preference', target: 'jazz', valence: 0.8, label: null, strength: 0.7,
    evidenceCount: 3, evidenceIds: ['u_1'], sessionIds: ['s_1'], firstSeen: '2026-01-01T00:00:00Z', lastSeen: '2026-01-02T00:00:00Z', stable: true,
  };
  assert.equal(personaText(node, null), 'An unnamed speaker likes jazz');
  assert.equal(personaText(node, 'Ana'), 'Ana likes jazz');
  const names = new NameResolver({ getParticipant: async () => null, getParticipants: async () => [] } as never, 't');
  const item = await personaItem(names, node, 1);
  assert.doesNotMatch(item.text, /p_3f9a/);
  assert.equal(item.text, 'An unnamed speaker likes jazz');
});

describe('memory layer: context_scope (explicit questions)', () => {
  // Ana told Ben about Cara's trip: the turn is Ana's and Ben's, the fact drawn from it is about Cara.
  const facts = [{ ...fact('f1', 'u1', 'Cara drove to the coast'), subjectId: 'p_cara' } as Fact, fact('f2', 'u1', 'Ana hiked the cliffs')];
  const scope = { people: new Set(['p_ana', 'p_ben']), agents: new Set<string>(), sessionId: 's1' };

  test('a fact about someone outside the scope is left out before the top k, even when its turn is within', async () => {
    const open = await answerItems(input(facts), { validity: false, personaItemWeight: 0 });
    assert.ok(open.some((i) => i.id === 'f1'), `unscoped, the fact about Cara is served (${open.map((i) => i.id).join(', ')})`);
    const scoped = await answerItems({ ...input(facts), scope }, { validity: false, personaItemWeight: 0 });
    assert.ok(!scoped.some((i) => i.id === 'f1'), scoped.map((i) => i.id).join(', '));
    assert.equal(scoped.length, 4, `the places are still filled (${scoped.map((i) => i.id).join(', ')})`);
  });
});
