import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Utterance } from '../../../graph/types.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { runAction, type ActionContext } from '../../../pipelines/retrieval/question-tools.js';
import { roundActions } from '../../../pipelines/retrieval/question-policy.js';
import { rewriteQuestion } from '../../../pipelines/retrieval/question-rewrite.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { e5Channel, secondDenseCollection } from '../../../pipelines/retrieval/second-dense.js';
import { snippetsFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_second_dense';

describe('the second dense channel over turns (real USE-lite standing in for the second encoder, SQLite)', () => {
  let f: MemoryFixture;
  let retriever: Retriever;
  const said: Utterance[] = [];
  const ctx = (): ActionContext => ({ retriever, tenant: T, filters: {}, question: 'Which pet was ill?', askerId: null, depth: 5, poolSize: 0, timePool: [] });

  before(async () => {
    ({ f, retriever } = await snippetsFixture(T, said));
  });
  after(async () => {
    await f.close();
  });

  test('the policy runs it only when weighted, wherever the first dense search runs (rounds 1 and 3)', () => {
    const q = rewriteQuestion('What did Ana say about her cat?', []);
    for (const round of [1, 3]) {
      assert.ok(!roundActions(round, q, [], [], {}, {}).some((a) => a.tool === 'vector2'), `off by default (round ${round})`);
      const on = roundActions(round, q, [], [], {}, { secondDenseWeight: 0.5 });
      const firsts = on.filter((a) => a.tool === 'vector');
      const seconds = on.filter((a) => a.tool === 'vector2');
      assert.equal(seconds.length, firsts.length, `one second dense search per first (round ${round})`);
      assert.ok(seconds.every((a) => a.weight === 0.5 && firsts.some((b) => b.query === a.query && b.speakerId === a.speakerId)));
    }
  });

  test('without a channel its searches return nothing; with one, they search its collection under the loop\'s filters', async () => {
    const action = { layer: 'interaction' as const, tool: 'vector2' as const, query: 'my cat has been sick', weight: 1 };
    assert.deepEqual((await runAction(ctx(), action)).ids, []);

    const channel = e5Channel(f.embedder);
    assert.equal(channel.collection, secondDenseCollection(f.embedder.space.model));
    await f.vectors.ensureCollection(channel.collection, channel.space);
    const points = await f.vectors.get(T, collectionFor('interaction'), said.map((u) => u.id));
    assert.equal(points.length, said.length);
    const vectors = await channel.embedPassages(said.map((u) => u.text));
    await f.vectors.upsert(T, channel.collection, points.map((p) => ({ ...p, vector: vectors[said.findIndex((u) => u.id === p.id)]! })));
    retriever.secondDense = channel;
    try {
      const sick = said.find((u) => u.text.includes('has been sick'))!;
      const all = await runAction(ctx(), action);
      assert.equal(all.ids[0], sick.id, 'the turn nearest the question comes first');
      assert.equal(all.weight, 1);
      const bens = await runAction(ctx(), { ...action, speakerId: f.people.Ben as string });
      assert.ok(bens.ids.length > 0 && !bens.ids.includes(sick.id), 'a speaker filter holds');
      assert.ok(bens.ids.every((id) => said.find((u) => u.id === id)?.speakerId === f.people.Ben));
    } finally {
      retriever.secondDense = null;
    }
  });

  test('queries and passages carry the e5 prefixes, and a query vector is reused', async () => {
    const seen: string[] = [];
    const channel = e5Channel({ space: { model: 'probe', dimension: 1 }, embed: async (texts) => { seen.push(...texts); return texts.map(() => new Float32Array([1])); }, close: async () => {} });
    await channel.embedQuery('Which pet?');
    await channel.embedQuery('which pet? ');
    await channel.embedPassages(['My cat.']);
    assert.deepEqual(seen, ['query: Which pet?', 'passage: My cat.']);
  });
});
