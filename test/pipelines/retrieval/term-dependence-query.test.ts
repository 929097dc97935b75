import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { runAction, type ActionContext } from '../../../pipelines/retrieval/question-tools.js';
import type { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { anaBenFixture, type AnaBenSessions, type MemoryFixture } from '../../helpers/memory-fixture.js';

/** Ana speaks of sunrises and of painting often, apart; once of painting a sunrise. */
const CONVERSATION: AnaBenSessions = [
  { session: 's1', day: '05-01', lines: [
    ['Ana', 'The sunrise this morning was stunning, I wish I could paint like that, a sunrise like that makes me want to paint again.'],
    ['Ben', 'You should!'],
    ['Ana', 'Sunrise walks are my thing lately; I used to paint a lot but the sunrise is enough now.'],
    ['Ben', 'Nice.'],
  ] },
  { session: 's2', day: '06-01', lines: [
    ['Ben', 'What have you been up to?'],
    ['Ana', 'Last week I painted a sunrise over the lake.'],
    ['Ben', 'Cool.'],
  ] },
];

describe('term dependence in the agentic loop (termDependence)', () => {
  const T = 't_term_dependence';
  // The fixture and its retriever, opened once for the suite.
  let fx: { f: MemoryFixture; retriever: Retriever };
  before(async () => { fx = await anaBenFixture(T, CONVERSATION); });
  after(() => fx.f.close());

  const QUESTION = 'When did Ana paint a sunrise?';
  const idOf = async (fragment: string): Promise<string> => {
    const all = await fx.f.graph.queryInteractions(T, { limit: 100 });
    const u = all.find((x) => x.text.includes(fragment));
    assert.ok(u, fragment);
    return u.id;
  };

  test('BM25 over turns keeps its scores with its list; facts mapped to turns carry their facts\' scores', async () => {
    const ctx: ActionContext = { retriever: fx.retriever, tenant: T, filters: {}, question: QUESTION, askerId: null, depth: 30, poolSize: 0, timePool: [] };
    const turns = await runAction(ctx, { layer: 'interaction', tool: 'bm25', query: 'paint sunrise', weight: 1 });
    assert.ok(turns.ids.length > 1);
    assert.equal(turns.scores?.length, turns.ids.length);
    assert.ok(turns.scores.every((s, i) => i === 0 || s <= (turns.scores?.[i - 1] ?? 0)), 'best first');
    const facts = await runAction(ctx, { layer: 'fact', tool: 'bm25', query: 'paint sunrise', weight: 1 });
    assert.equal(facts.scores?.length, facts.ids.length);
  });

  test('with the dependence list, the turn that paints the sunrise ranks first; re-scored, it ranks no lower', async () => {
    const near = await idOf('painted a sunrise');
    const rankOf = async (options: object): Promise<number> =>
      (await answerQuestion(fx.retriever, T, { question: QUESTION, k: 5 }, options)).evidence.findIndex((m) => m.refer_ids.includes(near) || m.id === near);
    const off = await rankOf({ termDependence: 'off' });
    assert.ok(off > 0, `without it, other items rank first (rank ${off})`);
    assert.equal(await rankOf({ termDependence: 'list', termDependenceWeight: 5 }), 0);
    const rescored = await rankOf({ termDependence: 'rescore' });
    assert.ok(rescored >= 0 && rescored <= off, `re-scored rank ${rescored}, off ${off}`);
  });

  test('on by default: the loop ranks with the list unless it is turned off', async () => {
    const evidence = async (options: object): Promise<string[]> =>
      (await answerQuestion(fx.retriever, T, { question: QUESTION, k: 5 }, options)).evidence.map((m) => m.id);
    const heavy = await evidence({ termDependenceWeight: 5 });
    assert.deepEqual(heavy, await evidence({ termDependence: 'list', termDependenceWeight: 5 }));
    assert.notDeepEqual(heavy, await evidence({ termDependence: 'off', termDependenceWeight: 5 }));
    assert.deepEqual(await evidence({}), await evidence({ termDependence: 'list' }));
  });

  test('bad settings are refused', async () => {
    await assert.rejects(answerQuestion(fx.retriever, T, { question: QUESTION }, { termDependence: 'on' as never }), /termDependence/);
    await assert.rejects(answerQuestion(fx.retriever, T, { question: QUESTION }, { termDependenceWeight: -1 }), /termDependenceWeight/);
    await assert.rejects(answerQuestion(fx.retriever, T, { question: QUESTION }, { termDependenceAsked: 'all' as never }), /termDependenceAsked/);
    await assert.rejects(answerQuestion(fx.retriever, T, { question: QUESTION }, { termDependencePairs: 'timed' as never }), /termDependencePairs/);
  });
});
