import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// What a newcomer met on the HTTP API: wrong JSON types, framework errors, blank input, ended sessions.
describe('HTTP contract', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({}, false); });
  after(async () => { await t.close(); });

  const call = async (opts: InjectOptions): Promise<{ status: number; body: Record<string, any> }> => {
    const res = await t.app.inject(opts);
    return { status: res.statusCode, body: res.body ? res.json() : {} };
  };
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => call({ method: 'POST', url, payload: payload as object, headers });
  const badRequest = (res: { status: number; body: Record<string, any> }, field: RegExp): void => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(res.body.error.message, field);
  };

  test('bodies are validated strictly: a number or an array where a string belongs is a 400 naming the field', async () => {
    badRequest(await post('/v1/sessions/types/utterances', { utterances: [{ speaker: 'Ana', text: 5 }] }), /text/);
    badRequest(await post('/v1/sessions/types/utterances', { utterances: [{ speaker: 12, text: 'hi' }] }), /speaker/);
    assert.equal((await call({ method: 'GET', url: '/v1/sessions/types/transcript' })).status, 404, 'nothing was stored');
    assert.equal((await post('/v1/sessions/types/utterances', { utterances: [{ speaker: 'Ana', text: 'hi' }] })).status, 201);
    badRequest(await call({ method: 'PATCH', url: '/v1/participants/Ana', payload: { name: 5 } }), /name/);
    badRequest(await call({ method: 'PATCH', url: '/v1/participants/Ana', payload: { name: ['Bob'] } }), /name/);
    badRequest(await post('/v1/query', { question: 'what?', k: '3' }), /k/);
    assert.equal((await call({ method: 'GET', url: '/v1/participants/Ana' })).body.name, 'Ana');
  });

  test('query strings are still read as numbers and booleans', async () => {
    const page = await call({ method: 'GET', url: '/v1/sessions/types/transcript?limit=1&after_seq=0' });
    assert.equal(page.status, 200);
    assert.equal(page.body.utterances.length, 1);
    assert.equal((await call({ method: 'GET', url: '/v1/memories?include_history=true&limit=5' })).status, 200);
    assert.equal((await call({ method: 'GET', url: '/v1/participants?limit=1' })).body.participants.length, 1);
    badRequest(await call({ method: 'GET', url: '/v1/participants?limit=many' }), /limit/);
  });

  test('framework errors use the Parley envelope too', async () => {
    const res = await call({ method: 'GET', url: `/v1/sessions/${'s'.repeat(3000)}/transcript` });
    assert.ok(res.status >= 400 && res.status < 500, String(res.status));
    assert.equal(typeof res.body.error, 'object', JSON.stringify(res.body));
    assert.match(res.body.error.code, /^PARLEY_ERR_/);
    assert.equal(typeof res.body.error.message, 'string');
  });

  test('blank text and an empty Idempotency-Key are refused', async () => {
    badRequest(await post('/v1/sessions/blank/utterances', { utterances: [{ speaker: 'Ana', text: '   ' }] }), /text/);
    badRequest(await post('/v1/sessions/blank/utterances', { utterances: [{ speaker: 'Ana', text: 'hello' }] }, { 'idempotency-key': '' }), /idempotency-key/i);
    assert.equal((await call({ method: 'GET', url: '/v1/sessions/blank/transcript' })).status, 404, 'nothing was stored');
  });

  test('ending a session twice is one end and one job; utterances after the end are refused', async () => {
    assert.equal((await post('/v1/sessions/ending/utterances', { utterances: [{ speaker: 'Ana', text: 'bye now' }] })).status, 201);
    const first = await post('/v1/sessions/ending/end', undefined);
    const second = await post('/v1/sessions/ending/end', undefined);
    assert.equal(first.status, 202);
    assert.equal(second.status, 202);
    assert.deepEqual(second.body, first.body);
    const late = await post('/v1/sessions/ending/utterances', { utterances: [{ speaker: 'Ana', text: 'one more thing' }] });
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, 'PARLEY_ERR_SESSION_ENDED');
    assert.equal((await call({ method: 'GET', url: '/v1/sessions/ending/transcript' })).body.utterances.length, 1);
  });

  test('an unknown session is a 404 on interactions as on the transcript; a bad layer names the valid ones', async () => {
    const res = await call({ method: 'GET', url: '/v1/interactions?session_id=nosuch' });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'PARLEY_ERR_NOT_FOUND');
    badRequest(await call({ method: 'GET', url: '/v1/memories?layer=bogus' }), /fact.*profile/);
  });
});

