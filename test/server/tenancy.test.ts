import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { appForSuite, startTestApp } from '../helpers/app.js';
import WebSocket from 'ws';
import { TestWsClient } from '../helpers/ws-client.js';
import { ParleyClient } from '../../clients/typescript/src/index.js';

const A = 'key-alpha-123';
const B = 'key-bravo-456';

describe('tenancy with PARLEY_API_KEYS', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_API_KEYS: `${A}:tenantA,${B}:tenantB` }));

  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  test('every route needs a known key', async () => {
    for (const url of ['/v1/participants', '/v1/interactions', '/readyz', '/metrics', '/mcp', '/v1/sessions/x/transcript']) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 401, url);
      assert.equal(res.json().error.code, 'PARLEY_ERR_UNAUTHORIZED');
    }
    assert.equal((await t.app.inject({ url: '/v1/participants', headers: as('wrong-key-000') })).statusCode, 401);
    await assert.rejects(TestWsClient.connect(`${t.wsUrl}/v1/stream`), {
      code: 'PARLEY_ERR_UNAUTHORIZED', status: 401, message: /Authorization: Bearer <key>.*\?token=<key>/,
    });
    await assert.rejects(TestWsClient.connect(`${t.wsUrl}/v1/stream?token=wrong-key-000`), { code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
  });

  test('a valid key in ?token= on a REST route is refused with where ?token= is accepted', async () => {
    const res = await t.app.inject({ url: `/v1/memories?limit=1&token=${A}` });
    assert.equal(res.statusCode, 401);
    assert.match(res.json().error.message, /\?token= is accepted only on the WebSocket and event-stream routes; this route needs Authorization: Bearer <key>/);
    assert.equal((await t.app.inject({ url: '/v1/memories?limit=1', headers: as(A) })).statusCode, 200);
  });

  test('tenant A never sees tenant B', async () => {
    const a = new ParleyClient({ baseUrl: t.httpUrl, apiKey: A });
    const b = new ParleyClient({ baseUrl: t.httpUrl, apiKey: B });
    await a.postUtterances('shared-id', [{ speaker: 'Ana', text: 'my secret plan for Friday' }]);
    const session = await b.stream({ sessionId: 'shared-id' });
    session.send({ type: 'utterance', speaker: 'Bob', text: 'tenant B speaking' });
    await session.waitFor('transcript.final');
    session.send({ type: 'query', id: 'q', question: 'secret plan Friday' });
    const result = await session.waitFor('query.result');
    const texts = result.evidence.map((e) => e.text);
    assert.ok(!texts.some((t) => t.includes('secret')), `B cannot retrieve A: ${texts.join(' | ')}`);
    session.close();

    assert.deepEqual((await a.transcript('shared-id')).utterances.map((u) => u.text), ['my secret plan for Friday']);
    assert.deepEqual((await b.transcript('shared-id')).utterances.map((u) => u.text), ['tenant B speaking']);

    const aPeople = await a.participants();
    const bPeople = await b.participants();
    assert.deepEqual(aPeople.map((p) => p.name), ['Ana']);
    assert.deepEqual(bPeople.map((p) => p.name), ['Bob']);
    const anaId = aPeople[0]!.id;
    const notFound = { code: 'PARLEY_ERR_NOT_FOUND', status: 404 };
    await assert.rejects(b.participant(anaId), notFound);
    await assert.rejects(b.eraseParticipant(anaId), notFound);
    await assert.rejects(b.updateParticipant(anaId, { name: 'x' }), notFound);
    // Another tenant's participant is unknown here: a 404, as for any participant filter that names nobody.
    await assert.rejects(b.interactions({ speaker: anaId }), notFound);
    assert.equal((await a.participant(anaId)).name, 'Ana');
  });
});

describe('without PARLEY_API_KEYS: only requests addressed to a loopback host (DNS rebinding)', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_ALLOWED_HOSTS: 'parley.tunnel.test' }));

  test('a page whose own name resolved to 127.0.0.1 is refused (HTTP and WebSocket); loopback names and listed hosts are answered', async () => {
    for (const host of ['rebound.example.com', 'rebound.example.com:8080', '10.0.0.5:8080', 'localhost.evil.test']) {
      const res = await t.app.inject({ url: '/v1/participants', headers: { host } });
      assert.equal(res.statusCode, 403, host);
      assert.equal(res.json().error.code, 'PARLEY_ERR_FORBIDDEN');
      assert.match(res.json().error.message, /PARLEY_ALLOWED_HOSTS/);
    }
    for (const host of ['localhost', 'localhost:8080', '127.0.0.1:8080', '[::1]:8080', 'app.localhost', 'parley.tunnel.test:443']) {
      assert.equal((await t.app.inject({ url: '/v1/participants', headers: { host } })).statusCode, 200, host);
    }
    // The real socket: the test client addresses 127.0.0.1, and a forged Host on the upgrade is refused.
    // Raw `ws`: the SDK cannot forge a Host header.
    const upgrade = (host?: string) => new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${t.wsUrl}/v1/stream`, host ? { headers: { host } } : {});
      socket.once('open', () => {
        socket.close();
        resolve(101);
      });
      socket.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('error', reject);
    });
    assert.equal(await upgrade(), 101);
    assert.equal(await upgrade('rebound.example.com'), 403);
  });
});
