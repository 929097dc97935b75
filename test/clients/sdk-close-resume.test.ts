import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { ParleyClient, ParleyError, SESSION_ENDED_CLOSE, type StreamSession } from '../../clients/typescript/src/index.js';

const started = (resumed: boolean): string => JSON.stringify({ type: 'session.started', session_id: 'c', seq: 1, resumed, config: { session_id: 'c' } });

/** A stand-in /v1/stream server (a real WebSocket server) whose connections the test drives one by one. */
async function standIn(): Promise<{ wss: WebSocketServer; url: string; next: () => Promise<WebSocket> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  const waiting: WebSocket[] = [];
  const takers: ((s: WebSocket) => void)[] = [];
  wss.on('connection', (socket) => {
    const taker = takers.shift();
    if (taker) taker(socket);
    else waiting.push(socket);
  });
  const next = (): Promise<WebSocket> => new Promise((resolve) => {
    const s = waiting.shift();
    if (s) resolve(s);
    else takers.push(resolve);
  });
  return { wss, url: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`, next };
}

/** A session opened on the stand-in (resumes after `delayMs` 1) and its first connection, whose session.started is sent. */
async function openOn(url: string, next: () => Promise<WebSocket>): Promise<{ session: StreamSession; socket: WebSocket }> {
  const first = next().then((s) => { s.send(started(false)); return s; });
  const session = await new ParleyClient({ baseUrl: url }).stream({ resume: { delayMs: 1 } });
  return { session, socket: await first };
}

test('@parley/client: close() while a resume is connecting closes the new socket (1000) instead of leaking it', { timeout: 60_000 }, async () => {
  const { wss, url, next } = await standIn();
  try {
    const { session, socket } = await openOn(url, next);
    socket.terminate(); // a drop: the SDK resumes
    const second = await next(); // the resume's connection, before its session.started
    session.close();
    const closed = once(second, 'close');
    second.send(started(true));
    const [code] = await closed;
    assert.equal(code, 1000, 'the socket the resume opened is closed by the client');
  } finally {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});

test('@parley/client: close() during a resume\'s backoff wait ends the wait (its timer no longer holds the process)', { timeout: 60_000 }, async () => {
  const { wss, url, next } = await standIn();
  try {
    const client = new ParleyClient({ baseUrl: url });
    const first = next().then((s) => { s.send(started(false)); return s; });
    const session = await client.stream({ resume: { delayMs: 600_000, maxDelayMs: 600_000, totalMs: 3_600_000 } });
    const socket = await first;
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const base = timers();
    socket.terminate();
    // The client sees the drop and starts its 10-minute wait; poll (no time bound) until the timer of that wait exists.
    let during = base;
    while (during <= base) {
      await new Promise((resolve) => setImmediate(resolve));
      during = timers();
    }
    session.close();
    assert.equal(timers(), during - 1, 'the backoff timer is cleared by close()');
  } finally {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});

/**
 * `/v1/stream` used to refuse a resume of an ended session with close code 1000, a normal closure: the SDK then reported
 * a lost connection (`PARLEY_CLIENT_CLOSED`) rather than the end, and a refusal whose `error` frame was lost was retried
 * until the resume budget ran out. The refusal closes with 4001 now, which the SDK surfaces as the session's end.
 */
const endedRefusal = JSON.stringify({
  type: 'error', session_id: null, seq: 0, code: 'PARLEY_ERR_SESSION_ENDED', fatal: true,
  message: 'session c ended at 2026-12-05T00:00:00.000Z and cannot be resumed; start a new session with another session_id',
});

for (const frame of [true, false]) {
  test(`@parley/client: a resume refused because the session ended (4001${frame ? '' : ', its error frame lost'}) ends the stream with PARLEY_ERR_SESSION_ENDED, not tried again`, { timeout: 60_000 }, async () => {
    const { wss, url, next } = await standIn();
    try {
      const client = new ParleyClient({ baseUrl: url });
      const first = next().then((s) => { s.send(started(false)); return s; });
      const session = await client.stream({ resume: { delayMs: 1, maxDelayMs: 1, totalMs: 3_600_000 } });
      const failure = (async () => { for await (const _ of session) { /* drained */ } })().then(() => null, (err: unknown) => err);
      (await first).terminate(); // a drop: the SDK resumes
      const second = await next();
      if (frame) second.send(endedRefusal);
      second.close(4001, 'PARLEY_ERR_SESSION_ENDED');
      const err = (await failure) as ParleyError;
      assert.ok(err instanceof ParleyError, String(err));
      assert.equal(err.code, 'PARLEY_ERR_SESSION_ENDED');
      assert.equal(err.closeCode, SESSION_ENDED_CLOSE);
      assert.equal(err.fatal, true);
      assert.match(err.message, frame ? /ended while the stream was disconnected: session c ended at/ : /ended while the stream was disconnected: the session has ended and cannot be resumed \(4001/);
      assert.throws(() => session.send({ type: 'input.commit' }), { code: 'PARLEY_ERR_SESSION_ENDED' });
      // The stream finished at the refusal: before, a refusal without its frame was retried until the resume's budget
      // (an hour here) ran out, and this test timed out.
      assert.equal(session.reconnects, 0);
    } finally {
      for (const c of wss.clients) c.terminate();
      await new Promise((resolve) => wss.close(resolve));
    }
  });
}

/** The next JSON text message a stand-in socket receives. */
const nextJson = (socket: WebSocket): Promise<Record<string, unknown>> => new Promise((resolve) => {
  const onMessage = (data: Buffer, isBinary: boolean): void => {
    if (isBinary) return;
    socket.off('message', onMessage);
    resolve(JSON.parse(data.toString()) as Record<string, unknown>);
  };
  socket.on('message', onMessage);
});

test('@parley/client: an id-less utterance goes out with the SDK\'s id; a late answer to an old socket\'s message, on the new socket, acknowledges that message only', { timeout: 60_000 }, async () => {
  const { wss, url, next } = await standIn();
  try {
    const { session, socket: socket1 } = await openOn(url, next);
    const oldSent = nextJson(socket1);
    const memo = { type: 'utterance' as const, speaker: 'Tex', text: 'Old memo.' };
    session.send(memo);
    const old = await oldSent;
    assert.match(String(old.utterance_id), /^sdk-/, 'the SDK gave it an id');
    assert.equal((memo as { utterance_id?: string }).utterance_id, undefined, 'the application\'s object is unchanged');
    socket1.terminate();

    const socket2 = await next();
    const resent = nextJson(socket2);
    socket2.send(started(true));
    assert.equal((await resent).utterance_id, old.utterance_id, 'unacknowledged at the drop: sent again with the same id');
    const newerSent = nextJson(socket2);
    session.send({ type: 'utterance', speaker: 'Tex', text: 'New memo.' });
    const newer = await newerSent;
    const acked = session.waitFor('transcript.final');
    socket2.send(JSON.stringify({
      type: 'transcript.final', session_id: 'c', seq: 2, turn_id: 'turn_1', utterance_id: old.utterance_id, text: 'Old memo.',
      start_ms: null, end_ms: null, confidence: null, speaker: { id: 'p_1', name: 'Tex', confidence: 1, is_new: false }, addressees: [],
    }));
    await acked;
    socket2.terminate();

    const socket3 = await next();
    const again = nextJson(socket3);
    socket3.send(started(true));
    assert.equal((await again).utterance_id, newer.utterance_id, 'the newer one, never acknowledged, is what goes out again');
    assert.equal(session.resentMessages, 2);
    assert.deepEqual(session.lostMessages, []);
    session.close();
  } finally {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});
