import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Participant } from '../../../graph/types.js';
import { answerQuestion } from '../../../pipelines/retrieval/agentic-query.js';
import { roundActions, sessionBestActions } from '../../../pipelines/retrieval/question-policy.js';
import { rewriteQuestion } from '../../../pipelines/retrieval/question-rewrite.js';
import { runAction, type ActionContext } from '../../../pipelines/retrieval/question-tools.js';
import type { Retriever } from '../../../pipelines/retrieval/retriever.js';
import { anaBenFixture, FAMILY_PAINTING, type AnaBenSessions, type MemoryFixture } from '../../helpers/memory-fixture.js';

const person = (id: string, name: string): Participant => ({
  id, name, externalId: null, aliases: [], attributes: {}, voiceprintCount: 0, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
});
const PEOPLE = [person('p_mel', 'Melanie'), person('p_car', 'Caroline')];

describe('the per-session best: which questions, which searches', () => {
  test('a list question naming a subject gets one dense search over that person\'s memories, one turn a session', () => {
    const q = rewriteQuestion('What activities does Melanie partake in?', PEOPLE);
    const [a, ...rest] = sessionBestActions(q, q.participantIds, { sessionBestWeight: 0.5, sessionBestQuestions: 'list' });
    assert.deepEqual(rest, []);
    assert.deepEqual(a, { layer: 'fact', tool: 'vector', query: q.question, speakerId: 'p_mel', perSession: true, depth: 100, weight: 0.5 });
    const turns = sessionBestActions(q, q.participantIds, { sessionBestWeight: 1, sessionBestLayer: 'interaction', sessionBestDepth: 40 });
    assert.deepEqual(turns.map((x) => [x.layer, x.depth, x.weight]), [['interaction', 40, 1]]);
    // Round 1 carries it beside the other actions; later rounds do not repeat it.
    const round1 = roundActions(1, q, [], [], {}, { sessionBestWeight: 0.5 });
    assert.equal(round1.filter((x) => x.perSession).length, 1);
    assert.equal(roundActions(1, q, [], [], {}, { sessionBestWeight: 0 }).filter((x) => x.perSession).length, 0);
    assert.equal(roundActions(3, q, [], round1, {}, { sessionBestWeight: 0.5 }).filter((x) => x.perSession).length, 0);
  });

  test('on by default for every question naming a subject (weight 2); with `list` only for lists; never for questions naming nobody', () => {
    const list = rewriteQuestion('What activities does Melanie partake in?', PEOPLE);
    assert.deepEqual(sessionBestActions(list, list.participantIds, {}).map((x) => [x.layer, x.weight, x.depth]), [['fact', 2, 100]]);
    assert.deepEqual(sessionBestActions(list, list.participantIds, { sessionBestWeight: 0 }), []);
    const single = rewriteQuestion('What is Melanie\'s favourite book?', PEOPLE);
    assert.deepEqual(sessionBestActions(single, single.participantIds, { sessionBestWeight: 1, sessionBestQuestions: 'list' }), []);
    assert.equal(sessionBestActions(single, single.participantIds, {}).length, 1);
    const nobody = rewriteQuestion('What activities do people partake in?', PEOPLE);
    assert.deepEqual(sessionBestActions(nobody, nobody.participantIds, { sessionBestWeight: 1, sessionBestQuestions: 'subject' }), []);
  });

  test('bad settings are refused', () => {
    const q = rewriteQuestion('What activities does Melanie partake in?', PEOPLE);
    assert.throws(() => sessionBestActions(q, q.participantIds, { sessionBestWeight: -1 }), /sessionBestWeight/);
    assert.throws(() => sessionBestActions(q, q.participantIds, { sessionBestWeight: Number.NaN }), /sessionBestWeight/);
    assert.throws(() => sessionBestActions(q, q.participantIds, { sessionBestLayer: 'persona' as never }), /sessionBestLayer/);
    assert.throws(() => sessionBestActions(q, q.participantIds, { sessionBestQuestions: 'all' as never }), /sessionBestQuestions/);
    assert.throws(() => sessionBestActions(q, q.participantIds, { sessionBestDepth: 0 }), /sessionBestDepth/);
  });
});

