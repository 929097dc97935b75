import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

const A = 'key-alpha-123';
const B = 'key-bravo-456';

describe('tenancy with PARLEY_API_KEYS', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ PARLEY_API_KEYS: `${A}:tenantA,${B}:tenantB` });
  });
  after(async () => {
    await t.close();
  });

  const as = (key: string) => ({ authorization: `Bearer ${key}` });

  test('every route but /healthz needs a known key', async () => {
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200, 'liveness probes send no key');
    for (const url of ['/v1/participants', '/v1/interactions', '/readyz', '/metrics', '/v1/sessions/x/transcript']) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 401, url);
      assert.equal(res.json().error.code, 'PARLEY_ERR_UNAUTHORIZED');
    }
    assert.equal((await t.app.inject({ url: '/v1/participants', headers: as('wrong-key-000') })).statusCode, 401);
    await assert.rejects(TestWsClient.connect(`${t.wsUrl}/v1/stream`), { code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
    await assert.rejects(TestWsClient.connect(`${t.wsUrl}/v1/stream?token=wrong-key-000`), { code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
  });

  test('tenant A never sees tenant B', async () => {
    const wrote = await t.app.inject({
      method: 'POST', url: '/v1/sessions/shared-id/utterances', headers: as(A),
      payload: { utterances: [{ speaker: 'Ana', text: 'my secret plan for Friday' }] },
    });
    assert.equal(wrote.statusCode, 201);
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=shared-id&token=${B}`);
    await ws.next('session.started');
    ws.sendJson({ type: 'utterance', speaker: 'Bob', text: 'tenant B speaking' });
    await ws.next('transcript.final');
    ws.sendJson({ type: 'query', id: 'q', question: 'secret plan Friday' });
    const result = await ws.next('query.result');
    const texts = (result.evidence as { text: string }[]).map((e) => e.text);
    assert.ok(!texts.some((t) => t.includes('secret')), `B cannot retrieve A: ${texts.join(' | ')}`);
    ws.close();

    const aTranscript = (await t.app.inject({ url: '/v1/sessions/shared-id/transcript', headers: as(A) })).json();
    const bTranscript = (await t.app.inject({ url: '/v1/sessions/shared-id/transcript', headers: as(B) })).json();
    assert.deepEqual(aTranscript.utterances.map((u: { text: string }) => u.text), ['my secret plan for Friday']);
    assert.deepEqual(bTranscript.utterances.map((u: { text: string }) => u.text), ['tenant B speaking']);

    const aPeople = (await t.app.inject({ url: '/v1/participants', headers: as(A) })).json().participants;
    const bPeople = (await t.app.inject({ url: '/v1/participants', headers: as(B) })).json().participants;
    assert.deepEqual(aPeople.map((p: { name: string }) => p.name), ['Ana']);
    assert.deepEqual(bPeople.map((p: { name: string }) => p.name), ['Bob']);
    const anaId = aPeople[0].id as string;
    assert.equal((await t.app.inject({ url: `/v1/participants/${anaId}`, headers: as(B) })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/participants/${anaId}`, headers: as(B) })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'PATCH', url: `/v1/participants/${anaId}`, headers: as(B), payload: { name: 'x' } })).statusCode, 404);
    const bSeesInteractions = (await t.app.inject({ url: `/v1/interactions?speaker=${anaId}`, headers: as(B) })).json();
    assert.deepEqual(bSeesInteractions.interactions, []);
    assert.equal((await t.app.inject({ url: `/v1/participants/${anaId}`, headers: as(A) })).statusCode, 200);
  });
});
