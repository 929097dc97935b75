import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { refusedUpgrade } from '../helpers/refused-upgrade.js';
import { TestWsClient } from '../helpers/ws-client.js';

// Blank (empty or whitespace-only) ids, questions and participant filters used to be accepted: a blank
// external_id was given to the caller, a blank question was searched, `?speaker=%20` answered 404.
describe('blank input is refused with a clear 400 (or error frame), and the documents list every 400', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp(); });
  after(async () => { await t.close(); });

  test('/v1/stream: a blank external_id, or a bad session_id, fails the upgrade with HTTP 400 naming the parameter', async () => {
    for (const blank of ['%20%20', '%09']) {
      const r = await refusedUpgrade(`${t.wsUrl}/v1/stream?session_id=blank-ext&external_id=${blank}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.error.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.equal(r.body.error.message, 'querystring/external_id must not be blank (empty or only whitespace)');
    }
    const empty = await refusedUpgrade(`${t.wsUrl}/v1/stream?external_id=`);
    assert.equal(empty.status, 400);
    assert.match(empty.body.error.message, /external_id/);
    const badId = await refusedUpgrade(`${t.wsUrl}/v1/stream?session_id=no%20spaces`);
    assert.equal(badId.status, 400);
    assert.equal(badId.body.error.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(badId.body.error.message, /^querystring\/session_id must match pattern/);
    assert.equal(await t.app.stores.graph.getSession('default', 'blank-ext'), null, 'no session was opened');
  });

  test('WebSocket query and participant.identify: a blank question or external_id is a non-fatal BAD_FRAME saying so', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=blank-ws`);
    await ws.next('session.started');
    for (const [message, path] of [
      [{ type: 'query', id: 'q1', question: '   ' }, '/question'],
      [{ type: 'query', id: 'q2', question: 'Where?', asker: ' ' }, '/asker'],
      [{ type: 'participant.identify', external_id: ' \t' }, '/external_id'],
    ] as const) {
      const pending = ws.nextNew('error');
      ws.sendJson(message);
      const err = await pending;
      assert.equal(err.code, 'PARLEY_ERR_BAD_FRAME');
      assert.equal(err.fatal, false);
      assert.equal(err.message, `${message.type}: ${path} must not be blank (empty or only whitespace)`);
    }
    ws.close();
  });

  test('POST /v1/query: a blank question, speaker or addressee is a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ question: '  ' }, 'question'],
      [{ question: '\n' }, 'question'],
      [{ question: 'Where does Ana live?', speaker: ' ' }, 'speaker'],
      [{ question: 'Where does Ana live?', addressee: '\t' }, 'addressee'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/query', payload: body });
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.deepEqual(res.json(), { error: { code: 'PARLEY_ERR_BAD_REQUEST', message: `body/${field} must not be blank (empty or only whitespace)` } });
    }
  });

  test('GET /v1/interactions and /v1/memories: a blank participant filter is a 400, not a 404; so is a blank {ref} in a path', async () => {
    for (const url of ['/v1/interactions?speaker=%20', '/v1/interactions?addressee=%20', '/v1/memories?participant=%20']) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 400, url);
      const param = /\?(\w+)=/.exec(url)![1];
      assert.deepEqual(res.json(), { error: { code: 'PARLEY_ERR_BAD_REQUEST', message: `querystring/${param} must not be blank (empty or only whitespace)` } });
    }
    for (const url of ['/v1/participants/%20', '/v1/participants/%20/persona']) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 400, url);
      assert.deepEqual(res.json(), { error: { code: 'PARLEY_ERR_BAD_REQUEST', message: 'params/id must not be blank (empty or only whitespace)' } });
    }
  });

  test('/openapi.json: every operation that takes a parameter or a body documents its 400, and those routes do answer 400', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string; parameters?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const missing: string[] = [];
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        if ((op.parameters?.length || op.requestBody) && !op.responses['400']) missing.push(op.operationId);
      }
    }
    assert.deepEqual(missing, []);
    const long = 'x'.repeat(129);
    for (const url of [`/v1/utterances/${long}`, `/v1/utterances/${long}/audio`, `/v1/participants/${'x'.repeat(201)}`, '/v1/sessions/bad%20id/events']) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 400, url);
      assert.equal((res.json() as { error: { code: string } }).error.code, 'PARLEY_ERR_BAD_REQUEST', url);
    }
    for (const url of [`/v1/memories/${long}`, `/v1/participants/${'x'.repeat(201)}`]) {
      assert.equal((await t.app.inject({ method: 'DELETE', url })).statusCode, 400, `DELETE ${url}`);
    }
  });
});
