import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { openStores } from '../../graph/open-stores.js';
import { fixtureSamples, loadAudioFixtures } from '../../pipelines/audio/fixtures.js';
import { encodeS16le } from '../../pipelines/audio/pcm-codecs.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { tempDir } from '../helpers/temp-dir.js';
import { TestWsClient } from '../helpers/ws-client.js';

/**
 * SIGTERM while a turn was open (vad.speech_started sent) used to lose that turn: the client got
 * PARLEY_ERR_SHUTTING_DOWN and close 1001, the turn's audio was never transcribed or stored, and nothing
 * told the client what to resend.
 */
async function shutDownMidTurn(
  graceMs: string,
  onApp: (app: FastifyInstance, client: () => TestWsClient) => void = () => {},
): Promise<{ events: Record<string, unknown>[]; stored: string[]; storedTurns: { startMs: number | null; endMs: number | null }[]; closeCode: number }> {
  const tmp = tempDir('parley-shutdown-turns-');
  try {
    const config = loadConfig({
      DATA_DIR: tmp.dir, PORT: '0', LOG_LEVEL: 'silent', PARLEY_INFERENCE_WORKERS: '1',
      PARLEY_AUDIO_MAX_QUEUED_MS: '600000', PARLEY_SHUTDOWN_GRACE_MS: graceMs,
    });
    const app = await buildApp(config, { logger: pino({ level: 'silent' }) });
    let client: TestWsClient | null = null;
    onApp(app, () => client!);
    await app.listen({ port: 0, host: '127.0.0.1' });
    await app.models.inference();
    const address = app.server.address();
    assert.ok(address && typeof address === 'object');
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const samples = fixtureSamples(awb);
    const c = await TestWsClient.connect(`ws://127.0.0.1:${address.port}/v1/stream?session_id=cut-by-sigterm`);
    client = c;
    await c.next('session.started');
    const mid = Math.round(16000 * ((awb.utterances[0]!.start_ms + 1500) / 1000)); // inside the first utterance
    for (let i = 0; i < mid; i += 1600) {
      c.sendRaw(encodeS16le(samples.subarray(i, Math.min(i + 1600, mid))));
      await new Promise((r) => setTimeout(r, 10));
    }
    await c.next('vad.speech_started', () => true, 60_000);
    await app.close();
    const closeCode = await c.closed(60_000);
    const reopened = openStores(config, pino({ level: 'silent' }));
    const transcript = await reopened.graph.getTranscript('default', 'cut-by-sigterm');
    await reopened.close(1000);
    return { events: c.events, stored: transcript.map((u) => u.text), storedTurns: transcript.map((u) => ({ startMs: u.startMs, endMs: u.endMs })), closeCode };
  } finally {
    tmp.remove();
  }
}

test('shutdown ends the open turn as if speech ended: transcribed, stored and sent before the closing error', async () => {
  const { events, stored, closeCode } = await shutDownMidTurn('60000');
  assert.equal(closeCode, 1001);
  const types = events.map((e) => e.type);
  const final = types.indexOf('transcript.final');
  const error = events.findIndex((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SHUTTING_DOWN');
  assert.ok(final >= 0, `the open turn gets its transcript.final (events: ${types.join(', ')})`);
  assert.ok(error > final, 'the closing error comes after the final');
  assert.equal(stored.length, 1, 'the turn is in the stored transcript after a restart');
  assert.equal(stored[0], events[final]!.text);
  // Everything up to where the audio was cut is stored: the client resends only what follows.
  assert.ok(Number(events[error]!.unstored_from_ms) >= Number(events[final]!.end_ms));
});

test('a turn shutdown cannot store within its grace is named in the closing error for the client to resend', async () => {
  const { events, closeCode } = await shutDownMidTurn('0');
  assert.equal(closeCode, 1001);
  const started = events.find((e) => e.type === 'vad.speech_started')!;
  const error = events.find((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SHUTTING_DOWN');
  assert.ok(error);
  assert.equal(events.filter((e) => e.type === 'transcript.final').length, 0);
  assert.equal(error.unstored_from_ms, started.audio_start_ms, 'resend from the start of the open turn');
  assert.match(String(error.message), /resend/);
});

test('a turn whose storing outlasts the grace is either stored or named for resend, never both', async () => {
  const graceMs = 30_000;
  let entered = false;
  const { events, storedTurns } = await shutDownMidTurn(String(graceMs), (app, client) => {
    // The store writes the turn, then its answer is slow: the grace runs out while the turn is being
    // stored. The answer comes once the client has the closing error, or a second after the grace ended.
    let drainStarted = Infinity;
    const drainAll = app.sessions.drainAll.bind(app.sessions);
    app.sessions.drainAll = (ms) => {
      drainStarted = Date.now();
      return drainAll(ms);
    };
    const ingest = app.ingest.ingest.bind(app.ingest);
    app.ingest.ingest = async (...args) => {
      const stored = await ingest(...args);
      entered = true;
      while (Date.now() < drainStarted + graceMs + 1_000) {
        if (client().events.some((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SHUTTING_DOWN')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      return stored;
    };
  });
  assert.ok(entered, 'the turn reached the store within the grace (else this test shows nothing)');
  assert.equal(storedTurns.length, 1, 'the turn was stored');
  const error = events.find((e) => e.type === 'error' && e.code === 'PARLEY_ERR_SHUTTING_DOWN');
  assert.ok(error);
  assert.equal(events.filter((e) => e.type === 'transcript.final').length, 1, 'the stored turn was acknowledged');
  const from = error.unstored_from_ms;
  assert.ok(from === undefined || Number(from) >= Number(storedTurns[0]!.endMs),
    `the stored turn (${storedTurns[0]!.startMs}–${storedTurns[0]!.endMs} ms) is not named for resend (unstored_from_ms ${String(from)})`);
});

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server/main.js');

test('kill -TERM of a server process with a turn open: the process exits 0 and the turn is in the transcript', async () => {
  const tmp = tempDir('parley-shutdown-turns-');
  const env = { ...process.env, DATA_DIR: tmp.dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000' };
  const server = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    const address = await new Promise<string>((resolve, reject) => {
      createInterface({ input: server.stdout }).on('line', (line) => {
        if (line.includes('"msg":"parley listening"')) resolve((JSON.parse(line) as { address: string }).address);
      });
      server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    const awb = loadAudioFixtures().find((f) => f.file === 'awb.wav')!;
    const samples = fixtureSamples(awb);
    const c = await TestWsClient.connect(`${address.replace('http', 'ws')}/v1/stream?session_id=sigterm`);
    await c.next('session.started');
    const mid = Math.round(16000 * ((awb.utterances[0]!.start_ms + 1500) / 1000));
    for (let i = 0; i < mid; i += 1600) {
      c.sendRaw(encodeS16le(samples.subarray(i, Math.min(i + 1600, mid))));
      await new Promise((r) => setTimeout(r, 10));
    }
    await c.next('vad.speech_started', () => true, 60_000);
    server.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.equal(c.events.filter((e) => e.type === 'transcript.final').length, 1);
    const config = loadConfig({ DATA_DIR: tmp.dir, LOG_LEVEL: 'silent' });
    const reopened = openStores(config, pino({ level: 'silent' }));
    assert.equal((await reopened.graph.getTranscript('default', 'sigterm')).length, 1, 'stored, read after the process exited');
    await reopened.close(1000);
  } finally {
    server.kill('SIGKILL');
    tmp.remove();
  }
});
