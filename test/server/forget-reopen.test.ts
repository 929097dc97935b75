import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';
import { clientFor, startTestApp, type TestApp } from '../helpers/app.js';
import { deployments } from '../helpers/deployments.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';

type Op = { op: string; memory_id: string; text: string; reason?: string };

for (const deployment of deployments('forget-reopen')) describe(`forgetting reopens what only the forgotten closed, ${deployment.name}`, { skip: deployment.skip }, () => {
  let t: TestApp;
  let api: ParleyClient;
  const { headers } = deployment;
  before(async () => {
    t = await startTestApp(deployment.env);
    api = clientFor(t, headers);
  });
  after(async () => {
    await t?.close();
    await deployment.cleanup();
  });

  /** Post one turn in its own session and wait for its consolidation; returns its utterance id. */
  async function say(sessionId: string, speaker: string, text: string): Promise<string> {
    const posted = await api.postUtterances(sessionId, [{ speaker, text }]);
    await drainConsolidation(t.app.stores.queue, 120_000);
    return posted.utterance_ids[0]!;
  }

  const memoriesOf = async (re: RegExp) => (await api.memories({ include_history: true })).filter((m) => re.test(m.text));

  test('"I moved to Berkeley" forgotten: "I live in Richmond" is current again, and a live session is told', async () => {
    await say('reopen-home-1', 'Rhea', 'I live in Richmond.');
    const moved = await say('reopen-home-2', 'Rhea', 'I moved to Berkeley.');
    const [richmond] = await memoriesOf(/Richmond/);
    const [berkeley] = await memoriesOf(/Berkeley/);
    assert.ok(richmond && berkeley, 'consolidation made both memories');
    assert.notEqual(richmond.valid_to, null, 'the move closed Richmond');
    assert.equal(berkeley.valid_to, null);

    const live = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=reopen-home-live`, headers);
    try {
      await live.next('session.started');
      await api.forgetUtterance(moved);
      const told = await live.next('memory.updated', (e: ServerEvent) => (e.ops as Op[]).some((o) => o.reason === 'forgotten'), 120_000);
      const ops = told.ops as Op[];
      assert.deepEqual(ops.find((o) => o.memory_id === berkeley.id), { op: 'DELETE', memory_id: berkeley.id, text: '', reason: 'forgotten' }, JSON.stringify(ops));
      assert.deepEqual(ops.find((o) => o.memory_id === richmond.id), { op: 'ADD', memory_id: richmond.id, text: richmond.text, reason: 'forgotten' }, JSON.stringify(ops));
    } finally {
      live.close();
    }
    assert.deepEqual(await memoriesOf(/Berkeley/), [], 'the forgotten memory is gone');
    const current = (await api.memories({})).filter((m) => /Richmond/.test(m.text));
    assert.deepEqual(current.map((m) => [m.id, m.valid_to, m.superseded_by]), [[richmond.id, null, null]], 'Richmond holds again');
    const answer = await api.query({ question: 'Where does Rhea live?' });
    assert.ok(JSON.stringify(answer.evidence).includes('Richmond'), JSON.stringify(answer.evidence));
  });

  test('a cancellation forgotten: the plan it cancelled is current again', async () => {
    await say('reopen-plan-1', 'Oren', "I'm flying to Lisbon on Friday.");
    const cancelled = await say('reopen-plan-2', 'Oren', 'I cancelled the Lisbon trip.');
    const [trip] = (await memoriesOf(/Lisbon/)).filter((m) => !/cancel/i.test(m.text));
    assert.ok(trip, 'consolidation made a memory of the plan');
    assert.notEqual(trip.valid_to, null, 'the cancellation closed the plan');

    await api.forgetUtterance(cancelled);

    const current = (await api.memories({})).filter((m) => /Lisbon/.test(m.text));
    assert.deepEqual(current.map((m) => [m.id, m.valid_to]), [[trip.id, null]], JSON.stringify(current));
  });

  test('a memory closed by a later one that is not forgotten stays history', async () => {
    await say('reopen-chain-1', 'Lior', 'I live in Fresno.');
    const middle = await say('reopen-chain-2', 'Lior', 'I moved to Modesto.');
    await say('reopen-chain-3', 'Lior', 'I moved to Stockton.');

    await api.forgetUtterance(middle);

    const current = (await api.memories({})).filter((m) => /Fresno|Modesto|Stockton/.test(m.text));
    assert.deepEqual(current.map((m) => m.text.match(/Fresno|Modesto|Stockton/)?.[0]), ['Stockton'], JSON.stringify(current));
  });
});
