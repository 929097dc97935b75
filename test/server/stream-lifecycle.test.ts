import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import WebSocket from 'ws';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { slowSessionReads, type HeldOpen } from '../helpers/held-open.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';

/**
 * A /v1/stream session from its first message to after its end: nothing the client sent while the
 * session opened is lost, nothing sent after its end is stored, its end is never shed, a question does
 * not answer with the turn that asked it, and an ended session's HTTP resends and event streams behave.
 */
const WAIT_MS = 20_000;

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A raw socket recording every frame, for tests that must send before `session.started`. */
function rawSocket(url: string): { ws: WebSocket; frames: ServerEvent[]; opened: Promise<void>; closed: Promise<number> } {
  const ws = new WebSocket(url);
  const frames: ServerEvent[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as ServerEvent));
  ws.on('error', () => {});
  const opened = new Promise<void>((resolve, reject) => { ws.once('open', () => resolve()); ws.once('error', reject); });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, frames, opened, closed };
}

describe('the /v1/stream session lifecycle', () => {
  let t: TestApp;
  /** Hold the store reads of a session until its `release` is called: a slow, networked store. */
  let holdOpen: (id: string) => HeldOpen;

  before(async () => {
    t = await startTestApp({ PARLEY_ASR: 'none', PARLEY_SESSION_RESUME_MS: '60000', PARLEY_SESSION_QUEUE: '4' });
    holdOpen = slowSessionReads(t.app.stores.graph);
  });
  after(async () => {
    await t.close();
  });

  const transcript = async (id: string): Promise<string[]> =>
    (await t.app.stores.graph.getTranscript('default', id)).map((u) => u.text);

  test('messages sent while the session opens (a slow store) are handled, in order', async () => {
    const hold = holdOpen('open-slow');
    const c = rawSocket(`${t.wsUrl}/v1/stream?session_id=open-slow`);
    await c.opened;
    await hold.reached;
    c.ws.send(JSON.stringify({ type: 'utterance', speaker: 'Ana', text: 'first, sent before session.started' }));
    c.ws.send(JSON.stringify({ type: 'utterance', speaker: 'Ben', text: 'second, also early' }));
    c.ws.send(JSON.stringify({ type: 'session.update', session: { topic: 'early' } }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    hold.release();
    await until(() => c.frames.some((f) => f.type === 'session.updated'), 'the reply to the third early message');
    assert.deepEqual(c.frames.map((f) => f.type), ['session.started', 'transcript.final', 'transcript.final', 'session.updated']);
    assert.deepEqual(c.frames.filter((f) => f.type === 'transcript.final').map((f) => f.text), ['first, sent before session.started', 'second, also early']);
    c.ws.close();
    await c.closed;
  });

  test('a client gone while its session opens holds no live slot; what it sent is stored and the session resumes', async () => {
    const hold = holdOpen('open-gone');
    const c = rawSocket(`${t.wsUrl}/v1/stream?session_id=open-gone`);
    await c.opened;
    await hold.reached;
    c.ws.send(JSON.stringify({ type: 'utterance', speaker: 'Ana', text: 'said before hanging up' }));
    c.ws.close();
    await c.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    hold.release();
    await until(async () => (await transcript('open-gone')).length === 1, 'the early utterance to be stored');
    const live = t.app.sessions.get('default', 'open-gone');
    assert.ok(live, 'kept for a resume');
    assert.equal(live.connected, false, 'no live slot held by a socket that is gone');
    assert.equal(t.app.sessions.countsByState().live, 0);
    const back = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=open-gone`);
    assert.equal((await back.next('session.started')).resumed, true);
    back.close();
    await back.closed();
  });

  test('an utterance sent after session.end is refused in its place (SESSION_ENDED) and not stored', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=after-end`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'before the end' });
    c.sendJson({ type: 'session.end' });
    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'after the end' });
    c.sendJson({ type: 'query', id: 'q-late', question: 'anything?' });
    await c.next('session.ended');
    assert.equal(await c.closed(), 1000);
    // memory.context (retrieval for the first turn) may come at any point before the end.
    const types = c.events.map((e) => e.type).filter((type) => !type.startsWith('memory.'));
    assert.deepEqual(types, ['session.started', 'transcript.final', 'error', 'error', 'session.ended'], types.join(', '));
    for (const e of c.events.filter((x) => x.type === 'error')) {
      assert.equal(e.code, 'PARLEY_ERR_SESSION_ENDED');
      assert.equal(e.fatal, false);
      assert.match(String(e.message), /session after-end is ending \(session\.end was sent\): this (utterance|query) was not handled and nothing of it was stored/);
    }
    // Give a message the old code ran after the close its chance to be stored.
    await until(() => t.app.sessions.get('default', 'after-end') === undefined, 'the session to leave the registry');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await transcript('after-end'), ['before the end']);
  });

  test('an utterance sent while an HTTP end is under way is refused and not stored', async () => {
    // The end is held in the store until the late utterance was answered: on a busy machine an end let run
    // could finish between two looks at the session, and the utterance would come after the close.
    const graph = t.app.stores.graph;
    const endSession = graph.endSession.bind(graph);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    graph.endSession = async (...args) => {
      if (args[1] === 'http-ending') await gate;
      return endSession(...args);
    };
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=http-ending`);
    let ended: Promise<Response> | undefined;
    try {
      await c.next('session.started');
      c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'before the HTTP end' });
      await c.next('transcript.final');
      ended = fetch(`${t.httpUrl}/v1/sessions/http-ending/end`, { method: 'POST' });
      await until(() => t.app.sessions.get('default', 'http-ending')?.ending != null, 'the end to begin');
      // Its refusal is queued in its place behind the end: release the end once the server has taken it.
      const live = t.app.sessions.get('default', 'http-ending')!;
      const enqueue = live.enqueue.bind(live);
      const taken = new Promise<void>((resolve) => {
        live.enqueue = (...args) => {
          resolve();
          return enqueue(...args);
        };
      });
      c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'after the HTTP end' });
      await taken;
    } finally {
      release();
      graph.endSession = endSession;
    }
    assert.equal((await ended!).status, 202);
    await c.next('session.ended');
    await c.closed();
    const error = c.events.find((e) => e.type === 'error');
    assert.equal(error?.code, 'PARLEY_ERR_SESSION_ENDED');
    assert.match(String(error?.message), /ended over HTTP/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await transcript('http-ending'), ['before the HTTP end']);
  });

  test('an end the store refused leaves the session going: it takes turns again, and session.end again ends it', async () => {
    const graph = t.app.stores.graph;
    const endSession = graph.endSession.bind(graph);
    let refusals = 1;
    graph.endSession = async (...args) => {
      if (args[1] === 'end-fails' && refusals-- > 0) throw new Error('store unavailable');
      return endSession(...args);
    };
    try {
      const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=end-fails`);
      await c.next('session.started');
      c.sendJson({ type: 'session.end' });
      assert.equal((await c.next('error')).code, 'PARLEY_ERR_INTERNAL');
      c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'still talking' });
      assert.equal((await c.next('transcript.final')).text, 'still talking');
      c.sendJson({ type: 'session.end' });
      await c.next('session.ended');
      assert.equal(await c.closed(), 1000);
      assert.deepEqual(await transcript('end-fails'), ['still talking']);
    } finally {
      graph.endSession = endSession;
    }
  });

  test('session.end sent while the queue is full still ends the session, after the turns queued before it', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=full-end`);
    await c.next('session.started');
    // PARLEY_SESSION_QUEUE is 4: most of these are shed, and session.end comes in behind a full queue.
    for (let i = 0; i < 12; i++) c.sendJson({ type: 'utterance', speaker: 'Ana', text: `turn number ${i}` });
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, WAIT_MS);
    assert.equal(await c.closed(), 1000);
    const shed = c.events.filter((e) => e.type === 'error' && e.code === 'PARLEY_ERR_OVERLOADED');
    assert.ok(shed.length > 0, 'the queue was full when session.end came');
    const finals = c.events.filter((e) => e.type === 'transcript.final').map((e) => String(e.text));
    assert.ok(finals.length >= 4, `the queued turns were stored: ${finals.join(', ')}`);
    assert.equal(c.events.at(-1)?.type, 'session.ended', 'nothing after session.ended');
    assert.deepEqual(await transcript('full-end'), finals, 'every acknowledged turn is stored, and only those');
    assert.ok((await t.app.stores.graph.getSession('default', 'full-end'))?.endedAt, 'the end is stored');
  });

  test('a WebSocket query does not answer with the turn that asked it', async () => {
    const res = await fetch(`${t.httpUrl}/v1/sessions/kim-moves/utterances`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ utterances: [
        { speaker: 'Kim', addressees: ['Lou'], text: 'I moved to Paris last spring.' },
        { speaker: 'Lou', addressees: ['Kim'], text: 'Paris must be lovely.' },
      ] }),
    });
    assert.equal(res.status, 201);
    await drainConsolidation(t.app.stores.queue, 60_000);
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=asking`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Lou', text: 'Where did Kim move?' });
    const asked = await c.next('transcript.final');
    c.sendJson({ type: 'query', id: 'q1', question: 'where did Kim move' });
    const result = await c.next('query.result', (e) => e.id === 'q1');
    const evidence = result.evidence as { id: string; text: string; refer_ids: string[] }[];
    assert.ok(evidence.length > 0);
    assert.ok(evidence.every((i) => i.id !== asked.utterance_id && !i.refer_ids.includes(String(asked.utterance_id))),
      `the asking turn is no evidence: ${evidence.map((i) => i.text).join(' | ')}`);
    assert.ok(evidence.some((i) => /Paris/.test(i.text)), evidence.map((i) => i.text).join(' | '));
    c.close();
    await c.closed();
  });

  test('a resend to an ended session answers as the first try did; new utterances stay 409', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
      fetch(`${t.httpUrl}/v1/sessions/resend-ended/utterances`, {
        method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body),
      });
    const byId = { utterances: [{ utterance_id: 'ended-u1', speaker: 'Ana', text: 'I water the tomatoes at dawn.' }] };
    const byKey = { utterances: [{ speaker: 'Ben', text: 'The shed key is under the pot.' }] };
    const first = await (await post(byId)).json() as { utterance_ids: string[] };
    const keyed = await (await post(byKey, { 'idempotency-key': 'ended-batch-1' })).json() as { utterance_ids: string[] };
    assert.equal((await fetch(`${t.httpUrl}/v1/sessions/resend-ended/end`, { method: 'POST' })).status, 202);

    const again = await post(byId);
    assert.equal(again.status, 201);
    assert.deepEqual(await again.json(), first);
    const keyedAgain = await post(byKey, { 'idempotency-key': 'ended-batch-1' });
    assert.equal(keyedAgain.status, 201);
    assert.deepEqual(await keyedAgain.json(), keyed);

    const fresh = await post({ utterances: [{ utterance_id: 'ended-u2', speaker: 'Ana', text: 'A new line.' }] });
    assert.equal(fresh.status, 409);
    assert.equal(((await fresh.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_SESSION_ENDED');
    const mixed = await post({ utterances: [...byId.utterances, { utterance_id: 'ended-u3', speaker: 'Ana', text: 'Another new line.' }] });
    assert.equal(mixed.status, 409, 'a resend with a new utterance in it stores nothing');
    const changed = await post({ utterances: [{ utterance_id: 'ended-u1', speaker: 'Ana', text: 'Other words.' }] });
    assert.equal(changed.status, 409);
    assert.equal(((await changed.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_UTTERANCE_ID_CONFLICT', 'as the first try would have been');
    assert.deepEqual(await transcript('resend-ended'), ['I water the tomatoes at dawn.', 'The shed key is under the pot.']);
  });

  test('the event stream of an ended session sends session.ended and closes', async () => {
    const res = await fetch(`${t.httpUrl}/v1/sessions/sse-ended/utterances`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ utterances: [{ speaker: 'Ana', text: 'a short session' }] }),
    });
    assert.equal(res.status, 201);
    assert.equal((await fetch(`${t.httpUrl}/v1/sessions/sse-ended/end`, { method: 'POST' })).status, 202);
    const stream = await fetch(`${t.httpUrl}/v1/sessions/sse-ended/events`, { signal: AbortSignal.timeout(WAIT_MS) });
    assert.equal(stream.status, 200);
    const text = await stream.text();
    assert.match(text, /: session sse-ended ended at /);
    assert.match(text, /event: session\.ended\nid: \d+\ndata: \{"type":"session\.ended","session_id":"sse-ended","seq":\d+\}\n\n$/);
  });

  test('ending a session waiting for a resume frees it at once and tells its subscribers', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=waiting-end`);
    await c.next('session.started');
    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'then the line dropped' });
    await c.next('transcript.final');
    c.socket.terminate();
    await c.closed();
    await until(() => t.app.sessions.get('default', 'waiting-end')?.connected === false, 'the session to wait for a resume');
    const waitingBefore = t.app.sessions.countsByState().waitingResume;
    const stream = await fetch(`${t.httpUrl}/v1/sessions/waiting-end/events`, { signal: AbortSignal.timeout(WAIT_MS) });
    const body = stream.text();
    const end = await fetch(`${t.httpUrl}/v1/sessions/waiting-end/end`, { method: 'POST' });
    assert.equal(end.status, 202);
    assert.equal(t.app.sessions.get('default', 'waiting-end'), undefined, 'no longer held');
    assert.equal(t.app.sessions.countsByState().waitingResume, waitingBefore - 1, 'its waiting slot is free');
    assert.match(await body, /event: session\.ended\n/);
    assert.deepEqual(await transcript('waiting-end'), ['then the line dropped']);
  });
});
