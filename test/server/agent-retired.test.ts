import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ParleyClient } from '../../clients/typescript/src/index.js';
import { startTestAppWithClient, type TestApp } from '../helpers/app.js';
import { enrolledAgent } from '../helpers/enrolled-agent.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * A call centre's agents (`/v1/stream?agent=`) are held by the live session as participant ids. An agent merged into
 * another participant, or erased, while the call ran was left in that set under the old id: the survivor, speaking as
 * the agent, took the caller's external id, and an erased id stayed in the session's memory.
 */
describe("a live session's agents follow merges and erasures made while it runs", () => {
  let t: TestApp;
  let api: ParleyClient;
  before(async () => {
    ({ t, api } = await startTestAppWithClient());
  });
  after(() => t.close());

  /**
   * The live session's agents, once `ready` holds of them (a merge or an erasure reaches a session over the event bus);
   * as they are after a minute (the bus delivers within its poll interval) when it never does.
   */
  async function agentsOnce(sessionId: string, ready: (agents: ReadonlySet<string>) => boolean): Promise<string[]> {
    let agents: ReadonlySet<string> = new Set();
    for (let i = 0; i < 3000; i++) {
      agents = t.app.sessions.get('default', sessionId)?.agents ?? new Set<string>();
      if (ready(agents)) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return [...agents];
  }

  /** Say `text` as `speaker` (a text turn); the id of who said it. */
  async function say(c: TestWsClient, speaker: string, text: string): Promise<string> {
    c.sendJson({ type: 'utterance', speaker, text });
    return ((await c.nextNew('transcript.final')).speaker as { id: string }).id;
  }

  test('an agent merged into another participant after speaking: the survivor is the agent, and never takes the caller\'s id', async () => {
    const old = await enrolledAgent(t.app, 'default', 'Agent Lee');
    const survivor = (await t.app.stores.graph.createParticipant('default', { name: 'Lee Okoro' })).id;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=agent-merged&external_id=%2B15550100&agent=${old}`);
    try {
      await c.next('session.started');
      assert.equal(await say(c, 'Agent Lee', 'Good morning, deliveries desk.'), old);
      await api.mergeParticipant(old, survivor);
      assert.deepEqual((await c.next('speaker.merged')).into, survivor);
      assert.deepEqual(await agentsOnce('agent-merged', () => true), [survivor]);
      assert.equal(await say(c, 'Lee Okoro', 'How can I help you today?'), survivor);
      const caller = await say(c, 'Rosa Diaz', 'My parcel has not arrived.');
      assert.equal((await api.participant(survivor)).external_id, null, 'the agent, merged, did not take the caller\'s number');
      assert.equal((await api.participant('+15550100')).id, caller, 'the caller holds it');
    } finally {
      c.close();
    }
  });

  test('an agent merged away before speaking in the session (no speaker.merged names it): the survivor is the agent there too', async () => {
    const old = await enrolledAgent(t.app, 'default', 'Agent Max');
    const survivor = await enrolledAgent(t.app, 'default', 'Max Ito');
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=agent-merged-silent&external_id=%2B15550101&agent=${old}`);
    try {
      await c.next('session.started');
      // Max spoke only in another session: the merge's speaker.merged names that one.
      await api.postUtterances('enrol-max', [{ speaker: 'Agent Max', text: 'Testing, one two.' }]);
      const merged = await api.mergeParticipant(old, survivor);
      assert.deepEqual(merged.session_ids, ['enrol-max']);
      assert.deepEqual(await agentsOnce('agent-merged-silent', (a) => !a.has(old)), [survivor]);
      assert.equal(await say(c, 'Max Ito', 'Thank you for calling.'), survivor);
      const caller = await say(c, 'Ben Okafor', 'I missed a delivery.');
      assert.equal((await api.participant(survivor)).external_id, null);
      assert.equal((await api.participant('+15550101')).id, caller);
    } finally {
      c.close();
    }
  });

  test('review1 finding 4: an agent an earlier version kept (`agents`) merged away before speaking: the survivor narrows the scope', async () => {
    const old = await enrolledAgent(t.app, 'default', 'Agent Kit');
    const survivor = await enrolledAgent(t.app, 'default', 'Kit Vance');
    // The call as an earlier version kept it, its agents under `agents`; resumed without ?agent=.
    await t.app.stores.graph.openSession('default', 'agent-merged-legacy', new Date().toISOString());
    await t.app.stores.graph.updateSession('default', 'agent-merged-legacy', { metadata: { agents: [old] } });
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=agent-merged-legacy`);
    try {
      await c.next('session.started');
      const live = t.app.sessions.get('default', 'agent-merged-legacy')!;
      assert.deepEqual([...live.legacyAgents], [old]);
      await api.postUtterances('enrol-kit', [{ speaker: 'Agent Kit', text: 'Testing, one two.' }]);
      await api.mergeParticipant(old, survivor);
      for (let i = 0; i < 3000 && live.legacyAgents.has(old); i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual([...live.legacyAgents], [survivor]);
      const scope = await live.memoryScope('participants');
      assert.deepEqual([...(scope?.agents ?? [])], [survivor], 'an agent of the scope');
      assert.ok(!scope?.people.has(survivor), 'never one of its people');
    } finally {
      c.close();
    }
  });

  test('an agent erased while the call runs is dropped from its agents; the other agent stays', async () => {
    const gone = await enrolledAgent(t.app, 'default', 'Agent Ivy');
    const kept = await enrolledAgent(t.app, 'default', 'Agent Joe');
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=agent-erased&external_id=%2B15550102&agent=${gone},${kept}`);
    try {
      await c.next('session.started');
      assert.equal(await say(c, 'Agent Ivy', 'Hello, you are through to returns.'), gone);
      await api.eraseParticipant(gone);
      assert.deepEqual(await agentsOnce('agent-erased', (a) => !a.has(gone)), [kept]);
      assert.equal(await say(c, 'Agent Joe', 'I will take over this call.'), kept);
      const caller = await say(c, 'Cy Park', 'I want to return a lamp.');
      assert.equal((await api.participant('+15550102')).id, caller, 'the caller, not the remaining agent, took the id');
    } finally {
      c.close();
    }
  });
});
