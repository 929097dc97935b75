import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ParleyClient, type ServerEvent, type StreamSession } from '../../clients/typescript/src/index.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { killHard, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * A server killed with SIGKILL in the middle of a turn sends no closing error, and its resumed
 * `session.started` used to say only `resumed: true`: the SDK resent nothing, so the part of the cut turn
 * sent before the crash was lost (and counted nowhere). The resume now names where the stored audio of
 * the old stream ends, and the SDK resends from there: the cut turn is stored whole, the stored one once.
 */
test('@parley/client: after kill -9 mid-turn the resumed session names where nothing is stored, and the SDK resends it', async () => {
  const tmp = tempDir('parley-sdk-crash-');
  const env = {
    DATA_DIR: tmp.dir, PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000', PARLEY_SESSION_RESUME_MS: '60000',
  };
  let server: ServerProcess | null = await startServerProcess(env);
  let session: StreamSession | null = null;
  try {
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const [first, second] = [awb.utterances[0]!, awb.utterances[1]!];
    const samples = fixtureSamples(awb);
    const at = (ms: number): number => Math.round((16000 * ms) / 1000);
    const client = new ParleyClient({ baseUrl: server.httpUrl });
    session = await client.stream({ sessionId: 'sdk-crash', pacing: 'fast', resume: { attempts: 600, delayMs: 250 } });
    const seen: ServerEvent[] = [];
    void (async () => {
      for await (const e of session) seen.push(e);
    })().catch(() => undefined);

    // The first turn is stored; the server is killed one second into the second.
    const firstFinal = session.waitFor('transcript.final', () => true, { timeoutMs: 180_000 });
    const secondStarted = session.waitFor('vad.speech_started', (e) => e.audio_start_ms > first.end_ms, { timeoutMs: 180_000 });
    const cut = at(second.start_ms + 1000);
    session.sendAudio(encodeS16le(samples.subarray(0, cut)));
    const stored = await firstFinal;
    await secondStarted;
    await session.drained();
    const resumed = session.waitFor('session.started', (e) => e.resumed === true, { timeoutMs: 240_000 });
    const port = new URL(server.httpUrl).port;
    await killHard(server);
    server = null;
    assert.equal(seen.filter((e) => e.type === 'error').length, 0, 'no closing error: the server was killed');

    // The same data on the same port: the SDK reconnects on its own.
    server = await startServerProcess({ ...env, PORT: port });
    const started = await resumed;
    assert.equal(started.unstored_from_ms, Math.floor(stored.end_ms!),
      'nothing is stored from the end of the stored first turn on (a new session: its stream and transcript clocks agree)');
    session.sendAudio(encodeS16le(samples.subarray(cut, at(second.end_ms + 300))));
    session.sendAudio(encodeS16le(new Float32Array(at(1500))));
    await session.end({ timeoutMs: 240_000 });

    const transcript = (await new ParleyClient({ baseUrl: server.httpUrl }).transcript('sdk-crash')).utterances;
    assert.equal(transcript[0]?.id, stored.utterance_id, 'the first turn is the one stored before the crash');
    const after = transcript.slice(1);
    assert.ok(after.length >= 1, 'the cut turn is stored');
    assert.ok(after[0]!.start_ms! >= stored.end_ms!, `nothing of the stored turn is stored again (next turn from ${after[0]!.start_ms} ms, stored turn ended at ${stored.end_ms} ms)`);
    const spanMs = after.at(-1)!.end_ms! - after[0]!.start_ms!;
    // Without the resend the new server hears only the turn's audio after the cut.
    assert.ok(spanMs >= 0.8 * (second.end_ms - second.start_ms), `the cut turn is stored whole: ${spanMs} ms of a ${second.end_ms - second.start_ms} ms utterance`);
    assert.ok(session.resentAudioMs >= cut / 16 - stored.end_ms! - 20, `everything after the stored turn was resent (${session.resentAudioMs} ms)`);
    assert.equal(session.lostAudioMs, 0);
  } finally {
    session?.close();
    if (server) await killHard(server);
    tmp.remove();
  }
});
