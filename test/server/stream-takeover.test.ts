import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { fixtureSamples, loadAudioFixtures, type AudioFixture } from '../../pipelines/audio/fixtures.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient, type ServerEvent } from '../helpers/ws-client.js';
import { connectTwilio, liveCall, SseClient, twilioCall, twilioMessages } from '../helpers/twilio.js';
import { ParleyError } from '../../graph/core/errors.js';
import { TRANSIENT_TRIES } from '../../graph/transient-retry.js';

const paced = { pacing: 'realtime' as const, frameMs: 100, speed: 1 };

/** A listening server on `dataDir` with the speech models loaded; several may share one data directory. */
async function startServer(dataDir: string): Promise<Server> {
  const config = loadConfig({
    DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000',
  });
  const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  await app.models.inference();
  const address = app.server.address();
  assert.ok(address && typeof address === 'object');
  return { app, wsUrl: `ws://127.0.0.1:${address.port}`, httpUrl: `http://127.0.0.1:${address.port}` };
}

interface Server {
  app: FastifyInstance;
  wsUrl: string;
  httpUrl: string;
}

/** A store failure the stores classify as transient: the embedded file locked by another connection. */
const busyFile = (): Error => Object.assign(new Error('database is locked (injected)'), { code: 'SQLITE_BUSY' });

/**
 * Make `server`'s `graph[method]` throw `failure(n)` on its n-th call, or run as usual where that is null; `calls()`
 * counts the calls, `restore()` puts the method back.
 */
function failing(server: Server, method: 'startAudioStream' | 'takeAudioStream', failure: (call: number) => Error | null): { calls: () => number; restore: () => void } {
  const { graph } = server.app.stores;
  const original = graph[method];
  let calls = 0;
  graph[method] = (async (...args: unknown[]) => {
    calls += 1;
    const err = failure(calls);
    if (err) throw err;
    return (original as (...a: unknown[]) => Promise<unknown>).apply(graph, args);
  }) as never;
  return { calls: () => calls, restore: () => { graph[method] = original as never; } };
}

/**
 * Open session `id` on `server`, send 100 ms of audio, and expect its stream refused at its start: a fatal
 * `PARLEY_ERR_STORE_UNAVAILABLE` naming it, then 1011. Returns the client and the refusal's message.
 */
