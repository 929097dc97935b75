import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ParleyError } from '../../clients/typescript/src/index.js';
import { appWithClientForSuite } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * Every `error` answering a WebSocket `query` names that query's `id` (an ambiguous or unknown asker, a malformed
 * query, a query after the end), and the SDK rejects that query's promise with it at once, not at its timeout.
 */
describe('errors answering a WebSocket query', () => {
  const suite = appWithClientForSuite();
  const { t } = suite;

  // Two participants named Ana (the second renamed so), and Ben.
  before(async () => {
    await suite.api.postUtterances('two-anas', [{ speaker: 'Ana', text: 'hello' }, { speaker: 'Ann', text: 'hi Ana' }, { speaker: 'Ben', text: 'hi both' }]);
    const ann = await suite.api.participant('Ann');
    const res = await t.app.inject({ method: 'PATCH', url: `/v1/participants/${ann.id}`, payload: { name: 'Ana' } });
    assert.equal(res.statusCode, 200);
  });

  /** The error `call` rejected with (the test fails when it resolved). */
  const failure = (call: Promise<unknown>): Promise<ParleyError> => call.then(
    (value) => assert.fail(`expected an error, got ${JSON.stringify(value)}`),
    (err: unknown) => {
      assert.ok(err instanceof ParleyError, String(err));
      return err;
    },
  );

  test('the server names the query id on each error answering a query, valid or malformed', async () => {
    const ws = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=query-errors-raw`);
    await ws.next('session.started');
    ws.sendJson({ type: 'query', id: 'q-two', question: 'What did I say?', asker: 'Ana' });
    const two = await ws.nextNew('error');
    assert.equal(two.code, 'PARLEY_ERR_CONFLICT');
    assert.equal(two.id, 'q-two');
    ws.sendJson({ type: 'query', id: 'q-none', question: 'What did I say?', asker: 'Nobody Here' });
    const none = await ws.nextNew('error');
    assert.equal(none.code, 'PARLEY_ERR_NOT_FOUND');
    assert.equal(none.id, 'q-none');
    ws.sendJson({ type: 'query', id: 'q-blank', question: '   ' });
    const blank = await ws.nextNew('error');
    assert.equal(blank.code, 'PARLEY_ERR_BAD_FRAME');
    assert.equal(blank.id, 'q-blank');
    // An error answering no query names none.
    ws.sendJson({ type: 'utterance', speaker: 'Ben', text: 'x', start_ms: 5, end_ms: 1 });
    const bad = await ws.nextNew('error');
    assert.equal(bad.code, 'PARLEY_ERR_BAD_FRAME');
    assert.equal(bad.id, undefined);
    // The socket stays open: a good query is still answered.
    ws.sendJson({ type: 'query', id: 'q-ok', question: 'What did Ben say?', asker: 'Ben' });
    assert.equal((await ws.next('query.result', (e) => e.id === 'q-ok')).id, 'q-ok');
    ws.close();
    await ws.closed();
  });

  test('the SDK rejects the refused query at once (query() and waitFor), and forgets it', async () => {
    const session = await suite.api.stream({ sessionId: 'query-errors-sdk' });
    // Timeouts far beyond the test's own: a rejection from the server's error, not a timeout, is what passes.
    const long = { timeoutMs: 600_000 };
    const two = await failure(session.query({ id: 'q-two', question: 'What did I say?', asker: 'Ana' }, long));
    assert.equal(two.code, 'PARLEY_ERR_CONFLICT');
    assert.match(two.message, /names 2 participants/);
    const waited = session.waitFor('query.result', (e) => e.id === 'q-none', long);
    session.send({ type: 'query', id: 'q-none', question: 'What did I say?', asker: 'Nobody Here' });
    const none = await failure(waited);
    assert.equal(none.code, 'PARLEY_ERR_NOT_FOUND');
    // Another query's error does not reject a wait for this one.
    const good = session.query({ question: 'What did Ben say?', asker: 'Ben' }, long);
    const refused = failure(session.query({ id: 'q-three', question: 'x', asker: 'Nobody Here' }, long));
    assert.ok(Array.isArray((await good).evidence));
    assert.equal((await refused).code, 'PARLEY_ERR_NOT_FOUND');
    const ended = await session.end();
    assert.equal(ended.type, 'session.ended');
    // Nothing waits any more: a refused query is not reported lost later.
    assert.deepEqual(session.lostMessages, []);
  });
});
