import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TextEmbedder } from '../../../pipelines/embeddings/text-embedder.js';
import { collectionFor } from '../../../pipelines/memory/collections.js';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { denseFeedbackVector, rocchio } from '../../../pipelines/retrieval/dense-feedback.js';
import { roundActions } from '../../../pipelines/retrieval/question-policy.js';
import { runAction, type ActionContext } from '../../../pipelines/retrieval/question-tools.js';
import { rewriteQuestion } from '../../../pipelines/retrieval/question-rewrite.js';
import { Retriever } from '../../../pipelines/retrieval/retriever.js';
import type { Utterance } from '../../../graph/types.js';
import { embeddedMemory, snippetsFixture, type EmbeddedMemory, type MemoryFixture } from '../../helpers/memory-fixture.js';

const T = 't_dense_feedback';
const unit = (...xs: number[]): Float32Array => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};
const near = (a: Float32Array, b: Float32Array): boolean => a.length === b.length && a.every((x, i) => Math.abs(x - (b[i] as number)) < 1e-6);

describe('dense pseudo-relevance feedback (Rocchio on stored turn vectors)', () => {
  test('rocchio: a unit vector moved towards the mean of the documents; beta 0 or none: the question\'s direction', () => {
    const q = unit(1, 0, 0);
    assert.ok(near(rocchio(q, [], 0.5), q));
    assert.ok(near(rocchio(Float32Array.from([2, 0, 0]), [unit(0, 1, 0)], 0), q));
    assert.ok(near(rocchio(q, [unit(0, 1, 0), unit(0, 0, 1)], 2), unit(1, 1, 1)));
    assert.ok(near(rocchio(q, [unit(0, 1), unit(0, 1, 0)], 1), unit(1, 1, 0)), 'a vector of another dimension is left out');
  });

  test('the policy adds one dense search with the feedback vector in round 2, and nothing without one', () => {
    const q = rewriteQuestion('What did Ana say about her cat?', []);
    const feedback = unit(1, 1, 0);
    const off = roundActions(2, q, ['miko'], [], {}, {});
    assert.ok(!off.some((a) => a.tool === 'vector'), 'no vector: round 2 as before');
    const on = roundActions(2, q, ['miko'], [], {}, { denseWeight: 0.8 }, false, [], feedback);
    assert.deepEqual(on.filter((a) => a.tool !== 'vector'), off, 'the keyword actions are unchanged');
    const dense = on.filter((a) => a.tool === 'vector');
    assert.equal(dense.length, 1);
    assert.equal(dense[0]?.vector, feedback);
    assert.equal(dense[0]?.weight, 0.8, 'weighted as a dense search unless denseFeedbackWeight says otherwise');
    assert.equal(roundActions(2, q, [], [], {}, { denseFeedbackWeight: 0.3 }, false, [], feedback)[0]?.weight, 0.3, 'runs without feedback words too');
    assert.equal(roundActions(2, q, [], [...dense], {}, {}, false, [], feedback).length, 0, 'never repeated');
  });

  describe('on a store of hand-made vectors (real SQLite; a test double for the embedder: every text is the question vector)', () => {
    let m: EmbeddedMemory;
    let retriever: Retriever;
    const question = unit(1, 0, 0);
    // Round 1 (depth 2) finds A and C; B lies beyond C from the question but next to A, the best turn.
    const turns = { A: unit(0.9, 0.436, 0), C: unit(0.8, -0.6, 0), D: unit(0.7, 0, 0.714), B: unit(0.5, 0.866, 0) };
    const probe: TextEmbedder = { space: { model: 'probe', dimension: 3 }, embed: async (texts) => texts.map(() => question), close: async () => {} };
    const ctx = (): ActionContext => ({ retriever, tenant: T, filters: {}, question: 'q', askerId: null, depth: 2, poolSize: 0, timePool: [] });

    before(async () => {
      m = embeddedMemory();
      await m.vectors.ensureCollection(collectionFor('interaction'), probe.space);
      await m.vectors.upsert(T, collectionFor('interaction'), Object.entries(turns).map(([id, vector]) => ({ id, vector, payload: { layer: 'interaction' } })));
      retriever = new Retriever(m, m.entities, probe);
    });
    after(async () => {
      await m.close();
    });

    test('the feedback search finds a turn the first dense search misses', async () => {
      const first = await runAction(ctx(), { layer: 'interaction', tool: 'vector', query: 'q', weight: 1 });
      assert.deepEqual(first.ids, ['A', 'C']);
      const vector = await denseFeedbackVector(retriever, T, 'q', first.ids, { denseFeedback: 2, denseFeedbackDocs: 1 });
      assert.ok(vector && near(vector, rocchio(question, [turns.A], 2)));
      const second = await runAction(ctx(), { layer: 'interaction', tool: 'vector', query: 'q', vector, weight: 1 });
      assert.deepEqual(second.ids, ['A', 'B']);
    });

    test('off (the default) or nothing to learn from: no feedback vector; turns without a vector are skipped; bad settings refused', async () => {
      assert.equal(await denseFeedbackVector(retriever, T, 'q', ['A'], {}), null);
      assert.equal(await denseFeedbackVector(retriever, T, 'q', [], { denseFeedback: 1 }), null);
      assert.equal(await denseFeedbackVector(retriever, T, 'q', ['gone'], { denseFeedback: 1 }), null);
      const skipped = await denseFeedbackVector(retriever, T, 'q', ['gone', 'B'], { denseFeedback: 1, denseFeedbackDocs: 1 });
      assert.ok(skipped && near(skipped, rocchio(question, [turns.B], 1)));
      await assert.rejects(denseFeedbackVector(retriever, T, 'q', ['A'], { denseFeedback: -1 }), RangeError);
      await assert.rejects(denseFeedbackVector(retriever, T, 'q', ['A'], { denseFeedback: 1, denseFeedbackDocs: 0 }), RangeError);
    });
  });

  describe('in the loop (real USE-lite, SQLite, consolidation)', () => {
    let f: MemoryFixture;
    let retriever: Retriever;
    const said: Utterance[] = [];
    before(async () => {
      ({ f, retriever } = await snippetsFixture(T, said));
    });
    after(async () => {
      await f.close();
    });

    test('off: the same answer as with no option; on: the loop still answers', async () => {
      const ask = async (o: object): Promise<string[]> =>
        (await answerQuestion(retriever, T, { question: 'What did Ana say about her cat?', k: 5 }, o)).evidence.map((i) => i.id);
      const plain = await ask({});
      assert.deepEqual(await ask({ denseFeedback: 0 }), plain);
      const on = await answerQuestion(retriever, T, { question: 'What did Ana say about her cat?', k: 5 }, { denseFeedback: 0.5 });
      assert.ok(on.evidence.length > 0);
    });
  });
});
