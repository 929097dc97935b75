import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ParleyClient, ParleyError, SESSION_ENDED_CLOSE, type ServerEvent } from '../../clients/typescript/src/index.js';
import { appForSuite, startTestApp, startTestAppWithClient, type TestApp } from '../helpers/app.js';
import { MAX_QUESTION_CHARS } from '../../server/protocol/ws-messages.js';

/** Collect a session's events in the background, as an application's event loop would. */
function collect(events: AsyncIterable<ServerEvent>): { seen: ServerEvent[]; done: Promise<unknown> } {
  const seen: ServerEvent[] = [];
  const done = (async () => {
    for await (const e of events) seen.push(e);
  })().then(() => null, (err: unknown) => err);
  return { seen, done };
}

describe('@parley/client: stream sessions against the server', () => {
  let t: TestApp;
  let client: ParleyClient;
  before(async () => {
    ({ t, api: client } = await startTestAppWithClient({ PARLEY_SESSION_RESUME_MS: '60000' }));
  });
  after(() => t.close());

  test('typed events in order; end() waits for session.ended and the iterator completes', async () => {
    const session = await client.stream({ sessionId: 'sdk-1' });
    assert.equal(session.sessionId, 'sdk-1');
    const { seen, done } = collect(session);
    session.send({ type: 'utterance', speaker: 'Ana', text: 'Ben, the keys are under the mat.' });
    const final = await session.waitFor('transcript.final');
    assert.equal(final.text, 'Ben, the keys are under the mat.');
    assert.equal(final.speaker.name, 'Ana');
    session.send({ type: 'query', id: 'q1', question: 'Where are the keys?' });
    const answer = await session.waitFor('query.result', (r) => r.id === 'q1');
    assert.ok(answer.evidence.some((item) => /mat/.test(item.text)), 'the stored utterance is found');
    const ended = await session.end();
    assert.equal(ended.type, 'session.ended');
    assert.equal(await done, null, 'the iterator ends without an error after session.ended');
    const types = seen.map((e) => e.type);
    assert.equal(types[0], 'session.started');
    assert.equal(types.at(-1), 'session.ended');
    assert.deepEqual(seen.map((e) => e.seq), seen.map((_, i) => i + 1), 'every event once, in order');
    assert.throws(() => session.send({ type: 'input.commit' }), (err: ParleyError) => err.code === 'PARLEY_ERR_SESSION_ENDED');
  });

  test('after a dropped connection it resumes the same session; what was sent meanwhile goes out after', async () => {
    const session = await client.stream({ sessionId: 'sdk-resume', resume: { attempts: 20, delayMs: 50 } });
    const { seen } = collect(session);
    session.send({ type: 'utterance', speaker: 'Ana', text: 'before the drop' });
    await session.waitFor('transcript.final');
    const resumed = session.waitFor('session.started', () => true, { timeoutMs: 60_000 });
    session.socket!.terminate();
    session.send({ type: 'utterance', speaker: 'Ana', text: 'sent while reconnecting' });
    const again = await resumed;
    assert.equal(again.resumed, true);
    assert.equal(session.reconnects, 1);
    const final = await session.waitFor('transcript.final', (e) => e.text === 'sent while reconnecting', { timeoutMs: 60_000 });
    assert.ok(final.seq > again.seq);
    const seqs = seen.map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'numbering continues across the reconnect');
    assert.equal(new Set(seqs).size, seqs.length);
    const transcript = await client.transcript('sdk-resume');
    assert.deepEqual(transcript.utterances.map((u) => u.text), ['before the drop', 'sent while reconnecting']);
    await session.end();
  });

  test('end() after the session was ended over HTTP answers with that session.ended, no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => { unhandled.push(reason); };
    process.on('unhandledRejection', onUnhandled);
    try {
      const session = await client.stream({ sessionId: 'sdk-ended-http' });
      const { done } = collect(session);
      await client.endSession('sdk-ended-http');
      assert.equal(await done, null, 'the iterator ends with session.ended');
      const ended = await session.end();
      assert.equal(ended.type, 'session.ended');
      // A stream closed otherwise (no session.ended) rejects end() once, and nothing is left unhandled.
      const other = await client.stream({ sessionId: 'sdk-closed', resume: false });
      other.close();
      await assert.rejects(other.end(), { code: 'PARLEY_CLIENT_CLOSED' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('without resume, a drop ends the iterator with PARLEY_CLIENT_CLOSED', async () => {
    const session = await client.stream({ sessionId: 'sdk-noresume', resume: false });
    const { done } = collect(session);
    session.socket!.terminate();
    const err = (await done) as ParleyError;
    assert.ok(err instanceof ParleyError);
    assert.equal(err.code, 'PARLEY_CLIENT_CLOSED');
    await assert.rejects(session.waitFor('transcript.final'), { code: 'PARLEY_CLIENT_CLOSED' });
  });

  test('a refused session rejects with the server\'s code and close code', async () => {
    await assert.rejects(
      client.stream({ sessionId: 'sdk-bad', query: { sample_rate: '11025' } }),
      (err: ParleyError) => err instanceof ParleyError && err.code === 'PARLEY_ERR_BAD_AUDIO' && err.fatal && err.closeCode === 1003,
    );
    await assert.rejects(client.stream({ sessionId: 'bad id!' }), (err: ParleyError) => err.code === 'PARLEY_ERR_BAD_REQUEST');
  });

  test('reconnecting to an ended session is refused with PARLEY_ERR_SESSION_ENDED and 4001, not a normal closure (1000)', async () => {
    const session = await client.stream({ sessionId: 'sdk-ended-refused' });
    await session.end();
    await assert.rejects(
      client.stream({ sessionId: 'sdk-ended-refused' }),
      (err: ParleyError) => err.code === 'PARLEY_ERR_SESSION_ENDED' && err.fatal && err.closeCode === SESSION_ENDED_CLOSE && /session sdk-ended-refused ended at /.test(err.message),
    );
  });

  test('server errors on a live session are typed events, and the session goes on', async () => {
    const session = await client.stream({ sessionId: 'sdk-err' });
    session.send({ type: 'query', id: 'q', question: 'x'.repeat(MAX_QUESTION_CHARS + 1) });
    const error = await session.waitFor('error');
    assert.equal(error.code, 'PARLEY_ERR_BAD_FRAME');
    assert.match(error.message, /question/);
    assert.equal(error.fatal, false);
    session.send({ type: 'utterance', speaker: 'Cy', text: 'still here' });
    assert.equal((await session.waitFor('transcript.final')).text, 'still here');
    await session.end();
  });
});

describe('@parley/client: keys and unreachable servers', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_API_KEYS: 'key-sdk-0001:acme' }));

  test('the key is sent on HTTP and on the stream; a wrong one is PARLEY_ERR_UNAUTHORIZED', async () => {
    const good = new ParleyClient({ baseUrl: t.httpUrl, apiKey: 'key-sdk-0001' });
    assert.deepEqual(await good.participants(), []);
    const session = await good.stream({ sessionId: 'keyed' });
    await session.end();
    const bad = new ParleyClient({ baseUrl: t.httpUrl, apiKey: 'key-wrong-000' });
    await assert.rejects(bad.participants(), { name: 'ParleyError', code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
    await assert.rejects(bad.stream(), { code: 'PARLEY_ERR_UNAUTHORIZED', status: 401 });
    assert.deepEqual(await bad.health(), { status: 'ok' }, '/healthz needs no key');
  });

  test('an unreachable server is PARLEY_CLIENT_NETWORK (retryable); a bad base URL is refused at once', async () => {
    const gone = new ParleyClient({ baseUrl: 'http://127.0.0.1:9' });
    await assert.rejects(gone.participants(), (err: ParleyError) => err.code === 'PARLEY_CLIENT_NETWORK' && err.retryable);
    await assert.rejects(gone.stream(), { code: 'PARLEY_CLIENT_NETWORK' });
    assert.throws(() => new ParleyClient({ baseUrl: 'ftp://x' }), { code: 'PARLEY_CLIENT_BAD_OPTIONS' });
  });
});
