import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { WebSocketServer, type WebSocket } from 'ws';
import { ParleyClient } from '../../clients/typescript/src/index.js';

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

test('@parley/client: close() while a resume is connecting closes the new socket (1000) instead of leaking it', { timeout: 60_000 }, async () => {
  const { wss, url, next } = await standIn();
  try {
    const client = new ParleyClient({ baseUrl: url });
    const first = next().then((s) => { s.send(started(false)); return s; });
    const session = await client.stream({ resume: { delayMs: 1 } });
    (await first).terminate(); // a drop: the SDK resumes
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
