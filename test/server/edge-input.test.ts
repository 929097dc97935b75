import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ParleyError } from '../../clients/typescript/src/index.js';
import { appWithClientForSuite } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

// Inputs at the edges of the documented limits: each gets a Parley error body, never a 5xx.
describe('edge-of-contract input', () => {
  const suite = appWithClientForSuite();
  const { t } = suite;

  /** The error a call failed with (the test fails when it succeeded). */
  const failure = (call: Promise<unknown>): Promise<ParleyError> => call.then(
    (value) => assert.fail(`expected an error, got ${JSON.stringify(value)}`),
    (err: ParleyError) => err,
  );

  test('a leap-second timestamp is stored as the last millisecond of its minute', async () => {
    const stored = await suite.api.postUtterances('leap', [{ speaker: 'Ana', text: 'Happy new year', time: '2016-12-31T23:59:60Z' }]);
    assert.equal(stored.utterance_ids.length, 1);
    const list = await suite.api.interactions({ session_id: 'leap', since: '2016-12-31T23:59:60Z' });
    assert.equal(list[0]?.time, '2016-12-31T23:59:59.999Z');
  });

  test('ids of up to 128 characters (participant references: 200) reach the route; longer ones get a Parley 400', async () => {
    const id128 = `p_${'a'.repeat(126)}`;
    const found = await failure(suite.api.participant(id128));
    assert.equal(found.status, 404);
    assert.equal(found.code, 'PARLEY_ERR_NOT_FOUND');
    const session = await suite.api.postUtterances('s'.repeat(128), [{ speaker: 'Ana', text: 'hello' }]);
    assert.equal(session.utterance_ids.length, 1);
    // A participant reference may also be an external id or a name: up to 200 characters.
    assert.equal((await failure(suite.api.participant('é'.repeat(200)))).status, 404);
    const tooLong = await failure(suite.api.participant('a'.repeat(201)));
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.code, 'PARLEY_ERR_BAD_REQUEST');
  });

  test('message types named like Object.prototype members are unknown types, not internal errors', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=proto`);
    await ws.next('session.started');
    for (const type of ['__proto__', 'toString', 'constructor', 'hasOwnProperty']) {
      // Raw on purpose: the SDK's typed send has no such message types.
      ws.sendJson({ type });
      const err = await ws.nextNew('error');
      assert.equal(err.code, 'PARLEY_ERR_UNKNOWN_TYPE', type);
    }
    ws.close();
  });

  test('session metadata is capped, and a refused update keeps what was stored', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=meta`);
    await ws.next('session.started');
    ws.session!.send({ type: 'session.update', session: { language: 'en' } });
    await ws.nextNew('session.updated');
    ws.session!.send({ type: 'session.update', session: { blob: 'x'.repeat(70 * 1024) } });
    const err = await ws.nextNew('error');
    assert.equal(err.code, 'PARLEY_ERR_BAD_REQUEST');
    ws.session!.send({ type: 'session.update', session: { topic: 'garden' } });
    const updated = await ws.nextNew('session.updated');
    assert.deepEqual(updated.session, { language: 'en', topic: 'garden' });
    ws.close();
  });
});
