import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { ParleyClient, ParleyError, type ServerEvent, type StreamSession } from '../../clients/typescript/src/index.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { startTestApp } from '../helpers/app.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * The SDK's default resume used to give up after 8 attempts (about 23 s), before a restarted server
 * that loads its models was listening again; a server down for 25 s must still be found.
 */
test('@parley/client: the default resume outlasts a server that is down for 25 s', async () => {
  const tmp = tempDir('parley-sdk-restart-');
  const config = loadConfig({
    DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_ASR: 'none', PARLEY_SHUTDOWN_GRACE_MS: '0', PARLEY_SESSION_RESUME_MS: '60000',
  });
  let app = await buildApp(config, { logger: pino({ level: 'silent' }) });
  let session: StreamSession | null = null;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const client = new ParleyClient({ baseUrl: `http://127.0.0.1:${port}` });
    session = await client.stream({ sessionId: 'sdk-restart' });
    const failed: unknown[] = [];
    void (async () => {
      for await (const _ of session) { /* drained */ }
    })().catch((err: unknown) => failed.push(err));
    const resumed = session.waitFor('session.started', (e) => e.resumed === true, { timeoutMs: 120_000 });
    await app.close();
    await sleep(25_000);
    assert.deepEqual(failed, [], 'the stream has not given up while the server is down');
    app = await buildApp(config, { logger: pino({ level: 'silent' }) });
    await app.listen({ port, host: '127.0.0.1' });
    await resumed;
    assert.equal(session.reconnects, 1);
    await session.end({ timeoutMs: 60_000 });
  } finally {
    session?.close();
    await app.close();
    tmp.remove();
  }
});

/**
 * A stream that could not resume after a shutdown used to report `lostAudioMs` 0 although the server
 * had named audio it did not store, which nobody ever sent again.
 */
test('@parley/client: audio a shut-down server named as unstored counts as lost when the stream cannot resume', async () => {
  const t = await startTestApp({ PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000', PARLEY_SHUTDOWN_GRACE_MS: '0' });
  let session: StreamSession | null = null;
  try {
    await t.app.models.inference();
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const first = awb.utterances[0]!;
    // Whole 20 ms frames, so the audio sent ends exactly at cutMs.
    const cutMs = Math.ceil((first.start_ms + 1000) / 20) * 20;
    const client = new ParleyClient({ baseUrl: t.httpUrl });
    session = await client.stream({ sessionId: 'sdk-lost', pacing: 'fast', resume: { totalMs: 1500 } });
    const seen: ServerEvent[] = [];
    const iterated = (async () => {
      for await (const e of session) seen.push(e);
    })().then(() => null, (err: unknown) => err);
    const started = session.waitFor('vad.speech_started', () => true, { timeoutMs: 120_000 });
    session.sendAudio(encodeS16le(fixtureSamples(awb).subarray(0, Math.round(16 * cutMs))));
    await started;
    await session.drained();
    await t.app.close();
    const error = await iterated;
    assert.ok(error instanceof ParleyError && error.code === 'PARLEY_CLIENT_CLOSED', `the stream ends unresumed: ${String(error)}`);
    const closing = seen.find((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SHUTTING_DOWN');
    assert.ok(closing?.type === 'error' && closing.unstored_from_ms !== undefined, 'the server named unstored audio');
    assert.equal(session.resentAudioMs, 0);
    assert.equal(session.lostAudioMs, cutMs - closing.unstored_from_ms, 'everything from the named offset to the last frame sent is lost');
    assert.match(error.message, /not resent/);
  } finally {
    session?.close();
    await t.close();
  }
});
