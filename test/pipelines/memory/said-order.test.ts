/**
 * Decisions in the order things were said (life5): an utterance older than the fact it would replace or end (a past
 * conversation imported after a newer one) becomes history, closed where the newer fact began, and never ends it; on the
 * rule path (UPDATE and DELETE) and on the LLM decider's path (decide-v5, answered by the TEST DOUBLE), in code.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatRequestBody } from '../../doubles/openai-double.js';
import type { Fact } from '../../../graph/memory-store.js';
import { inSaidOrder } from '../../../pipelines/memory/said-order.js';
import { currentTurn, llmConsolidation, withLlmDouble } from '../../helpers/llm-consolidation.js';
import { turnSessionsForSuite } from '../../helpers/turn-sessions.js';

const DEC_1 = '2026-12-01T10:00:00.000Z';
const OCT_1 = '2026-10-01T10:00:00.000Z';

function fact(id: string, time: string): Fact {
  return { id, content: id, speakerId: 'a', addresseeIds: [], subjectId: 'a', kind: 'profile', layer: 'profile', slot: 'lives_in', value: id,
    time, eventTime: null, referIds: [], validFrom: time, validTo: null, validUntil: null, planObject: null, supersedes: null, supersededBy: null,
    confidence: 0.9, sessionId: 's', source: 'test', createdAt: time };
}

describe('decisions in the order things were said', () => {
  test('an UPDATE or DELETE of a fact said later becomes history closed by it; of a fact said before, unchanged', () => {
    const newer = fact('f_new', DEC_1);
    const older = fact('f_old', '2026-09-01T10:00:00.000Z');
    assert.deepEqual(inSaidOrder({ op: 'UPDATE', targetId: 'f_new' }, [newer], OCT_1), { decision: { op: 'ADD' }, closedBy: newer });
    assert.deepEqual(inSaidOrder({ op: 'UPDATE', targetId: 'f_old', alsoReplaces: ['f_new'] }, [newer, older], OCT_1),
      { decision: { op: 'UPDATE', targetId: 'f_old', alsoReplaces: [] }, closedBy: null });
    assert.deepEqual(inSaidOrder({ op: 'DELETE', targetIds: ['f_new', 'f_old'] }, [newer, older], OCT_1),
      { decision: { op: 'DELETE', targetIds: ['f_old'] }, closedBy: null });
    assert.deepEqual(inSaidOrder({ op: 'DELETE', targetIds: ['f_new'] }, [newer], OCT_1), { decision: { op: 'ADD' }, closedBy: newer });
    assert.deepEqual(inSaidOrder({ op: 'UPDATE', targetId: 'f_new' }, [newer], '2026-12-02T10:00:00.000Z'),
      { decision: { op: 'UPDATE', targetId: 'f_new' }, closedBy: null });
  });

  describe('through consolidation (rules)', () => {
    const fx = turnSessionsForSuite('said-order', ['Cy', 'Di'], DEC_1, 60_000);

    test('an older home said after a newer one is history, closed where the newer began; the newer stays', async () => {
      await fx.say(fx.people.Cy!, fx.people.Di!, 'I live in Bristol.', DEC_1);
      const ops = await fx.say(fx.people.Cy!, fx.people.Di!, 'I live in Cardiff.', OCT_1);
      assert.deepEqual(ops, [], 'nothing current changed');
      const homes = await fx.memory.listFacts('said-order', { subjectId: fx.people.Cy!, slot: 'lives_in', includeHistory: true });
      const bristol = homes.find((f) => f.value === 'Bristol')!;
      const cardiff = homes.find((f) => f.value === 'Cardiff')!;
      assert.equal(bristol.validTo, null);
      assert.equal(cardiff.validFrom, OCT_1);
      assert.equal(cardiff.validTo, DEC_1);
      assert.equal(cardiff.supersededBy, bristol.id);
    });

    test('an older job left said after the newer job does not end it', async () => {
      await fx.say(fx.people.Di!, fx.people.Cy!, 'I work at Initech.', DEC_1);
      await fx.say(fx.people.Di!, fx.people.Cy!, 'I quit my job at Initech.', OCT_1);
      const jobs = await fx.memory.listFacts('said-order', { subjectId: fx.people.Di!, slot: 'works_at' });
      assert.deepEqual(jobs.map((f) => f.value), ['Initech']);
    });
  });

  describe('through consolidation (LLM decider, test double)', () => {
    /** A model that replaces the stored home whatever its time, as a decide-v5 reply may. */
    const fixture = withLlmDouble((body: ChatRequestBody) => {
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      if (body.response_format?.json_schema?.name === 'memory_decision') {
        const home = /^(\S+): .* \[slot lives_in\]$/m.exec(user)?.[1];
        return JSON.stringify(home ? { op: 'UPDATE', ids: [home], also_replaces: [] } : { op: 'ADD', ids: [], also_replaces: [] });
      }
      const { text, speaker } = currentTurn(body);
      const place = /I live in (\w+)/.exec(text)?.[1];
      return JSON.stringify({ facts: place ? [{ content: `Ana lives in ${place}`, kind: 'profile', subject: speaker, slot: 'lives_in', value: place,
        retraction: false, confidence: 0.9, valid_until: null, valid_from: null, settles: null, plan_object: null }] : [], profile_updates: [] });
    });

    test('an UPDATE the model gives for an older turn leaves the newer home current', async () => {
      const { graph, memory, handler } = llmConsolidation(fixture, { decider: true, onOps: () => {} });
      const ana = await graph.createParticipant('t', { name: 'Ana' });
      for (const [i, [text, time]] of [['I live in Porto', DEC_1], ['I live in Braga', OCT_1]].entries()) {
        await graph.openSession('t', `s${i}`, time!);
        const [u] = await graph.addUtterances('t', [{ sessionId: `s${i}`, speakerId: ana.id, addresseeIds: [], text: text!, startMs: null, endMs: null,
          time: time!, confidence: null, audioRef: null }]);
        await handler({ id: `j${i}`, name: 'memory.consolidate', attempt: 1, data: { tenant: 't', sessionId: `s${i}`, utteranceId: u!.id } }, new AbortController().signal);
      }
      const current = await memory.listFacts('t', { slot: 'lives_in' });
      assert.deepEqual(current.map((f) => f.value), ['Porto']);
      const braga = (await memory.listFacts('t', { slot: 'lives_in', includeHistory: true })).find((f) => f.value === 'Braga');
      assert.equal(braga?.validTo, DEC_1);
    });
  });
});
