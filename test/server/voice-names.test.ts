import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readWav } from '../../pipelines/audio/wav.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { TestWsClient } from '../helpers/ws-client.js';

/** flite awb saying `text`, 16 kHz, with 0.6 s of silence before it. */
function speech(text: string): Float32Array {
  const dir = mkdtempSync(path.join(tmpdir(), 'parley-voice-names-'));
  try {
    execFileSync('flite', ['-voice', 'awb', '-t', text, '-o', path.join(dir, 'raw.wav')]);
    execFileSync('sox', [path.join(dir, 'raw.wav'), '-r', '16000', '-c', '1', '-b', '16', path.join(dir, 'x.wav'), 'pad', '0.6', '0']);
    return readWav(path.join(dir, 'x.wav')).samples;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('voice over WebSocket with PARLEY_ASR_NAME_SPOTTING=true and 100 of the tenant\'s names after the session\'s', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      PARLEY_INFERENCE_WORKERS: '1', PARLEY_AUDIO_MAX_QUEUED_MS: '600000', PARLEY_ASR_NAME_SPOTTING: 'true', PARLEY_ASR_NAME_SPOTTING_TENANT_NAMES: '100',
    });
    await t.app.models.inference();
  });
  after(async () => { await t.close(); });

  // Runs first: a fresh recogniser writes "great" for this audio; after other audio it may write "grace" unaided.
  test('the session\'s expected caller is listened for although a hundred callers of the tenant were named since', async () => {
    const { graph } = t.app.stores;
    // A returning caller known by phone number, named long ago; then 150 other callers were named.
    await graph.createParticipant('default', { name: 'Grace Lee', externalId: '+15550123' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 0; i < 150; i++) await graph.createParticipant('default', { name: `Caller${i}` });
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=names-2&external_id=%2B15550123`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    await c.speak(speech('hi this is grace from accounts'));
    const final = await c.next('transcript.final', () => true, 60_000);
    assert.match(String(final.text), /\bgrace\b/, `final: "${String(final.text)}"`);
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 60_000);
  });

  test('a participant the tenant knows is heard by name (the plain decoder writes "great" for this audio)', async () => {
    await t.app.stores.graph.createParticipant('default', { name: 'Grace Hopper' });
    await t.app.stores.graph.createParticipant('default', { name: 'Robert', aliases: ['Bob'] });
    const c = await TestWsClient.connect(`${t.wsUrl}/v1/stream?session_id=names-1`, {}, { pacing: 'realtime', frameMs: 100, speed: 1 });
    await c.next('session.started');
    await c.speak(speech('hi this is grace from accounts'));
    const final = await c.next('transcript.final', () => true, 60_000);
    assert.match(String(final.text), /\bgrace\b/, `final: "${String(final.text)}"`);
    c.sendJson({ type: 'session.end' });
    await c.next('session.ended', () => true, 60_000);
  });
});