async function refusedStreamStart(server: Server, id: string): Promise<{ client: TestWsClient; message: string }> {
  const client = await TestWsClient.connect(`${server.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
  await client.next('session.started');
  client.sendAudio(new Uint8Array(3200));
  const refused = await client.next('error');
  assert.equal(refused.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
  assert.equal(refused.fatal, true);
  assert.match(String(refused.message), /could not record where this audio stream begins.*reconnect/);
  assert.equal(await client.closed(), 1011);
  return { client, message: String(refused.message) };
}

/** The reason `client`'s socket is closed with, once it is. */
function closeReason(client: TestWsClient): Promise<string> {
  return new Promise((resolve) => client.socket.once('close', (_code: number, reason: Buffer) => resolve(reason.toString())));
}

/** Wait (at most 60 s) until `done()` holds or `client` got an error event. */
async function until(client: TestWsClient, done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600 && !client.events.some((e) => e.type === 'error') && !(await done()); i++) await new Promise((r) => setTimeout(r, 100));
}

/** Hold the next call of `app`'s ingest (a voice turn being stored) until released. */
function holdNextIngest(app: FastifyInstance): { reached: Promise<void>; release: () => void } {
  const ingest = app.ingest.ingest.bind(app.ingest);
  let reached!: () => void;
  let release!: () => void;
  const reachedP = new Promise<void>((resolve) => { reached = resolve; });
  const gate = new Promise<void>((resolve) => { release = resolve; });
  app.ingest.ingest = async (...args) => {
    app.ingest.ingest = ingest;
    reached();
    await gate;
    return ingest(...args);
  };
  return { reached: reachedP, release };
}

/** Wait until `client` has `n` finals (at most 60 s: recognition on a busy machine). */
async function finals(client: TestWsClient, n: number): Promise<ServerEvent[]> {
  const of = (): ServerEvent[] => client.events.filter((e) => e.type === 'transcript.final');
  for (let i = 0; i < 600 && of().length < n; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(of().length, n, `finals: ${of().map((f) => f.text).join(' | ')}`);
  return of();
}

/**
 * Two servers on one data directory (the embedded stores' shared mode). A client that reconnects to server B while
 * server A still holds its old socket used to have a turn stored twice: A stored the turn it was storing, B had named
 * it as not stored (`unstored_from_ms`), and the client's resend stored it again. The newer stream now takes the
 * session's audio stream over in the store before B reads what is stored; A's turn is refused in the same transaction
 * that would store it, and A's socket closes with 4000.
 */
describe('one session on two servers', () => {
  const tmp = tempDir('parley-two-servers-');
  let a: Server;
  let b: Server;
  let slt: AudioFixture;
  before(async () => {
    a = await startServer(tmp.dir);
    b = await startServer(tmp.dir);
    slt = loadAudioFixtures().find((f) => f.file === 'slt.wav')!;
  });
  after(async () => {
    await b.app.close();
    await a.app.close();
    tmp.remove();
  });

  test('a reconnect to another server while the first still holds the socket: every turn is stored once', async () => {
    const id = 'two-servers';
    const onA = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
    await onA.next('session.started');
    const held = holdNextIngest(a.app);
    await onA.speak(fixtureSamples(slt));
    // Server A recognised the first turn and is storing it when the client turns up on server B.
    await held.reached;
    const onB = await TestWsClient.connect(`${b.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
    const started = await onB.next('session.started');
    assert.equal(started.resumed, true);
    assert.equal(started.unstored_from_ms, 0, 'nothing of the first stream is stored yet: resend all of it');

    held.release();
    const busy = await onA.next('error', (e) => e.code === 'PARLEY_ERR_SESSION_BUSY');
    assert.equal(busy.fatal, true);
    assert.match(String(busy.message), /resumed on another connection/);
    assert.equal(await onA.closed(), 4000);
    assert.equal(onA.events.filter((e) => e.type === 'transcript.final').length, 0, 'server A stored none of its turns');
    assert.equal(a.app.sessions.get('default', id), undefined, 'server A let the session go at once');

    // The client resends from unstored_from_ms (all of it): each turn is stored once, by server B.
    await onB.speak(fixtureSamples(slt));
    const fromB = await finals(onB, slt.utterances.length);
    onB.close();
    const transcript = await b.app.stores.graph.getTranscript('default', id);
    assert.deepEqual(transcript.map((u) => u.id), fromB.map((f) => f.utterance_id), 'the stored turns are B\'s, each once');
    assert.equal((await a.app.stores.graph.getSession('default', id))?.audioStreamMs, 0, 'B\'s stream start holds');
  });

  /**
   * Found by a review: the client dropped from A, reached B (which took the stream over), dropped again before sending
   * audio and came back to A, which still held the session for its resume: A resumed it without taking the stream
   * back, so every turn was refused (PARLEY_ERR_SESSION_BUSY, 4000) and lost.
   */
  test('back on the first server after a brief reconnect to another: it takes the stream back and stores the turns', async () => {
    const id = 'back-to-a';
    const first = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
    await first.next('session.started');
    await first.speak(fixtureSamples(slt));
    await finals(first, slt.utterances.length);
    first.close();
    for (let i = 0; i < 600 && a.app.sessions.get('default', id)?.connected !== false; i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(a.app.sessions.get('default', id)?.connected, false, 'A holds the session for a resume');

    const onB = await TestWsClient.connect(`${b.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
    assert.equal((await onB.next('session.started')).resumed, true);
    onB.close();
    await onB.closed();

    const back = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
    assert.equal((await back.next('session.started')).resumed, true);
    await back.speak(fixtureSamples(slt));
    await finals(back, slt.utterances.length);
    back.close();
    assert.equal(back.events.filter((e) => e.type === 'error').length, 0, back.events.filter((e) => e.type === 'error').map((e) => e.message).join(' | '));
    assert.equal((await a.app.stores.graph.getTranscript('default', id)).length, 2 * slt.utterances.length, 'both streams\' turns stored');
  });

  test('a stream whose start cannot be stored is refused (fatal, 1011); a reconnect opens it and stores its turns', async () => {
    const id = 'stream-start-fails';
    const { graph } = a.app.stores;
    // Not a transient failure: refused at the first, not tried again.
    const injected = failing(a, 'startAudioStream', (n) => (n === 1 ? new Error('disk I/O error (injected)') : null));
    const { client: first } = await refusedStreamStart(a, id).finally(() => injected.restore());
    assert.equal(injected.calls(), 1);
    assert.equal((await graph.getSession('default', id))?.audioStreamMs, null, 'no stream start was stored');

    const again = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
    assert.equal((await again.next('session.started')).resumed, true);
    await again.speak(fixtureSamples(slt));
    await finals(again, slt.utterances.length);
    again.close();
    assert.equal((await graph.getSession('default', id))?.audioStreamMs, 0);
    assert.equal(first.events.filter((e) => e.type === 'error').length, 1, 'one refusal for all the frames that waited');
  });

  /**
   * Found by a review: server A learned that server B took the stream over only at its next turn, so a client still
   * streaming to A had its audio refused turn by turn, and a silent one was never told. B now says so on the event bus
   * (here the shared SQLite file's), and A, once the store confirms it, closes at once.
   */
  test('a silent client on the first server is told at once that another server took its stream over (4000, with the reason)', async () => {
    const id = 'silent-on-a';
    const onA = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
    await onA.next('session.started');
    const reason = closeReason(onA);
    // A late or stray notice naming another holder changes nothing while the store says A holds the stream.
    await a.app.sessions.streamTaken('default', id, 'ls_stale');
    assert.equal(a.app.sessions.get('default', id)?.connected, true, 'a notice the store contradicts is ignored');

    const onB = await TestWsClient.connect(`${b.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
    assert.equal((await onB.next('session.started')).resumed, true);
    // A's client sends nothing at all.
    const busy = await onA.next('error', (e) => e.code === 'PARLEY_ERR_SESSION_BUSY');
    assert.equal(busy.fatal, true);
    assert.match(String(busy.message), /resumed on another connection \(perhaps on another server\)/);
    assert.equal(await onA.closed(), 4000);
    assert.equal(await reason, 'session resumed on another connection');
    assert.equal(a.app.sessions.get('default', id), undefined, 'server A let the session go');
    assert.equal(b.app.sessions.get('default', id)?.connected, true, 'B keeps it');
    assert.equal((await b.app.stores.graph.getSession('default', id))?.streamOwner, b.app.sessions.get('default', id)?.streamOwner);
    assert.equal(onB.events.filter((e) => e.type === 'error').length, 0);
    onB.close();
    await onB.closed();
  });

  test('a transient failure to store where the stream begins is tried again: the stream opens', async () => {
    const id = 'stream-start-busy-once';
    const { graph } = a.app.stores;
    const injected = failing(a, 'startAudioStream', (n) => (n === 1 ? busyFile() : null));
    try {
      const client = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
      await client.next('session.started');
      client.sendAudio(new Uint8Array(3200));
      await until(client, async () => (await graph.getSession('default', id))?.audioStreamMs === 0);
      assert.deepEqual(client.events.filter((e) => e.type === 'error').map((e) => e.message), []);
      assert.equal((await graph.getSession('default', id))?.audioStreamMs, 0, 'the stream start was stored');
      assert.equal(injected.calls(), 2);
      client.close();
      await client.closed();
    } finally {
      injected.restore();
    }
  });

  test('a stream start that keeps failing transiently is refused (fatal, 1011) after a bounded number of tries', async () => {
    const id = 'stream-start-busy-always';
    const injected = failing(a, 'startAudioStream', () => busyFile());
    try {
      assert.match((await refusedStreamStart(a, id)).message, /database is locked/);
      assert.equal(injected.calls(), TRANSIENT_TRIES, 'tried again, a bounded number of times');
    } finally {
      injected.restore();
    }
  });

  test('a transient failure to take the stream over at open is tried again: the session opens', async () => {
    const id = 'take-busy-once';
    const leaderSwitch = new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'Neo4j (NEO4J_URI) unavailable during takeAudioStream: leader switch (injected)');
    const injected = failing(a, 'takeAudioStream', (n) => (n === 1 ? leaderSwitch : null));
    try {
      const client = await TestWsClient.connect(`${a.wsUrl}/v1/stream?session_id=${id}`, {}, paced);
      assert.equal((await client.next('session.started')).resumed, false);
      assert.equal(injected.calls(), 2);
      assert.equal((await a.app.stores.graph.getSession('default', id))?.streamOwner, a.app.sessions.get('default', id)?.streamOwner);
      client.close();
      await client.closed();
    } finally {
      injected.restore();
    }
  });

  test('Twilio: a call whose start cannot take the stream over is refused (1011) and its subscribers hear why', async () => {
    const injected = failing(a, 'takeAudioStream', () => new ParleyError('PARLEY_ERR_STORE_UNAVAILABLE', 'Neo4j (NEO4J_URI) unavailable during takeAudioStream (injected)'));
    const call = twilioCall({});
    const sse = await SseClient.open(`${a.httpUrl}/v1/sessions/${call.callSid}/events`);
    try {
      const { ws, closed } = await connectTwilio(`${a.wsUrl}/v1/twilio`);
      for (const m of twilioMessages(call, Buffer.alloc(1600, 0xff)).slice(0, -1)) ws.send(JSON.stringify(m));
      const how = await closed;
      assert.equal(how.code, 1011);
      assert.match(how.reason, /^PARLEY_ERR_STORE_UNAVAILABLE: could not take session CA[0-9a-f]+'s audio stream over/);
      await sse.until(() => sse.events.some((e) => e.event === 'error'), 60_000, 'the refusal');
      const refusal = sse.events.find((e) => e.event === 'error')!;
      assert.equal(refusal.id, '0');
      assert.equal(refusal.data.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
      assert.equal(refusal.data.fatal, true);
      assert.match(String(refusal.data.message), /could not take session .* audio stream over in the store; retry/);
      assert.equal(injected.calls(), TRANSIENT_TRIES);
      assert.equal(a.app.sessions.get('default', call.callSid), undefined, 'no live session was left behind');
    } finally {
      injected.restore();
      sse.close();
    }
  });

  test('Twilio: a call whose audio stream start cannot be stored is refused (1011), its subscribers told, and it ends', async () => {
    const { graph } = a.app.stores;
    const injected = failing(a, 'startAudioStream', () => new Error('disk I/O error (injected)'));
    let call: Awaited<ReturnType<typeof liveCall>> | undefined;
    try {
      call = await liveCall(a);
      const how = await call.closed;
      assert.equal(how.code, 1011);
      assert.equal(how.reason, 'PARLEY_ERR_STORE_UNAVAILABLE');
      const { sse } = call;
      await sse.until(() => sse.events.some((e) => e.event === 'session.ended'), 60_000, 'the call\'s end');
      const errors = sse.events.filter((e) => e.event === 'error').map((e) => e.data);
      assert.equal(errors.length, 1, JSON.stringify(errors));
      assert.equal(errors[0]!.code, 'PARLEY_ERR_STORE_UNAVAILABLE');
      assert.equal(errors[0]!.fatal, true);
      assert.match(String(errors[0]!.message), /could not record where this audio stream begins.*disk I\/O error/);
      assert.ok((await graph.getSession('default', call.call.callSid))?.endedAt, 'Twilio never resumes the stream: the call ended');
    } finally {
      injected.restore();
      call?.sse.close();
    }
  });

  test('Twilio: a call another server takes over is closed at once (4000, with the reason), its subscribers told, and not ended', async () => {
    const call = await liveCall(a);
    try {
      const onB = await TestWsClient.connect(`${b.wsUrl}/v1/stream?session_id=${call.call.callSid}`, {}, paced);
      assert.equal((await onB.next('session.started')).resumed, true);
      const { sse } = call;
      await sse.until(() => sse.events.some((e) => e.event === 'error'), 60_000, 'the takeover');
      const how = await call.closed;
      assert.equal(how.code, 4000);
      assert.equal(how.reason, 'session resumed on another connection');
      const busy = sse.events.find((e) => e.event === 'error')!.data;
      assert.equal(busy.code, 'PARLEY_ERR_SESSION_BUSY');
      assert.equal(busy.fatal, true);
      assert.equal(a.app.sessions.get('default', call.call.callSid), undefined, 'server A let the call go');
      assert.equal((await a.app.stores.graph.getSession('default', call.call.callSid))?.endedAt, null, 'the call goes on on B');
      assert.equal(b.app.sessions.get('default', call.call.callSid)?.connected, true);
      onB.close();
      await onB.closed();
    } finally {
      call.sse.close();
    }
  });
});
