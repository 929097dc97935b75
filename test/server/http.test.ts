import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';

describe('HTTP API', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, false);
  });
  after(async () => {
    await t.close();
  });

  const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });

  test('imports utterances, infers addressees, and serves the transcript', async () => {
    const res = await post('/v1/sessions/s-http/utterances', {
      utterances: [
        { speaker: 'Ana', text: 'Ben, I will send you the draft on Friday', start_ms: 0, end_ms: 2100 },
        { speaker: 'Ben', text: 'Great, thanks.', time: '2026-11-02T09:00:00Z' },
        { speaker: 'Ana', text: 'See you all tomorrow', addressees: ['Ben', 'Cy'] },
      ],
    });
    assert.equal(res.statusCode, 201);
    const ids = res.json().utterance_ids as string[];
    assert.equal(ids.length, 3);

    const transcript = (await t.app.inject({ url: '/v1/sessions/s-http/transcript' })).json();
    const [u1, u2, u3] = transcript.utterances;
    assert.equal(u1.speaker.name, 'Ana');
    assert.deepEqual(u1.addressees.map((a: { name: string }) => a.name), ['Ben'], 'vocative name');
    assert.deepEqual(u2.addressees.map((a: { name: string }) => a.name), ['Ana'], 'two-party reply');
    assert.equal(u2.time, '2026-11-02T09:00:00.000Z');
    assert.deepEqual(u3.addressees.map((a: { name: string }) => a.name).sort(), ['Ben', 'Cy'], 'given addressees');
    assert.equal(u1.start_ms, 0);
    assert.equal(u1.end_ms, 2100);
    assert.deepEqual(transcript.utterances.map((u: { id: string }) => u.id), ids);
  });

  test('who said what to whom', async () => {
    const people = (await t.app.inject({ url: '/v1/participants' })).json().participants as { id: string; name: string }[];
    const ana = people.find((p) => p.name === 'Ana')!;
    const ben = people.find((p) => p.name === 'Ben')!;
    const res = await t.app.inject({ url: `/v1/interactions?speaker=${ana.id}&addressee=${ben.id}` });
    assert.equal(res.statusCode, 200);
    const texts = res.json().interactions.map((u: { text: string }) => u.text);
    assert.deepEqual(texts.sort(), ['Ben, I will send you the draft on Friday', 'See you all tomorrow']);
    const none = await t.app.inject({ url: `/v1/interactions?speaker=${ben.id}&addressee=${ben.id}` });
    assert.deepEqual(none.json().interactions, []);
  });

  test('participants: read, patch, erase everywhere', async () => {
    const people = (await t.app.inject({ url: '/v1/participants' })).json().participants as { id: string; name: string }[];
    const cy = people.find((p) => p.name === 'Cy')!;
    const patched = await t.app.inject({
      method: 'PATCH', url: `/v1/participants/${cy.id}`,
      payload: { name: 'Cyrus', aliases: ['Cy'], attributes: { role: 'designer' } },
    });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().name, 'Cyrus');
    assert.deepEqual(patched.json().aliases, ['Cy']);
    assert.equal((await t.app.inject({ url: `/v1/participants/${cy.id}` })).json().attributes.role, 'designer');

    const ana = people.find((p) => p.name === 'Ana')!;
    const erased = await t.app.inject({ method: 'DELETE', url: `/v1/participants/${ana.id}` });
    assert.equal(erased.statusCode, 200);
    assert.equal(erased.json().erased_utterances, 2);
    assert.equal((await t.app.inject({ url: `/v1/participants/${ana.id}` })).statusCode, 404);
    const transcript = (await t.app.inject({ url: '/v1/sessions/s-http/transcript' })).json();
    assert.deepEqual(transcript.utterances.map((u: { text: string }) => u.text), ['Great, thanks.']);
    const hits = await t.app.stores.lexical.search('default', 'draft Friday', 5);
    assert.deepEqual(hits, [], 'erased utterances leave the keyword index too');
  });

  test('bad input gets a clear error and keeps stored data', async () => {
    const before = (await t.app.inject({ url: '/v1/sessions/s-http/transcript' })).json().utterances.length;
    const cases: [unknown, RegExp][] = [
      [{ utterances: [] }, /fewer than 1/],
      [{ utterances: [{ speaker: 'A' }] }, /text/],
      [{ utterances: [{ speaker: 'A', text: 'x', start_ms: 5, end_ms: 1 }] }, /end_ms is before start_ms/],
      [{ utterances: [{ speaker: 'A', text: 'x', time: 'yesterday' }] }, /date-time/],
      [{ utterances: [{ speaker: 'A', text: 'x', extra: 1 }] }, /additional/],
    ];
    for (const [payload, message] of cases) {
      const res = await post('/v1/sessions/s-http/utterances', payload);
      assert.equal(res.statusCode, 400, JSON.stringify(payload));
      assert.equal(res.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.match(res.json().error.message, message);
      assert.doesNotMatch(res.body, /at .*\.js:\d+/, 'no stack trace');
    }
    const broken = await t.app.inject({
      method: 'POST', url: '/v1/sessions/s-http/utterances', headers: { 'content-type': 'application/json' }, payload: '{"utter',
    });
    assert.equal(broken.statusCode, 400);
    assert.equal(broken.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
    const badId = await post('/v1/sessions/bad%20id/utterances', { utterances: [{ speaker: 'A', text: 'x' }] });
    assert.equal(badId.statusCode, 400);
    assert.equal((await t.app.inject({ url: '/v1/sessions/nope/transcript' })).json().error.code, 'PARLEY_ERR_NOT_FOUND');
    assert.equal((await t.app.inject({ url: '/v1/nothing' })).statusCode, 404);
    const patch = await t.app.inject({ method: 'PATCH', url: '/v1/participants/p_x', payload: { name: 'Z' } });
    assert.equal(patch.statusCode, 404);
    const after = (await t.app.inject({ url: '/v1/sessions/s-http/transcript' })).json().utterances.length;
    assert.equal(after, before);
  });

  test('ending a session queues end-of-session consolidation', async () => {
    const res = await post('/v1/sessions/s-http/end', {});
    assert.equal(res.statusCode, 202);
    assert.ok(res.json().job_id);
    assert.equal((await post('/v1/sessions/never/end', {})).statusCode, 404);
  });

  test('health, readiness, metrics and OpenAPI', async () => {
    assert.deepEqual((await t.app.inject({ url: '/healthz' })).json(), { status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json().checks, { graph: true, vectors: true, lexical: true, queue: true, memory: true, events: true });
    const metrics = await t.app.inject({ url: '/metrics' });
    assert.match(metrics.body, /parley_utterances_stored_total\{source="http"\} 3/);
    const spec = (await t.app.inject({ url: '/openapi.json' })).json();
    for (const path of ['/v1/sessions/{session_id}/utterances', '/v1/sessions/{session_id}/transcript', '/v1/interactions', '/v1/participants/{id}', '/readyz']) {
      assert.ok(spec.paths[path], `OpenAPI documents ${path}`);
    }
  });
});

describe('HTTP API: finding people', () => {
  let t2: TestApp;
  before(async () => {
    t2 = await startTestApp({}, false);
  });
  after(async () => {
    await t2.close();
  });
  const postTo = (url: string, payload: unknown) => t2.app.inject({ method: 'POST', url, payload: payload as object });

  test('people are found by name in any case, non-ASCII too, and when named though not in the session', async () => {
    assert.equal((await postTo('/v1/sessions/s-names-1/utterances', { utterances: [{ speaker: 'Émile', text: 'Bonjour' }] })).statusCode, 201);
    const res = await postTo('/v1/sessions/s-names-2/utterances', {
      utterances: [
        { speaker: 'Dora', text: 'hi émile, welcome back' },
        { speaker: 'ÉMILE', text: 'Thanks Dora' },
      ],
    });
    assert.equal(res.statusCode, 201);
    const [u1, u2] = (await t2.app.inject({ url: '/v1/sessions/s-names-2/transcript' })).json().utterances;
    assert.deepEqual(u1.addressees.map((a: { name: string }) => a.name), ['Émile'], 'named, though not in this session');
    assert.equal(u2.speaker.name, 'Émile', 'the same person, not a new one');
    const people = (await t2.app.inject({ url: '/v1/participants' })).json().participants as { name: string }[];
    assert.equal(people.filter((p) => p.name.toLowerCase() === 'émile').length, 1);
  });
});
