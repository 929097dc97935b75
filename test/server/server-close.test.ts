import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { closeFromServer, serverClose } from '../../server/ws/server-close.js';

/** A real socket pair: the server's end and the client's. */
async function pair(wss: WebSocketServer): Promise<{ server: WebSocket; client: WebSocket }> {
  const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  const [server] = await accepted;
  await once(client, 'open');
  return { server, client };
}

test('a socket the server ended says why (the first reason given); one the client closed says nothing', async () => {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(wss, 'listening');
  try {
    const sent = await pair(wss);
    const heard = once(sent.client, 'close') as Promise<[number, Buffer]>;
    closeFromServer(sent.server, { code: 4001, reason: 'PARLEY_ERR_SESSION_ENDED', fatal: true });
    closeFromServer(sent.server, { code: 1001, reason: 'server shutting down', fatal: false });
    const [code, reason] = await heard;
    assert.deepEqual([code, reason.toString()], [4001, 'PARLEY_ERR_SESSION_ENDED']);
    assert.deepEqual(serverClose(sent.server), { code: 4001, reason: 'PARLEY_ERR_SESSION_ENDED', fatal: true });

    const left = await pair(wss);
    const closed = once(left.server, 'close');
    left.client.close(1000);
    await closed;
    assert.equal(serverClose(left.server), undefined);
  } finally {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
});
