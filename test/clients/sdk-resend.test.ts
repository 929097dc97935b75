import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { pino } from 'pino';
import { ParleyClient, type ServerEvent, type StreamSession } from '../../clients/typescript/src/index.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * The SDK used to ignore `unstored_from_ms`: after a server shutdown cut a turn, its reconnect went on
 * with new audio only, so the start of the cut turn was never stored.
 */
test('@parley/client: after a server shutdown the reconnect resends the audio the server named, and the cut turn is stored whole', async () => {
  const tmp = tempDir('parley-sdk-resend-');
  const config = loadConfig({
    DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_INFERENCE_WORKERS: '1',
    PARLEY_AUDIO_MAX_QUEUED_MS: '600000', PARLEY_SHUTDOWN_GRACE_MS: '0', PARLEY_SESSION_RESUME_MS: '60000',
  });
  let app = await buildApp(config, { logger: pino({ level: 'silent' }) });
  let session: StreamSession | null = null;
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    await app.models.inference();
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const [first, second] = [awb.utterances[0]!, awb.utterances[1]!];
    const samples = fixtureSamples(awb);
    const at = (ms: number): number => Math.round((16000 * ms) / 1000);
    const client = new ParleyClient({ baseUrl: `http://127.0.0.1:${port}` });
    session = await client.stream({ sessionId: 'sdk-resend', pacing: 'fast', resume: { attempts: 60, delayMs: 250 } });
    const seen: ServerEvent[] = [];
    void (async () => {
      for await (const e of session) seen.push(e);
    })().catch(() => undefined);

    // The first turn is stored; the server shuts down one second into the second.
    const firstFinal = session.waitFor('transcript.final', () => true, { timeoutMs: 120_000 });
    const secondStarted = session.waitFor('vad.speech_started', (e) => e.audio_start_ms > first.end_ms, { timeoutMs: 120_000 });
    const cut = at(second.start_ms + 1000);
    session.sendAudio(encodeS16le(samples.subarray(0, cut)));
    await firstFinal;
    const cutTurn = await secondStarted;
    await session.drained();
    const resumed = session.waitFor('session.started', (e) => e.resumed === true, { timeoutMs: 180_000 });
    await app.close();
    const closing = seen.find((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SHUTTING_DOWN');
    assert.ok(closing && closing.type === 'error' && closing.unstored_from_ms !== undefined, 'the closing error names unstored audio');
    assert.ok(closing.unstored_from_ms! > first.end_ms, 'the stored first turn is not named (nothing of it is resent)');
    assert.equal(closing.unstored_from_ms, cutTurn.audio_start_ms, 'the cut turn is named from its start');

    // The same data on the same port: the SDK reconnects on its own, then the rest of the turn follows.
    app = await buildApp(config, { logger: pino({ level: 'silent' }) });
    await app.listen({ port, host: '127.0.0.1' });
    await resumed;
    session.sendAudio(encodeS16le(samples.subarray(cut, at(second.end_ms + 300))));
    session.sendAudio(encodeS16le(new Float32Array(at(1500))));
    await session.end({ timeoutMs: 180_000 });

    const transcript = await app.stores.graph.getTranscript('default', 'sdk-resend');
    assert.ok(transcript.length >= 2, `both turns are stored (${transcript.length})`);
    const resent = transcript.slice(1);
    const spanMs = resent.at(-1)!.endMs! - resent[0]!.startMs!;
    // Without the resend the second server hears only the turn's last second.
    assert.ok(spanMs >= 0.8 * (second.end_ms - second.start_ms), `the cut turn is stored whole: ${spanMs} ms of a ${second.end_ms - second.start_ms} ms utterance`);
    assert.ok(session.resentAudioMs > 0);
    assert.equal(session.lostAudioMs, 0);
  } finally {
    session?.close();
    await app.close();
    tmp.remove();
  }
});
