import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

// Inputs at the edges of the documented limits: each gets a Parley error body, never a 5xx.
describe('edge-of-contract input', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); });

  const post = (url: string, body: unknown) => fetch(`${t.httpUrl}${url}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });

  test('a leap-second timestamp is stored as the last millisecond of its minute', async () => {
    const res = await post('/v1/sessions/leap/utterances', { utterances: [{ speaker: 'Ana', text: 'Happy new year', time: '2016-12-31T23:59:60Z' }] });
    assert.equal(res.status, 201, await res.clone().text());
    const list = await (await fetch(`${t.httpUrl}/v1/interactions?session_id=leap&since=2016-12-31T23:59:60Z`)).json() as { interactions: { time: string }[] };
    assert.equal(list.interactions[0]?.time, '2016-12-31T23:59:59.999Z');
  });

  test('ids of up to 128 characters (participant references: 200) reach the route; longer ones get a Parley 400', async () => {
    const id128 = `p_${'a'.repeat(126)}`;
    const found = await fetch(`${t.httpUrl}/v1/participants/${id128}`);
    assert.equal(found.status, 404);
    assert.equal(((await found.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_NOT_FOUND');
    const session = await post(`/v1/sessions/${'s'.repeat(128)}/utterances`, { utterances: [{ speaker: 'Ana', text: 'hello' }] });
    assert.equal(session.status, 201);
    // A participant reference may also be an external id or a name: up to 200 characters.
    const ref200 = await fetch(`${t.httpUrl}/v1/participants/${encodeURIComponent('é'.repeat(200))}`);
    assert.equal(ref200.status, 404);
    const tooLong = await fetch(`${t.httpUrl}/v1/participants/${'a'.repeat(201)}`);
    assert.equal(tooLong.status, 400);
    assert.equal(((await tooLong.json()) as { error: { code: string } }).error.code, 'PARLEY_ERR_BAD_REQUEST');
  });

  test('message types named like Object.prototype members are unknown types, not internal errors', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=proto`);
    await ws.next('session.started');
    for (const type of ['__proto__', 'toString', 'constructor', 'hasOwnProperty']) {
      ws.sendJson({ type });
      const err = await ws.nextNew('error');
      assert.equal(err.code, 'PARLEY_ERR_UNKNOWN_TYPE', type);
    }
    ws.close();
  });

  test('session metadata is capped, and a refused update keeps what was stored', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=meta`);
    await ws.next('session.started');
    ws.sendJson({ type: 'session.update', session: { language: 'en' } });
    await ws.nextNew('session.updated');
    ws.sendJson({ type: 'session.update', session: { blob: 'x'.repeat(70 * 1024) } });
    const err = await ws.nextNew('error');
    assert.equal(err.code, 'PARLEY_ERR_BAD_REQUEST');
    ws.sendJson({ type: 'session.update', session: { topic: 'garden' } });
    const updated = await ws.nextNew('session.updated');
    assert.deepEqual(updated.session, { language: 'en', topic: 'garden' });
    ws.close();
  });
});
