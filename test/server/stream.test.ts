import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { appForSuite, startTestApp } from '../helpers/app.js';
import { drainConsolidation } from '../../pipelines/memory/after-consolidation.js';
import { LEFT_BRAIN_JOB } from '../../pipelines/retrieval/left-brain-job.js';
import { MAX_QUESTION_CHARS } from '../../server/protocol/ws-messages.js';
import { TestWsClient } from '../helpers/ws-client.js';
import WebSocket from 'ws';
import { MAX_WS_MESSAGE_BYTES, WS_HARD_CAP_BYTES } from '../../server/ws/frame-limits.js';

describe('WebSocket /v1/stream', () => {
  const t = appForSuite(() => startTestApp({ PARLEY_SESSION_RESUME_MS: '60000' }));

  test('session.started, numbered events, utterances stored before transcript.final', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-1&sample_rate=48000&encoding=f32le`);
    const started = await c.next('session.started');
    assert.equal(started.seq, 1);
    assert.equal(started.session_id, 'ws-1');
    assert.deepEqual(started.config, { session_id: 'ws-1', sample_rate: 48000, encoding: 'f32le', channels: 1 });

    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'Hello Ben, how was Lisbon?', start_ms: 100, end_ms: 1900 });
    const first = await c.next('transcript.final');
    assert.equal(first.seq, 2);
    assert.equal(first.text, 'Hello Ben, how was Lisbon?');
    assert.deepEqual(first.speaker, { id: (first.speaker as { id: string }).id, name: 'Ana', confidence: 1, is_new: true });
    assert.equal(first.start_ms, 100);
    c.sendJson({ type: 'utterance', speaker: 'Ben', text: 'It was sunny.' });
    const second = await c.nextNew('transcript.final');
    assert.equal(second.seq, 3);
    const ana = (first.speaker as { id: string }).id;
    assert.deepEqual(second.addressees, [{ id: ana, name: 'Ana' }]);

    const stored = await t.app.stores.graph.getUtterance('default', second.utterance_id as string);
    assert.equal(stored?.text, 'It was sunny.', 'the utterance is stored when transcript.final arrives');
    c.close();
  });

  test('a reconnect with the same session_id resumes the numbering and the session', async () => {
    const a = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-resume`);
    await a.next('session.started');
    a.sendJson({ type: 'utterance', speaker: 'Ana', text: 'first' });
    await a.next('transcript.final');
    a.close();
    await a.closed();
    const b = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-resume`);
    const started = await b.next('session.started');
    assert.equal(started.seq, 3);
    assert.equal(started.resumed, true);
    b.sendJson({ type: 'utterance', speaker: 'Ana', text: 'second' });
    const final = await b.next('transcript.final');
    assert.equal(final.seq, 4);
    const transcript = await t.app.stores.graph.getTranscript('default', 'ws-resume');
    assert.deepEqual(transcript.map((u) => u.text), ['first', 'second']);
    b.close();
  });

  test('every kind of bad frame gets an error event and the session goes on', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-bad&sample_rate=16000&encoding=pcm_s16le`);
    await c.next('session.started');
    const expectError = async (send: () => void, code: string, message?: RegExp): Promise<void> => {
      // The first audio frame may wait on a speech worker starting: generous on a busy machine.
      const pending = c.nextNew('error', () => true, 60_000);
      send();
      const e = await pending;
      assert.equal(e.code, code);
      assert.equal(e.fatal, false);
      if (message) assert.match(e.message as string, message);
    };
    await expectError(() => c.sendRaw('not json'), 'PARLEY_ERR_BAD_FRAME');
    await expectError(() => c.sendRaw('[1,2]'), 'PARLEY_ERR_BAD_FRAME');
    await expectError(() => c.sendJson({ type: 'dance' }), 'PARLEY_ERR_UNKNOWN_TYPE', /dance/);
    await expectError(() => c.sendJson({ text: 'no type' }), 'PARLEY_ERR_UNKNOWN_TYPE');
    await expectError(() => c.sendJson({ type: 'utterance', speaker: 'A' }), 'PARLEY_ERR_BAD_FRAME', /text/);
    await expectError(() => c.sendJson({ type: 'utterance', speaker: 'A', text: 'x', start_ms: 9, end_ms: 1 }), 'PARLEY_ERR_BAD_FRAME');
    await expectError(() => c.sendRaw(Buffer.alloc(641)), 'PARLEY_ERR_BAD_AUDIO', /whole number/);
    await expectError(() => c.sendRaw(Buffer.alloc(64)), 'PARLEY_ERR_BAD_AUDIO', /shorter than 10 ms/);
    await expectError(() => c.sendRaw(Buffer.alloc(2 * 16000 * 2)), 'PARLEY_ERR_FRAME_TOO_LARGE');
    c.sendRaw(Buffer.alloc(2 * 1600)); // 100 ms of silence: valid, no event
    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'still here' });
    const final = await c.nextNew('transcript.final', () => true, 60_000);
    assert.equal(final.text, 'still here');
    const errors = c.events.filter((e) => e.type === 'error');
    assert.equal(errors.length, 9, 'the valid audio frame raised no error');
    c.close();
  });

  test('a message over Parley\'s limit gets a non-fatal error; one over the hard cap closes 1009 naming the limit', async () => {
    assert.ok(WS_HARD_CAP_BYTES >= 4 * MAX_WS_MESSAGE_BYTES, 'the hard cap lies well above the documented limit');
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-big`);
    await c.next('session.started');
    for (const frame of [Buffer.alloc(MAX_WS_MESSAGE_BYTES + 2), JSON.stringify({ type: 'utterance', speaker: 'A', text: 'x'.repeat(MAX_WS_MESSAGE_BYTES) })]) {
      const pending = c.nextNew('error');
      c.sendRaw(frame);
      const e = await pending;
      assert.equal(e.code, 'PARLEY_ERR_FRAME_TOO_LARGE');
      assert.equal(e.fatal, false);
      assert.match(e.message as string, new RegExp(`${MAX_WS_MESSAGE_BYTES}`));
    }
    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'still here' });
    assert.equal((await c.nextNew('transcript.final')).text, 'still here');
    c.close();

    const raw = new WebSocket(`${t.wsUrl}/v1/stream?session_id=ws-huge`);
    await new Promise((resolve, reject) => { raw.once('open', resolve); raw.once('error', reject); });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      raw.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    raw.on('error', () => {});
    raw.send(Buffer.alloc(WS_HARD_CAP_BYTES + 1));
    const { code, reason } = await closed;
    assert.equal(code, 1009);
    assert.match(reason, new RegExp(`PARLEY_ERR_FRAME_TOO_LARGE.*${WS_HARD_CAP_BYTES}`));
  });

  test('the hard cap\'s 1009 close frame reaches a client the server still has events queued for', async () => {
    const raw = new WebSocket(`${t.wsUrl}/v1/stream?session_id=ws-huge-busy`);
    await new Promise((resolve) => raw.once('message', resolve));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      raw.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    raw.on('error', () => {});
    let received = 0;
    raw.on('message', () => received++);
    // The client reads nothing for a while, so the server's replies queue up on its side of the socket.
    raw.pause();
    const sent = 200;
    for (let i = 0; i < sent; i++) raw.send(JSON.stringify({ type: 'session.update', session: { notes: `${i}`.padEnd(60_000, 'x') } }));
    /** Poll (generously: a hang, not a speed limit) until `found` gives a value. */
    const until = async <T>(found: () => T | undefined): Promise<T | undefined> => {
      for (let tries = 0; tries < 1200; tries++) {
        const value = found();
        if (value !== undefined) return value;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return undefined;
    };
    const busy = await until(() => [...t.app.websocketServer.clients].find((s) => s.bufferedAmount > 1024 * 1024));
    assert.ok(busy, 'the server has replies waiting to be written');
    raw.send(Buffer.alloc(9 * 1024 * 1024));
    // The server's plugin used to terminate the socket on ws's error here, dropping the close frame
    // queued behind the replies (the client saw 1006).
    assert.ok(await until(() => (busy.readyState !== busy.OPEN ? true : undefined)), 'the server refused the message');
    raw.resume();
    const { code, reason } = await closed;
    assert.equal(code, 1009);
    assert.match(reason, new RegExp(`PARLEY_ERR_FRAME_TOO_LARGE.*${WS_HARD_CAP_BYTES}`));
    assert.ok(received > 1, 'the replies queued before the close arrived too');
  });

  test('a second connection with the same session_id takes over: the first gets a fatal PARLEY_ERR_SESSION_BUSY, then 4000', async () => {
    const url = `${t.wsUrl}/v1/stream?session_id=ws-twice`;
    const first = new WebSocket(url);
    const frames: Record<string, unknown>[] = [];
    const started = new Promise<void>((resolve) => {
      first.on('message', (data) => {
        frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
        if (frames.length === 1) resolve();
      });
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      first.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    await started;
    const second = await TestWsClient.connect(url);
    const resumed = await second.next('session.started');
    const { code, reason } = await closed;
    assert.equal(code, 4000);
    assert.match(reason, /resumed on another connection/);
    const last = frames.at(-1)!;
    assert.deepEqual({ type: last.type, code: last.code, fatal: last.fatal },
      { type: 'error', code: 'PARLEY_ERR_SESSION_BUSY', fatal: true }, 'the first socket is told why before it closes');
    assert.ok((resumed.seq as number) > (last.seq as number), 'numbering goes on for the new connection');
    second.close();
  });

  test('a refused text message is answered in arrival order, behind a large earlier one', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-order`);
    await c.next('session.started');
    c.sendJson({ type: 'session.update', session: { metadata: { notes: 'x'.repeat(60_000) } } });
    c.sendJson({ type: 'session.update', session: 'str' });
    const error = await c.next('error');
    assert.equal(error.code, 'PARLEY_ERR_BAD_FRAME');
    const updated = c.events.find((e) => e.type === 'session.updated');
    assert.ok(updated && (updated.seq as number) < (error.seq as number), 'session.updated came before the error for the later message');
    c.close();
  });

  test('f32le frames with NaN are rejected', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?encoding=f32le&sample_rate=8000`);
    await c.next('session.started');
    const frame = Buffer.alloc(4 * 800);
    frame.writeFloatLE(Number.NaN, 40);
    const pending = c.nextNew('error');
    c.sendRaw(frame);
    assert.match((await pending).message as string, /non-finite/);
    c.close();
  });

  test('an unsupported format is refused with a fatal error', async () => {
    for (const query of ['sample_rate=11025', 'encoding=opus', 'channels=2']) {
      const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?${query}`);
      const e = await c.next('error');
      assert.equal(e.fatal, true);
      assert.equal(e.code, 'PARLEY_ERR_BAD_AUDIO');
      assert.equal(await c.closed(), 1003, 'the close code of PARLEY_ERR_BAD_AUDIO in the error table');
    }
  });

  test('session.update, query and session.end', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-end`);
    await c.next('session.started');
    c.sendJson({ type: 'session.update', session: { language: 'en', metadata: { room: 'kitchen' } } });
    const updated = await c.next('session.updated');
    assert.deepEqual(updated.session, { language: 'en', metadata: { room: 'kitchen' } });
    c.sendJson({ type: 'utterance', speaker: 'Ana', text: 'My cat Miko loves tuna' });
    c.sendJson({ type: 'utterance', speaker: 'Ben', text: 'The weather is nice' });
    // The ranking is read once the turns' background work (consolidation, then the entity index) is done: on a busy
    // machine a query sent half-way through it saw an older turn first (a CI run, 2026-12-06).
    await c.next('transcript.final', (e) => e.text === 'The weather is nice');
    await drainConsolidation(t.app.stores.queue, 120_000);
    await t.app.stores.queue.drain(LEFT_BRAIN_JOB, 120_000);
    c.sendJson({ type: 'query', id: 'q1', question: 'what does Miko like?' });
    const result = await c.next('query.result');
    assert.equal(result.id, 'q1');
    const evidence = result.evidence as { text: string; layer: string; speaker: { name: string }; source_text?: string | null }[];
    // First the turn, or the fact consolidation made of it if it finished first ("Ana's cat Miko loves tuna", which
    // carries the turn as its source): either answers, said by Ana.
    const first = evidence[0];
    assert.equal(first?.layer === 'interaction' ? first.text : first?.source_text, 'My cat Miko loves tuna', JSON.stringify(evidence));
    assert.equal(first?.speaker.name, 'Ana');
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended');
    assert.equal(await c.closed(), 1000);
    const session = await t.app.stores.graph.getSession('default', 'ws-end');
    assert.ok(session?.endedAt);
    assert.deepEqual(session?.metadata, { language: 'en', metadata: { room: 'kitchen' } });
  });

  test('a query may be as long over the socket as over HTTP, and one longer is refused without ending the session', async () => {
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=ws-long-question`);
    await c.next('session.started');
    const long = `what does Miko like? ${'and tell me more '.repeat(400)}`.slice(0, MAX_QUESTION_CHARS);
    c.sendJson({ type: 'query', id: 'q-long', question: long });
    assert.equal((await c.next('query.result')).id, 'q-long');
    const http = await t.app.inject({ method: 'POST', url: '/v1/query', payload: { question: long } });
    assert.equal(http.statusCode, 200);
    c.sendJson({ type: 'query', id: 'q-too-long', question: `${long}?` });
    const e = await c.next('error');
    assert.equal(e.fatal, false);
    assert.match(String(e.message), /question/);
    const tooLong = await t.app.inject({ method: 'POST', url: '/v1/query', payload: { question: `${long}?` } });
    assert.equal(tooLong.statusCode, 400);
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended');
  });
});