/** Ana tells Ben of family painting at length in one session; of camping and of a pottery class once each, in two others. */
const CONVERSATION: AnaBenSessions = [
  { session: 's1', day: '05-01', lines: [...FAMILY_PAINTING,
    ['Ana', 'Our family activity this week was painting the garden fence.'], ['Ben', 'Sounds like a lot of painting.']] },
  { session: 's2', day: '06-01', lines: [['Ben', 'How was your weekend?'], ['Ana', 'We went camping in the mountains with the kids, the family loved it.'],
    ['Ben', 'Camping is great.']] },
  { session: 's3', day: '07-01', lines: [['Ben', 'Anything new?'], ['Ana', 'I took the kids to a pottery class, we made bowls as a family.'],
    ['Ben', 'Nice bowls!']] },
];

describe('agentic question answering: a list told across sessions (sessionBestWeight)', () => {
  const T = 't_session_best';
  let f: MemoryFixture;
  let retriever: Retriever;
  before(async () => {
    ({ f, retriever } = await anaBenFixture(T, CONVERSATION));
  });
  after(async () => {
    await f.close();
  });

  const QUESTION = 'What activities has Ana done with her family?';
  const sessionsOf = async (ids: readonly string[]): Promise<string[]> => {
    const byId = new Map((await f.graph.getUtterances(T, [...ids])).map((u) => [u.id, u.sessionId]));
    return ids.map((id) => byId.get(id) ?? '?');
  };

  test('the per-session search keeps each session\'s best turn only, best first, of the subject only', async () => {
    const ctx: ActionContext = { retriever, tenant: T, filters: {}, question: QUESTION, askerId: null, depth: 30, poolSize: 0, timePool: [] };
    const ana = f.people.Ana as string;
    for (const layer of ['fact', 'interaction'] as const) {
      const plain = await runAction(ctx, { layer, tool: 'vector', query: QUESTION, speakerId: ana, weight: 1 });
      const best = await runAction(ctx, { layer, tool: 'vector', query: QUESTION, speakerId: ana, perSession: true, weight: 1 });
      const plainSessions = await sessionsOf(plain.ids);
      assert.ok(plainSessions.filter((s) => s === 's1').length > 1, `${layer}: session 1 holds several of Ana's memories`);
      const sessions = await sessionsOf(best.ids);
      assert.deepEqual([...sessions].sort(), ['s1', 's2', 's3'], layer);
      // Each kept turn is its session's first in the plain ranking, in the plain ranking's order.
      assert.deepEqual(best.ids, plain.ids.filter((id, i) => plainSessions.indexOf(plainSessions[i] as string) === i), layer);
      for (const u of await f.graph.getUtterances(T, best.ids)) assert.equal(u.speakerId, ana);
    }
  });

  test('with the per-session best, the answer tells of more of the sessions the list was told in', async () => {
    const sessionsIn = async (options: object): Promise<Set<string>> => {
      const items = (await answerQuestion(retriever, T, { question: QUESTION, k: 5 }, options)).evidence;
      return new Set(await sessionsOf(items.flatMap((i) => i.refer_ids)));
    };
    // Term dependence off in both arms: its list ranks session 1's many "family activity" turns up and, on this small
    // conversation, leaves the per-session search nothing to add (s1 and s3 either way); this test measures that search alone.
    const off = await sessionsIn({ sessionBestWeight: 0, termDependence: 'off' });
    const on = await sessionsIn({ sessionBestWeight: 3, termDependence: 'off' });
    assert.ok(on.size > off.size, `off ${[...off].join(',')}, on ${[...on].join(',')}`);
  });
});
