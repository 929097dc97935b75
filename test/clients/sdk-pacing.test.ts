import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { AudioQueue, ParleyClient, ParleyError } from '../../clients/typescript/src/index.js';

/** What a stand-in /v1/stream server received on one connection. */
interface Received { url: string; frames: (Buffer | string)[] }

/**
 * Pacing is checked against a stand-in server that only starts sessions and records frames, so the
 * times measured are the SDK's alone. Only lower bounds are asserted: a busy machine can make
 * sending slower, never faster.
 */
describe('@parley/client: audio pacing and framing', () => {
  let wss: WebSocketServer;
  let client: ParleyClient;
  const connections: Received[] = [];
  before(async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    wss.on('connection', (socket, request) => {
      const received: Received = { url: request.url ?? '', frames: [] };
      connections.push(received);
      socket.on('message', (data, isBinary) => {
        received.frames.push(isBinary ? (data as Buffer) : data.toString());
        const message = isBinary ? null : JSON.parse(data.toString()) as { type: string; id?: string };
        // A query is refused, naming its id, as the server refuses one with an unknown asker.
        if (message?.type === 'query') {
          socket.send(JSON.stringify({ type: 'error', session_id: 'p', seq: 3, code: 'PARLEY_ERR_NOT_FOUND', fatal: false, message: 'no such asker', id: message.id }));
        }
        if (message?.type === 'session.end') {
          socket.send(JSON.stringify({ type: 'session.ended', session_id: 'p', seq: 2 }));
          socket.close(1000);
        }
      });
      socket.send(JSON.stringify({ type: 'session.started', session_id: 'p', seq: 1, resumed: false, config: { session_id: 'p' } }));
    });
    client = new ParleyClient({ baseUrl: `http://127.0.0.1:${(wss.address() as AddressInfo).port}` });
  });
  after(async () => {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  const pcm = (ms: number, rate = 16000): Buffer => Buffer.alloc((rate * ms) / 1000 * 2, 1);

  test('realtime: no faster than the audio lasts (× speed); 20 ms frames; the last one padded', async () => {
    for (const speed of [1, 2]) {
      const session = await client.stream({ sampleRate: 16000, pacing: 'realtime', speed });
      const started = performance.now();
      session.sendAudio(pcm(500));
      session.sendAudio(Buffer.alloc(100, 1)); // 50 samples: a partial frame
      await session.drained();
      const elapsed = performance.now() - started;
      assert.ok(elapsed >= 480 / speed - 5, `500 ms of audio at ${speed}× went out in ${elapsed.toFixed(0)} ms`);
      await session.end();
      const frames = connections.at(-1)!.frames;
      const audio = frames.filter((f): f is Buffer => Buffer.isBuffer(f));
      assert.equal(audio.length, 26);
      assert.ok(audio.slice(0, 25).every((f) => f.byteLength === 640), '20 ms of 16 kHz s16le each');
      assert.equal(audio[25]!.byteLength, 320, 'the partial frame is padded to the 10 ms minimum');
      assert.equal(audio[25]!.subarray(100).every((b) => b === 0), true, 'with silence');
      assert.equal(JSON.parse(frames.at(-1) as string).type, 'session.end', 'end() goes out after the audio');
    }
  });

  test('fast: ahead of real time by at most maxLeadMs', async () => {
    const session = await client.stream({ pacing: 'fast', maxLeadMs: 200, frameMs: 100 });
    const started = performance.now();
    session.sendAudio(pcm(1000));
    await session.drained();
    const elapsed = performance.now() - started;
    // The last 100 ms frame may go out once 900 ms of audio were sent and 700 ms of time passed.
    assert.ok(elapsed >= 690, `1 s of audio with a 200 ms lead went out in ${elapsed.toFixed(0)} ms`);
    await session.end();
    assert.equal(connections.at(-1)!.frames.filter((f) => Buffer.isBuffer(f)).length, 10);
  });

  test('messages keep their place among audio frames; the format goes in the URL', async () => {
    const session = await client.stream({ sessionId: 'order-1', sampleRate: 8000, encoding: 'mulaw', pacing: 'none', frameMs: 10 });
    session.sendAudio(Buffer.alloc(160, 7)); // 20 ms of 8 kHz μ-law
    session.send({ type: 'input.commit' });
    session.sendAudio(Buffer.alloc(40, 7)); // 5 ms: padded with μ-law silence (0xFF)
    await session.end();
    const { url, frames } = connections.at(-1)!;
    const params = new URL(url, 'ws://x').searchParams;
    assert.deepEqual([params.get('session_id'), params.get('sample_rate'), params.get('encoding')], ['order-1', '8000', 'mulaw']);
    const shape = frames.map((f) => (Buffer.isBuffer(f) ? f.byteLength : JSON.parse(f).type));
    assert.deepEqual(shape, [80, 80, 'input.commit', 80, 'session.end']);
    const last = frames[3] as Buffer;
    assert.ok(last.subarray(40).every((b) => b === 0xff));
  });

  test('a sample split between chunks stays whole across a message: the audio arrives byte-exact', async () => {
    const session = await client.stream({ sampleRate: 16000, pacing: 'none', frameMs: 100 });
    const events: string[] = [];
    const read = (async () => { for await (const e of session) events.push(e.type); })();
    // Bytes 1..251 (never silence), split mid-sample: 701 bytes is 350 samples and half of one.
    const input = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i % 251) + 1));
    session.sendAudio(input.subarray(0, 701));
    session.send({ type: 'input.commit' });
    session.sendAudio(input.subarray(701));
    await session.end();
    await read;
    const frames = connections.at(-1)!.frames;
    assert.deepEqual(frames.map((f) => (Buffer.isBuffer(f) ? f.byteLength : JSON.parse(f).type)), [700, 'input.commit', 3200, 320, 'session.end']);
    const audio = Buffer.concat(frames.filter((f): f is Buffer => Buffer.isBuffer(f)));
    assert.ok(audio.subarray(0, 4000).equals(input), 'every byte, in order, none dropped');
    assert.ok(audio.subarray(4000).every((b) => b === 0), 'then only the last frame\'s padding');
    assert.deepEqual(events.filter((t) => t === 'error'), [], 'nothing was dropped, so no error');
  });

  test('a waitFor match that throws is taken as not matching; a query that cannot be sent leaves no wait behind', async () => {
    const session = await client.stream({ pacing: 'none' });
    // This match reads the evidence, which the probe for a refused query does not have.
    const waiting = session.waitFor('query.result', (e) => e.evidence[0]!.id === 'm1', { timeoutMs: 1000 });
    await assert.rejects(session.query({ id: 'q1', question: 'Who?', asker: 'Nobody' }), (err: unknown) => err instanceof ParleyError && err.code === 'PARLEY_ERR_NOT_FOUND');
    await assert.rejects(waiting, (err: unknown) => err instanceof ParleyError && err.code === 'PARLEY_CLIENT_TIMEOUT');
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // A BigInt cannot be serialised: send() throws, and closing the stream must not reject a wait nobody holds.
      assert.throws(() => session.query({ question: 'Who?', limit: 1n } as never), TypeError);
      session.close();
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('bad options and audio are refused with clear errors', async () => {
    // As the README says, everything the SDK throws is a ParleyError with a code.
    const refused = (code: string, message: RegExp) => (err: unknown): boolean =>
      err instanceof ParleyError && err.code === code && message.test(err.message);
    assert.throws(() => new AudioQueue('pcm_s16le', 16000, 5), refused('PARLEY_CLIENT_BAD_OPTIONS', /frameMs must be 10 to 1000/));
    // Refused before any connection is tried (nothing listens on port 9).
    await assert.rejects(new ParleyClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }).stream({ frameMs: 5 }), refused('PARLEY_CLIENT_BAD_OPTIONS', /frameMs/));
    await assert.rejects(new ParleyClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }).stream({ resendBufferMs: -1 }), refused('PARLEY_CLIENT_BAD_OPTIONS', /resendBufferMs must be 0 or more/));
    // Resume options are checked when the stream is made, not at its first reconnect in the middle of a call.
    await assert.rejects(new ParleyClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }).stream({ resume: { delayMs: -5 } }), refused('PARLEY_CLIENT_BAD_OPTIONS', /resume.delayMs must be 0 or more/));
    const q = new AudioQueue('pcm_s16le', 16000, 20);
    q.pushAudio(new Uint8Array(3));
    assert.throws(() => q.flush(true), refused('PARLEY_ERR_BAD_AUDIO', /middle of a sample/));
  });
});