describe('HTTP: renaming a participant', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({}, false); });
  after(async () => { await t.close(); });

  test('the old name stays as an alias, so later utterances under it reach the same person', async () => {
    const stored = await t.app.inject({ method: 'POST', url: '/v1/sessions/r1/utterances', payload: { utterances: [{ speaker: 'Ana', text: 'hello there' }] } });
    assert.equal(stored.statusCode, 201);
    const id = (await t.app.inject({ url: '/v1/participants/Ana' })).json().id as string;
    const renamed = await t.app.inject({ method: 'PATCH', url: '/v1/participants/Ana', payload: { name: 'Anna' } });
    assert.equal(renamed.statusCode, 200);
    assert.equal(renamed.json().name, 'Anna');
    assert.deepEqual(renamed.json().aliases, ['Ana']);
    await t.app.inject({ method: 'POST', url: '/v1/sessions/r2/utterances', payload: { utterances: [{ speaker: 'Ana', text: 'me again' }] } });
    const people = (await t.app.inject({ url: '/v1/participants' })).json().participants as { id: string }[];
    assert.deepEqual(people.map((p) => p.id), [id], 'no new participant');
  });

  test('an old name another participant holds is not taken as an alias', async () => {
    await t.app.inject({ method: 'POST', url: '/v1/sessions/r3/utterances', payload: { utterances: [{ speaker: 'Bo', text: 'hi' }, { speaker: 'Cy', text: 'hey' }] } });
    // A PATCH may not give Cy the name Bo holds (409); an older store or a self-introduction heard where Bo was
    // absent can still hold it, as this store write does.
    assert.equal((await t.app.inject({ method: 'PATCH', url: '/v1/participants/Cy', payload: { aliases: ['Bo'] } })).statusCode, 409);
    const cy = (await t.app.inject({ url: '/v1/participants' })).json().participants.find((p: { name: string }) => p.name === 'Cy');
    await t.app.stores.graph.updateParticipant('default', cy.id, { aliases: ['Bo'] });
    assert.equal((await t.app.inject({ method: 'GET', url: '/v1/participants/Bo' })).statusCode, 409);
    // Bo's name is also Cy's alias: renaming Bo does not hand "Bo" to him as an alias too.
    const bo = (await t.app.inject({ url: '/v1/participants' })).json().participants.find((p: { name: string }) => p.name === 'Bo');
    const renamed = await t.app.inject({ method: 'PATCH', url: `/v1/participants/${bo.id}`, payload: { name: 'Bob' } });
    assert.deepEqual(renamed.json().aliases, []);
  });
});

describe('HTTP: memories of a participant', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({}, false); });
  after(async () => { await t.close(); });

  test('role= tells facts about a participant from facts others told them', async () => {
    const stored = await t.app.inject({
      method: 'POST', url: '/v1/sessions/roles/utterances',
      payload: { utterances: [{ speaker: 'Ana', text: 'I live in Porto.', addressees: ['Ben'] }, { speaker: 'Ben', text: 'I love sushi.', addressees: ['Ana'] }] },
    });
    assert.equal(stored.statusCode, 201);
    await drainConsolidation(t.app.stores.queue, 60_000);
    const texts = async (query: string): Promise<string[]> => {
      const res = await t.app.inject({ url: `/v1/memories?participant=Ben${query}` });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().memories as { text: string }[]).map((m) => m.text);
    };
    const any = await texts('');
    assert.ok(any.some((x) => /Porto/.test(x)) && any.some((x) => /sushi/.test(x)), any.join(' | '));
    const about = await texts('&role=subject');
    assert.ok(about.some((x) => /sushi/.test(x)) && !about.some((x) => /Porto/.test(x)), about.join(' | '));
    const told = await texts('&role=addressee');
    assert.ok(told.some((x) => /Porto/.test(x)) && !told.some((x) => /sushi/.test(x)), told.join(' | '));
  });
});
