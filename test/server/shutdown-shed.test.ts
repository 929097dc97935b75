import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * SIGTERM while audio was being shed: the closing PARLEY_ERR_SHUTTING_DOWN named where the audio was cut (8040 ms in
 * the trial) as the resend point, while the resumed session.started named where nothing was stored (6320 ms, where the
 * shedding began). A client trusting the closing error lost what lay between. The audio is timed by the test's clock
 * (`audioNow`, never moved): all of it arrives at once, the first 5 s are taken (the lead allowed) and the rest is shed.
 */
test('shutdown while audio is shed names the same resend point as the resumed session.started, and the shed span', async () => {
  const tmp = tempDir('parley-shutdown-shed-');
  const env = { DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000', PARLEY_SHUTDOWN_GRACE_MS: '60000' };
  const start = async () => {
    const app = await buildApp(loadConfig(env), { logger: pino({ level: 'silent' }), audioNow: () => 1_000_000 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await app.models.inference();
    const address = app.server.address();
    assert.ok(address && typeof address === 'object');
    return { app, url: `ws://127.0.0.1:${address.port}/v1/stream?session_id=shed-then-sigterm` };
  };
  try {
    const first = await start();
    const c = await TestWsClient.connect(first.url);
    await c.next('session.started');
    // 600 ms of silence, then awb's lines: the second (3423–5435 ms here) is still being spoken at 5000 ms, where shedding begins.
    const awb = fixtureSamples(loadAudioFixtures().find((f) => f.file === 'awb.wav')!);
    const audio = new Float32Array(8000 * 16);
    audio.set(awb.subarray(0, audio.length - 9600), 9600);
    for (let i = 0; i < audio.length; i += 1600) c.sendRaw(encodeS16le(audio.subarray(i, i + 1600)));
    const overloaded = await c.next('error', (e) => e.code === 'PARLEY_ERR_OVERLOADED', 60_000);
    assert.equal(overloaded.shed_from_ms, 5000);
    await c.next('vad.speech_started', (e) => Number(e.audio_start_ms) > 3000, 120_000);
    await first.app.close();
    assert.equal(await c.closed(60_000), 1001);
    const closing = c.events.find((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SHUTTING_DOWN');
    assert.ok(closing);
    const shed = c.events.find((e) => e.type === 'audio.shed');
    assert.deepEqual(shed && { from: shed.shed_from_ms, until: shed.shed_until_ms, spans: shed.spans },
      { from: 5000, until: 8000, spans: [{ from_ms: 5000, until_ms: 8000 }] }, 'the span never heard, named before the socket closed');
    const finals = c.events.filter((e) => e.type === 'transcript.final');
    assert.ok(finals.length >= 1, 'what was heard is stored');
    assert.ok(Number(closing.unstored_from_ms) <= 5000, `resend from no later than the shed audio (named ${String(closing.unstored_from_ms)})`);

    const second = await start();
    try {
      const again = await TestWsClient.connect(second.url);
      const started = await again.next('session.started');
      assert.equal(started.resumed, true);
      assert.equal(closing.unstored_from_ms, started.unstored_from_ms, 'one resend point, whichever a client trusts');
      again.close();
    } finally {
      await second.app.close();
    }
  } finally {
    tmp.remove();
  }
});
