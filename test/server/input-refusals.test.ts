import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * A newcomer's trial found input accepted that should not be: a speaker or addressee in the form of a
 * participant id that no one holds became a new participant named with the raw id; NUL, control characters
 * and direction overrides went into names and text; an utterance `time` of 9999 was stored (a fact valid
 * from 9999); `since` after `until` answered an empty 200.
 */
describe('input refused with a clear error, nothing stored', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({ PARLEY_ASR: 'none' }); });
  after(async () => { await t.close(); });

  const post = (session: string, utterances: unknown[]) => t.app.inject({
    method: 'POST', url: `/v1/sessions/${session}/utterances`, payload: { utterances },
  });

  test('HTTP: an unknown speaker or addressee in the form of a participant id is a 404 naming it; no participant is made', async () => {
    const stale = 'p_0123456789abcdef0123456789abcdee';
    for (const [utterance, id] of [
      [{ speaker: stale, text: 'hello from a stale id' }, stale],
      [{ speaker: 'Ann', text: 'hello Bo', addressees: ['p_doesnotexist'] }, 'p_doesnotexist'],
    ] as const) {
      const res = await post('raw-ids', [utterance]);
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.json().error.code, 'PARLEY_ERR_NOT_FOUND');
      assert.ok(res.json().error.message.includes(JSON.stringify(id)), res.json().error.message);
    }
    const people = (await t.app.inject({ method: 'GET', url: '/v1/participants' })).json().participants as { name: string | null }[];
    assert.deepEqual(people.filter((p) => p.name?.startsWith('p_')), [], 'no participant is named with a raw id');
    // A participant's real id still works.
    const ok = await post('raw-ids', [{ speaker: 'Ann', text: 'I am here.' }]);
    assert.equal(ok.statusCode, 201, ok.body);
    const ann = (await t.app.inject({ method: 'GET', url: '/v1/participants/Ann' })).json().id as string;
    assert.equal((await post('raw-ids', [{ speaker: ann, text: 'Still me.', addressees: ['Bo'] }])).statusCode, 201, 'an existing id is taken');
  });

  test('WebSocket: the same is a non-fatal PARLEY_ERR_NOT_FOUND naming the id', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=raw-ids-ws`);
    await ws.next('session.started');
    const pending = ws.nextNew('error');
    ws.sendJson({ type: 'utterance', speaker: 'p_0123456789abcdef0123456789abcdef', text: 'hello' });
    const err = await pending;
    assert.equal(err.code, 'PARLEY_ERR_NOT_FOUND');
    assert.equal(err.fatal, false);
    assert.match(String(err.message), /p_0123456789abcdef0123456789abcdef/);
    ws.close();
  });

  test('control characters in a speaker, addressee or participant name, and NUL in text, are a 400 saying so', async () => {
    for (const [utterance, field, what] of [
      [{ speaker: 'Ann\u0000', text: 'hi' }, 'speaker', /control characters/],
      [{ speaker: '\u202Eynnah', text: 'hi' }, 'speaker', /control characters/],
      [{ speaker: 'Ann', text: 'hi', addressees: ['Bo\nb'] }, 'addressees/0', /control characters/],
      [{ speaker: 'Ann', text: 'hi\u0000there' }, 'text', /NUL/],
    ] as const) {
      const res = await post('control-chars', [utterance]);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
      assert.ok(res.json().error.message.startsWith(`body/utterances/0/${field} must not hold`), res.json().error.message);
      assert.match(res.json().error.message, what);
    }
    assert.equal(await t.app.stores.graph.getSession('default', 'control-chars'), null, 'nothing stored');
    assert.equal((await post('control-chars', [{ speaker: 'Zoë\u200D', text: 'ok' }])).statusCode, 201, 'a joiner is no control character');
    const zoe = (await t.app.inject({ method: 'GET', url: '/v1/participants/Zo%C3%AB%E2%80%8D' })).json().id as string;
    const patch = await t.app.inject({ method: 'PATCH', url: `/v1/participants/${zoe}`, payload: { name: 'Zoe\u2066x' } });
    assert.equal(patch.statusCode, 400, patch.body);
    assert.match(patch.json().error.message, /^body\/name must not hold control characters/);
    // A blank one still says it is blank.
    const blank = await post('control-chars', [{ speaker: '  ', text: 'hi' }]);
    assert.equal(blank.json().error.message, 'body/utterances/0/speaker must not be blank (empty or only whitespace)');
  });

  test('WebSocket: a control character in a speaker is a non-fatal BAD_FRAME saying so', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=control-ws`);
    await ws.next('session.started');
    const pending = ws.nextNew('error');
    ws.sendJson({ type: 'utterance', speaker: 'Tex\u0007', text: 'ding' });
    const err = await pending;
    assert.equal(err.code, 'PARLEY_ERR_BAD_FRAME');
    assert.match(String(err.message), /\/speaker must not hold control characters/);
    ws.close();
  });

  test('an utterance time more than a day ahead of the server clock is a 400 naming it; nothing stored', async () => {
    const res = await post('future-time', [{ speaker: 'Ann', text: 'I live in Oslo.', time: '9999-01-01T00:00:00Z' }]);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().error.message, /^utterances\[0\]\.time: 9999-01-01T00:00:00\.000Z is in the future/);
    assert.equal(await t.app.stores.graph.getSession('default', 'future-time'), null);
    const soon = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    assert.equal((await post('future-time', [{ speaker: 'Ann', text: 'I live in Oslo.', time: soon }])).statusCode, 201, 'an hour ahead (clock skew) is taken');
  });

  test('GET /v1/interactions: since later than until is a 400 naming both', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/interactions?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z' });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().error.code, 'PARLEY_ERR_BAD_REQUEST');
    assert.match(res.json().error.message, /since \(2026-02-01T00:00:00Z\) is later than until \(2026-01-01T00:00:00Z\)/);
    const same = await t.app.inject({ method: 'GET', url: '/v1/interactions?since=2026-01-01T00:00:00Z&until=2026-01-01T00:00:00Z' });
    assert.equal(same.statusCode, 200, 'an empty window at one instant is no error');
  });
});
