import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { finishPendingErasures } from '../../pipelines/interaction/erase-participant.js';
import { erasureDeps, erasureOwner } from '../../server/routes/participants.js';
import { startTestAppWithClient } from '../helpers/app.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';

const T = 'default';

test('a forgetting cut short by a failing store stays pending; the same request, or the start-up finisher, finishes it', async () => {
  const { t, api } = await startTestAppWithClient();
  try {
    const graph = t.app.stores.graph;
    const posted = await api.postUtterances('forget-crash', [
      { speaker: 'Ana', text: 'I keep bees in Oaxwellton.' },
      { speaker: 'Ana', text: 'I restore carillons in Vessingham.' },
    ]);
    await api.postUtterances('forget-crash-2', [{ speaker: 'Ana', text: 'My locker code is 4471 at Tarrowick.' }]);
    const [bees] = posted.utterance_ids as [string, string];
    await drainConsolidation(t.app.stores.queue, 120_000);
    const { memory } = t.app.stores;
    const ana = (await graph.getUtterance(T, bees))!.speakerId;
    const hated = await memory.addPersonaEvidence(T, {
      participantId: ana, kind: 'preference', target: 'wasps in oaxwellton', valence: -0.9, label: null, strength: 0.8,
      utteranceId: bees, sessionId: 'forget-crash', time: new Date().toISOString(),
    });
    const realDelete = graph.deleteUtterances.bind(graph);
    const realPersona = memory.forgetPersonaEvidence.bind(memory);
    const failing = async (): Promise<never> => {
      throw new Error('the store went away');
    };

    // Cut short after the memories went, before the persona and the utterance did: a 500, and the forgetting stays recorded.
    graph.deleteUtterances = failing;
    memory.forgetPersonaEvidence = failing;
    const cut = await t.app.inject({ method: 'DELETE', url: `/v1/utterances/${bees}` });
    graph.deleteUtterances = realDelete;
    memory.forgetPersonaEvidence = realPersona;
    assert.equal(cut.statusCode, 500);
    assert.equal((await graph.pendingErasures(T)).length, 1, 'recorded as pending');
    assert.deepEqual(await t.app.stores.memory.factsFromUtterances(T, [bees]), [], 'its memories went before the cut');
    assert.ok(await graph.getUtterance(T, bees), 'the utterance is still there');
    assert.ok((await memory.listPersona(T, ana)).some((n) => n.id === hated.id), 'the persona node is still there');
    // A participant erasure by that key is no participant's: 404, and the record stays.
    const key = (await graph.pendingErasures(T))[0]!.participantId;
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/participants/${encodeURIComponent(key)}` })).statusCode, 404);
    assert.equal((await graph.pendingErasures(T)).length, 1);

    await api.forgetUtterance(bees);
    assert.equal(await graph.getUtterance(T, bees), null);
    assert.deepEqual(await graph.pendingErasures(T), [], 'the repeated request finished it');
    assert.ok(!(await memory.listPersona(T, ana)).some((n) => n.id === hated.id), 'and forgot the persona node only from it');

    // A session cut short the same way is finished at start (`finishPendingErasures`), by the record alone.
    graph.deleteUtterances = failing;
    const cutSession = await t.app.inject({ method: 'DELETE', url: '/v1/sessions/forget-crash-2' });
    graph.deleteUtterances = realDelete;
    assert.equal(cutSession.statusCode, 500);
    const finished = await finishPendingErasures(erasureDeps(t.app), T, erasureOwner(t.app));
    assert.equal(finished.done.length, 1);
    assert.deepEqual(await graph.pendingErasures(T), []);
    assert.equal(await graph.getSession(T, 'forget-crash-2'), null);
    assert.deepEqual(await graph.queryInteractions(T, { sessionId: 'forget-crash-2' }), []);
    const left = await api.memories({ include_history: true });
    assert.ok(!left.some((m) => /Oaxwellton|4471|Tarrowick/.test(m.text)), left.map((m) => m.text).join(' | '));
    assert.ok(left.some((m) => /Vessingham|carillon/i.test(m.text)), 'the turn not forgotten keeps its memory');
    assert.equal((await api.transcript('forget-crash')).utterances.length, 1);
  } finally {
    await t.close();
  }
});

test('a forgetting cut short after it reopened a cancelled plan: the repeated request tells live sessions it is current again', async () => {
  const { t, api } = await startTestAppWithClient();
  try {
    const graph = t.app.stores.graph;
    await api.postUtterances('forget-crash-plan-1', [{ speaker: 'Oren', text: "I'm flying to Lisbon on Friday." }]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    const cancel = (await api.postUtterances('forget-crash-plan-2', [{ speaker: 'Oren', text: 'I cancelled the Lisbon trip.' }])).utterance_ids[0]!;
    await drainConsolidation(t.app.stores.queue, 120_000);
    const [trip] = (await api.memories({ include_history: true })).filter((m) => /Lisbon/.test(m.text));
    assert.ok(trip && trip.valid_to !== null, 'the cancellation closed the plan');

    // Cut short once the plan was reopened and the turn's consolidation records went, before the utterance did.
    const realDelete = graph.deleteUtterances.bind(graph);
    graph.deleteUtterances = async (): Promise<never> => {
      throw new Error('the store went away');
    };
    const cut = await t.app.inject({ method: 'DELETE', url: `/v1/utterances/${cancel}` });
    graph.deleteUtterances = realDelete;
    assert.equal(cut.statusCode, 500);
    assert.equal(await t.app.stores.memory.processedBy(T, cancel), null, 'its consolidation record went before the cut');

    const live = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=forget-crash-plan-live`);
    try {
      await live.next('session.started');
      await api.forgetUtterance(cancel);
      const told = await live.next('memory.updated', (e: ServerEvent) => JSON.stringify(e.ops).includes('forgotten'), 120_000);
      assert.deepEqual(told.ops, [{ op: 'ADD', memory_id: trip.id, text: trip.text, reason: 'forgotten' }]);
    } finally {
      live.close();
    }
    const current = (await api.memories({})).filter((m) => /Lisbon/.test(m.text));
    assert.deepEqual(current.map((m) => [m.id, m.valid_to]), [[trip.id, null]]);
    assert.deepEqual(await graph.pendingErasures(T), []);
  } finally {
    await t.close();
  }
});
