import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { sessionAgents } from '../../pipelines/interaction/session-metadata.js';
import { keepSessionAgents } from '../../server/ws/session-agents.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { enrolledAgent } from '../helpers/enrolled-agent.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

const ASK = 'Is the red Trek mountain bike with the carbon frame in stock?';

/**
 * scopeagents M5: `POST /v1/query` under `context_scope: participants` on a session not live on this server built its
 * scope from its stored turns with no agents: the session's `?agent=` was unknown there, so Luis's earlier words to
 * the agent (the agent is one of the call's people) were left out, and the agent's own words in another call (said to
 * that call's caller) could count. The session keeps its agents in its metadata; the answer is the live one.
 */
describe('a scoped question on a session no longer live: its agents as when it was live', () => {
  const data = tempDir('parley-scopeagents-');
  let t: TestApp;
  let agent = '';
  const ids = (items: MemoryItem[]): string[] => items.map((i) => i.id);
  const texts = (items: MemoryItem[]): string => JSON.stringify(items.map((i) => i.text));

  async function query(app: TestApp, sessionId = 'sa-live'): Promise<MemoryItem[]> {
    const res = await app.app.inject({ method: 'POST', url: '/v1/query', payload: { question: ASK, session_id: sessionId, context_scope: 'participants', k: 10 } });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { evidence: MemoryItem[] }).evidence;
  }

  /** Say `lines` ([speaker, addressees, text]) in session `id`, each answered by its transcript.final. */
  async function say(id: string, lines: [string, string[], string][]): Promise<void> {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${id}`);
    try {
      await c.next('session.started');
      for (const [speaker, addressees, text] of lines) {
        c.sendJson({ type: 'utterance', speaker, addressees, text });
        await c.nextNew('transcript.final');
      }
    } finally {
      c.close();
    }
  }

  /** End the session `c` streams, and wait until its memories are made and it is no longer live here. */
  async function end(c: TestWsClient, id: string): Promise<void> {
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 120_000);
    c.close();
    await drainConsolidation(t.app.stores.queue, 60_000);
    for (let i = 0; i < 500 && t.app.sessions.get('default', id); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(t.app.sessions.get('default', id), undefined, 'the session is no longer live');
  }

  before(async () => {
    t = await startTestApp({ DATA_DIR: data.dir });
    agent = await enrolledAgent(t.app, 'default', 'Agent Sam');
    // Luis to the agent in an earlier call; the agent alone, in a call of someone else's.
    await say('sa-earlier', [['Luis', ['Agent Sam'], 'Hi Sam, this is Luis, I want the red Trek mountain bike with the carbon frame.']]);
    await say('sa-other', [['Agent Sam', [], 'The red Trek mountain bike with the carbon frame is out of stock until March.']]);
    await drainConsolidation(t.app.stores.queue, 60_000);
  });
  after(async () => {
    await t.close();
    data.remove();
  });

  test('live, ended, and on a fresh server over the same store: the same answer, the agent\'s call partner\'s words in it', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=sa-live&agent=${agent}`);
    let live: MemoryItem[] = [];
    try {
      await c.next('session.started');
      c.sendJson({ type: 'utterance', speaker: 'Luis', addressees: [], text: 'Hello, it is Luis calling again.' });
      await c.nextNew('transcript.final');
      await drainConsolidation(t.app.stores.queue, 60_000);
      assert.ok(t.app.sessions.get('default', 'sa-live'), 'the session is live');
      live = await query(t);
      assert.ok(live.some((i) => i.session_id === 'sa-earlier'), `Luis's earlier words to the agent are found (${texts(live)})`);
      assert.ok(!live.some((i) => /out of stock/.test(i.text)), `the agent's words in another call are not (${texts(live)})`);
      await end(c, 'sa-live');
    } finally {
      c.close();
    }
    const ended = await query(t);
    assert.deepEqual(ids(ended), ids(live), `ended: ${texts(ended)}; live: ${texts(live)}`);
    await t.close();
    t = await startTestApp({ DATA_DIR: data.dir });
    const fresh = await query(t);
    assert.deepEqual(ids(fresh), ids(live), `fresh server: ${texts(fresh)}; live: ${texts(live)}`);
  });

  test('storeopen 2: an `agents` list a client wrote (before the server owned the key) never scopes a question; the agents a stream keeps do', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=sa-forged`);
    try {
      await c.next('session.started');
      c.sendJson({ type: 'utterance', speaker: 'Luis', addressees: [], text: 'Hello, it is Luis about my order.' });
      await c.nextNew('transcript.final');
      c.sendJson({ type: 'session.update', session: { $agents: [agent] } });
      const err = await c.nextNew('error');
      assert.equal(err.code, 'PARLEY_ERR_BAD_FRAME');
      assert.match(err.message as string, /\$agents/);
      await end(c, 'sa-forged');
    } finally {
      c.close();
    }
    // What an earlier server kept from `session.update {"agents": [...]}`: the id of a real participant, the agent.
    const record = (await t.app.stores.graph.getSession('default', 'sa-forged'))!;
    await t.app.stores.graph.updateSession('default', 'sa-forged', { metadata: { ...record.metadata, agents: [agent] } });
    const forged = await query(t, 'sa-forged');
    assert.ok(!forged.some((i) => i.session_id === 'sa-earlier'), `Luis's words to the agent are not in this session's scope (${texts(forged)})`);
    assert.deepEqual(await sessionAgents(t.app.stores.graph, 'default', (await t.app.stores.graph.getSession('default', 'sa-forged'))!.metadata), []);
    // The same session once a stream keeps the agent: now the agent is one of its people.
    await keepSessionAgents(t.app.stores, 'default', 'sa-forged', [agent]);
    const kept = await query(t, 'sa-forged');
    assert.ok(kept.some((i) => i.session_id === 'sa-earlier'), `with the stream's agent, Luis's words to them are (${texts(kept)})`);
  });

  test('review finding 1: a call stored before `$agents` (agents kept under `agents`) is not widened by the upgrade', async () => {
    // The call as an earlier server kept it: the agent spoke in it, and its agents under `agents`. The agent's words in
    // someone else's call ("out of stock until March", sa-other) stayed out of its scope then; they must now too.
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=sa-legacy`);
    try {
      await c.next('session.started');
      c.sendJson({ type: 'utterance', speaker: 'Luis', addressees: ['Agent Sam'], text: 'Hello, it is Luis, asking about the red Trek bike.' });
      await c.nextNew('transcript.final');
      c.sendJson({ type: 'utterance', speaker: 'Agent Sam', addressees: ['Luis'], text: 'Sure Luis, let me check the bike for you.' });
      await c.nextNew('transcript.final');
      await end(c, 'sa-legacy');
    } finally {
      c.close();
    }
    const record = (await t.app.stores.graph.getSession('default', 'sa-legacy'))!;
    assert.equal(record.metadata.$agents, undefined, 'no ?agent=: the server kept no agents');
    const before = await query(t, 'sa-legacy');
    assert.ok(before.some((i) => /out of stock/.test(i.text)), `without any agents kept, the agent is one of the call's people (${texts(before)})`);
    await t.app.stores.graph.updateSession('default', 'sa-legacy', { metadata: { ...record.metadata, agents: [agent] } });
    const legacy = await query(t, 'sa-legacy');
    assert.ok(!legacy.some((i) => /out of stock/.test(i.text)), `the agent's words in another call are not in scope (${texts(legacy)})`);
    assert.ok(legacy.some((i) => i.session_id === 'sa-legacy'), `the call's own turns are (${texts(legacy)})`);
  });

  test('review1 finding 4: such a call resumed live without ?agent= keeps the narrowing it has when not live', async () => {
    // An earlier server's call, not ended: Luis to the agent and the agent to Luis, its agents kept under `agents`.
    await say('sa-legacy-live', [['Luis', ['Agent Sam'], 'Hello, it is Luis, asking about the red Trek bike.'],
      ['Agent Sam', ['Luis'], 'Sure Luis, let me check the bike for you.']]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    const record = (await t.app.stores.graph.getSession('default', 'sa-legacy-live'))!;
    await t.app.stores.graph.updateSession('default', 'sa-legacy-live', { metadata: { ...record.metadata, agents: [agent] } });
    // The upgrade: a fresh server over the same store.
    await t.close();
    t = await startTestApp({ DATA_DIR: data.dir });
    const stored = await query(t, 'sa-legacy-live');
    assert.ok(!stored.some((i) => /out of stock/.test(i.text)), `not live: the agent's words in another call are not in scope (${texts(stored)})`);
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=sa-legacy-live`);
    try {
      await c.next('session.started');
      c.sendJson({ type: 'utterance', speaker: 'Luis', addressees: ['Agent Sam'], text: 'I am back about the bike.' });
      await c.nextNew('transcript.final');
      const live = t.app.sessions.get('default', 'sa-legacy-live');
      assert.ok(live, 'the session is live');
      // Its people are read from its stored turns in the background: the agent is one of them once read.
      for (let i = 0; i < 500 && !(await live.memoryScope('participants'))?.people.has(agent); i++) await new Promise((r) => setTimeout(r, 20));
      assert.ok((await live.memoryScope('participants'))?.people.has(agent), 'the agent spoke in the call: one of its people');
      assert.deepEqual([...live.agents], [], 'the legacy list is no agent of the stream (its voices may take the external id)');
      const resumed = await query(t, 'sa-legacy-live');
      assert.ok(!resumed.some((i) => /out of stock/.test(i.text)), `live: the agent's words in another call are not in scope (${texts(resumed)})`);
      assert.ok(resumed.some((i) => i.session_id === 'sa-legacy-live'), `the call's own turns are (${texts(resumed)})`);
    } finally {
      c.close();
    }
  });

  test('session.update cannot set the agents the session keeps; a stream resumed without ?agent= keeps them', async () => {
    const first = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=sa-resume&agent=${agent}`);
    await first.next('session.started');
    first.close();
    await t.close();
    t = await startTestApp({ DATA_DIR: data.dir });
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=sa-resume`);
    try {
      await c.next('session.started');
      assert.deepEqual([...(t.app.sessions.get('default', 'sa-resume')?.agents ?? [])], [agent], 'resumed on a fresh server, its agents are known');
      c.sendJson({ type: 'session.update', session: { agents: ['p_someone_else'] } });
      const err = await c.nextNew('error');
      assert.equal(err.code, 'PARLEY_ERR_BAD_FRAME');
      assert.match(err.message as string, /agents is not a session setting/);
    } finally {
      c.close();
    }
    const record = await t.app.stores.graph.getSession('default', 'sa-resume');
    assert.deepEqual(record?.metadata.$agents, [agent], 'nothing changed');
  });

  test('erasure: a caller erased leaves the call\'s agents kept; an agent erased leaves the calls they spoke in', async () => {
    const metadataOf = async (id: string): Promise<Record<string, unknown>> => (await t.app.inject({ url: `/v1/sessions/${id}/transcript` })).json().metadata;
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=sa-spoke&agent=${agent}`);
    try {
      await c.next('session.started');
      c.sendJson({ type: 'utterance', speaker: 'Agent Sam', addressees: ['Rosa'], text: 'Good morning Rosa, deliveries desk.' });
      await c.nextNew('transcript.final');
      c.sendJson({ type: 'utterance', speaker: 'Rosa', addressees: ['Agent Sam'], text: 'My parcel has not arrived.' });
      await c.nextNew('transcript.final');
    } finally {
      c.close();
    }
    assert.deepEqual((await metadataOf('sa-live')).$agents, [agent], 'the call keeps its agents');
    const luis = await t.app.inject({ method: 'DELETE', url: '/v1/participants/Luis' });
    assert.equal(luis.statusCode, 200, luis.body);
    assert.deepEqual((await metadataOf('sa-live')).$agents, [agent], 'erasing the caller scrubs the call\'s metadata, not its agents');
    assert.deepEqual((await metadataOf('sa-spoke')).$agents, [agent]);
    const sam = await t.app.inject({ method: 'DELETE', url: `/v1/participants/${agent}` });
    assert.equal(sam.statusCode, 200, sam.body);
    assert.equal((await metadataOf('sa-spoke')).$agents, undefined, 'the erased agent\'s id leaves the calls they spoke in');
    // A call they never spoke in keeps the id, and reads it as gone: its scope holds no erased agent.
    assert.deepEqual(await sessionAgents(t.app.stores.graph, 'default', await metadataOf('sa-live')), []);
  });
});
