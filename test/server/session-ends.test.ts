import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';
import { NEO4J_SKIP } from '../helpers/stores.js';

/**
 * An ended session stays ended: a WebSocket reconnect to a session ended over HTTP used to resume it
 * silently (events flowed, `ended_at` stayed set, HTTP posts to it were refused with a 409), and two
 * simultaneous `POST …/end` could each set their own end time and queue their own job.
 */
const GRAPH_STORES: { name: string; env: Record<string, string>; skip?: string }[] = [
  { name: 'sqlite', env: {} },
  {
    name: 'neo4j',
    env: {
      PARLEY_GRAPH_STORE: 'neo4j', PARLEY_VECTOR_STORE: 'sqlite', NEO4J_URI: process.env.NEO4J_URI ?? '',
      NEO4J_USER: process.env.NEO4J_USER ?? 'neo4j', NEO4J_PASSWORD: process.env.NEO4J_PASSWORD ?? '',
    },
    ...(NEO4J_SKIP ? { skip: NEO4J_SKIP } : {}),
  },
];

for (const store of GRAPH_STORES) describe(`ended sessions (${store.name} graph store)`, { skip: store.skip }, () => {
  let t: TestApp;
  // Session ids of this run: a Neo4j test database outlives it.
  const run = `${process.pid}-${Date.now()}`;
  const sid = (name: string): string => `${name}-${run}`;
  before(async () => {
    t = await startTestApp({ PARLEY_SESSION_RESUME_MS: '60000', ...store.env });
  });
  after(async () => {
    await t.close();
  });

  async function endOverHttp(id: string): Promise<{ status: number; body: { session_id: string; ended_at: string; job_id: string } }> {
    const res = await fetch(`${t.httpUrl}/v1/sessions/${id}/end`, { method: 'POST' });
    return { status: res.status, body: await res.json() as { session_id: string; ended_at: string; job_id: string } };
  }

  async function assertRefused(id: string): Promise<void> {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${id}`);
    const error = await c.next('error');
    assert.equal(error.code, 'PARLEY_ERR_SESSION_ENDED');
    assert.equal(error.fatal, true);
    assert.match(String(error.message), new RegExp(`session ${id} ended`));
    assert.equal(c.events.some((e) => e.type === 'session.started'), false, 'no session.started: nothing resumed');
    assert.equal(await c.closed(), 4001, 'the close code of PARLEY_ERR_SESSION_ENDED in the error table, not a normal closure');
  }

  test('a reconnect to a session ended over HTTP is refused, and the session stays ended', async () => {
    const a = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sid('ended-http')}`);
    await a.next('session.started');
    a.sendJson({ type: 'utterance', speaker: 'Ana', text: 'before the end' });
    await a.next('transcript.final');
    a.close();
    await a.closed();
    const ended = await endOverHttp(sid('ended-http'));
    assert.equal(ended.status, 202);
    await assertRefused(sid('ended-http'));
    const record = await t.app.stores.graph.getSession('default', sid('ended-http'));
    assert.equal(record?.endedAt, ended.body.ended_at, 'the refused reconnect left the end as it was');
    assert.deepEqual((await t.app.stores.graph.getTranscript('default', sid('ended-http'))).map((u) => u.text), ['before the end']);
  });

  test('a reconnect after session.end is refused too', async () => {
    const a = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sid('ended-ws')}`);
    await a.next('session.started');
    a.sendJson({ type: 'session.end' });
    await a.next('session.ended');
    await a.closed();
    await assertRefused(sid('ended-ws'));
  });

  test('a session still connected when ended over HTTP ends its socket as session.end would, and takes no second socket', async () => {
    // A newcomer's report: the socket went on storing turns into the ended session, after its end-of-session job.
    const a = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sid('ended-live')}`);
    await a.next('session.started');
    a.sendJson({ type: 'utterance', speaker: 'Ana', text: 'said just before the end' });
    const http = await endOverHttp(sid('ended-live'));
    assert.equal(http.status, 202);
    // The message queued before the end is stored first, then the socket is told and closed.
    await a.next('transcript.final');
    await a.next('session.ended');
    assert.equal(await a.closed(), 1000);
    const transcript = await (await fetch(`${t.httpUrl}/v1/sessions/${sid('ended-live')}/transcript`)).json() as { utterances: { text: string }[] };
    assert.deepEqual(transcript.utterances.map((u) => u.text), ['said just before the end']);
    assert.equal((await t.app.stores.graph.getSession('default', sid('ended-live')))?.endedAt, http.body.ended_at);
    await assertRefused(sid('ended-live'));
  });

  test('a session ended on another server ends here when the event reaches this one', async () => {
    const a = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sid('ended-elsewhere')}`);
    await a.next('session.started');
    // What another server's POST …/end does: the stored end, then the event on the shared bus.
    const end = await t.app.stores.graph.endSession('default', sid('ended-elsewhere'), new Date().toISOString());
    await t.app.events.publish('default', sid('ended-elsewhere'), { type: 'session.ended', payload: {} });
    await a.next('session.ended');
    assert.equal(await a.closed(), 1000);
    assert.equal((await t.app.stores.graph.getSession('default', sid('ended-elsewhere')))?.endedAt, end?.endedAt, 'that end holds');
  });

  test('simultaneous HTTP ends are one end: the same ended_at and job id for all', async () => {
    const a = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sid('ended-race')}`);
    await a.next('session.started');
    a.close();
    await a.closed();
    const ends = await Promise.all(Array.from({ length: 6 }, () => endOverHttp(sid('ended-race'))));
    assert.deepEqual(ends.map((e) => e.status), [202, 202, 202, 202, 202, 202]);
    assert.equal(new Set(ends.map((e) => e.body.job_id)).size, 1, `one job id (got ${ends.map((e) => e.body.job_id).join(', ')})`);
    assert.equal(new Set(ends.map((e) => e.body.ended_at)).size, 1, 'one end time');
    assert.equal((await t.app.stores.graph.getSession('default', sid('ended-race')))?.endedAt, ends[0]!.body.ended_at);
  });

  test('session.end and an HTTP end at once are one end: one time, one session.ended', async () => {
    const a = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=${sid('ended-both')}`);
    await a.next('session.started');
    a.sendJson({ type: 'session.end' });
    const http = await endOverHttp(sid('ended-both'));
    await a.next('session.ended');
    await a.closed();
    assert.equal(http.status, 202);
    assert.equal((await t.app.stores.graph.getSession('default', sid('ended-both')))?.endedAt, http.body.ended_at);
    assert.equal(a.events.filter((e) => e.type === 'session.ended').length, 1);
  });
});
