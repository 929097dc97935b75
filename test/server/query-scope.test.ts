import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import type { MemoryItem } from '../../graph/core/events.js';
import { appForSuite, startTestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

const ASK = 'Sam, can I order a red Trek mountain bike with a carbon frame?';

/**
 * scopecost: an explicit question (`POST /v1/query`, WebSocket `query`) is answered within the session's
 * `context_scope`, as its pushed `memory.context` is: a call centre's agent asking mid-call about Luis's order must not
 * hear Maria's. The question's own `context_scope` overrides the session's; without a session it is `all`.
 */
describe('context_scope of explicit questions', () => {
  const t = appForSuite(() => startTestApp());
  let maria = '';
  const ofMaria = (i: MemoryItem): boolean => i.session_id === 'q-maria' || [i.speaker, ...i.addressees].some((p) => p.id === maria);
  const texts = (items: MemoryItem[]): string => JSON.stringify(items.map((i) => i.text));

  /** Say `lines` in session `id`, each answered by its transcript.final. */
  async function say(id: string, lines: [string, string, string][]): Promise<void> {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${id}`);
    try {
      await c.next('session.started');
      for (const [speaker, to, text] of lines) {
        c.sendJson({ type: 'utterance', speaker, addressees: [to], text });
        await c.nextNew('transcript.final');
      }
    } finally {
      c.close();
    }
  }

  before(async () => {
    await say('q-maria', [
      ['Maria', 'Sam', 'Hi Sam, this is Maria, I ordered the red Trek mountain bike with the carbon frame.'],
      ['Sam', 'Maria', 'Thanks Maria, your red Trek mountain bike with the carbon frame arrives on Friday.'],
    ]);
    await say('q-luis-earlier', [['Luis', 'Sam', 'Hi Sam, this is Luis, I bought a red Trek helmet and a carbon bottle cage last month.']]);
    await drainConsolidation(t.app.stores.queue, 60_000);
    maria = (await t.app.stores.graph.findParticipantsByName('default', 'Maria'))[0]!.id;
  });

  test('WebSocket query: a participants session answers from its people only; the query\'s own context_scope overrides it', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=q-luis-live`);
    try {
      await c.next('session.started');
      c.sendJson({ type: 'session.update', session: { context_scope: 'participants' } });
      await c.nextNew('session.updated');
      c.sendJson({ type: 'utterance', speaker: 'Luis', addressees: ['Sam'], text: 'Hi Sam, this is Luis calling again.' });
      await c.nextNew('transcript.final');
      const ask = async (id: string, extra: Record<string, unknown>): Promise<MemoryItem[]> => {
        c.sendJson({ type: 'query', id, question: ASK, ...extra });
        return (await c.next('query.result', (e) => e.id === id)).evidence as MemoryItem[];
      };
      const scoped = await ask('q1', {});
      assert.deepEqual(scoped.filter(ofMaria).map((i) => i.text), [], 'nothing of Maria reaches Luis\'s call');
      assert.ok(scoped.some((i) => i.session_id === 'q-luis-earlier'), `Luis's own earlier call is still found (${texts(scoped)})`);
      const all = await ask('q2', { context_scope: 'all' });
      assert.ok(all.some(ofMaria), `context_scope all on the query searches the tenant (${texts(all)})`);
    } finally {
      c.close();
    }
  });

  test('POST /v1/query: the body\'s context_scope, else the session\'s; participants needs a session_id', async () => {
    const query = async (payload: Record<string, unknown>): Promise<MemoryItem[]> => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/query', payload: { question: ASK, ...payload } });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { evidence: MemoryItem[] }).evidence;
    };
    const scoped = await query({ session_id: 'q-luis-earlier', context_scope: 'participants' });
    assert.deepEqual(scoped.filter(ofMaria).map((i) => i.text), [], 'nothing of Maria in an answer scoped to Luis\'s call');
    assert.ok(scoped.some((i) => i.session_id === 'q-luis-earlier'), `Luis's own call is still found (${texts(scoped)})`);
    assert.ok((await query({ session_id: 'q-luis-earlier' })).some(ofMaria), 'a /v1/stream session\'s default is all');
    assert.ok((await query({})).some(ofMaria), 'no session: all');
    // A session that set participants (the WebSocket test's) is answered within it without saying so again.
    const own = await query({ session_id: 'q-luis-live' });
    assert.deepEqual(own.filter(ofMaria).map((i) => i.text), [], `the session's own participants scope holds (${texts(own)})`);
    assert.ok((await query({ session_id: 'q-luis-live', context_scope: 'all' })).some(ofMaria), 'the body\'s all overrides it');

    const bad = await t.app.inject({ method: 'POST', url: '/v1/query', payload: { question: ASK, context_scope: 'participants' } });
    assert.equal(bad.statusCode, 400);
    assert.match((bad.json() as { error: { message: string } }).error.message, /context_scope "participants" needs a session_id/);
    const unknown = await t.app.inject({ method: 'POST', url: '/v1/query', payload: { question: ASK, context_scope: 'nobody' } });
    assert.equal(unknown.statusCode, 400);
    assert.match((unknown.json() as { error: { message: string } }).error.message, /context_scope/);
  });
});
